-- xref.lua: a chapter named by its title gets its number, linked, as in a
-- printed book: `chapter "A disk"` reads `chapter 26, "A disk"`, the number a
-- link to the chapter.  A pandoc filter run on the joined book (tools/weave),
-- before the editions are made from it, so that the student edition and the
-- guide show the book's numbers.  A title counts after the word chapter,
-- chapters, appendix or appendices, and in the list that word begins
-- ("chapters "A" and "B""); a quoted title inside a link is left alone.
-- Chapters are numbered as pandoc numbers them: each heading of level one
-- that is not unnumbered.  A title is the whole heading, in any case, or its
-- words up to a colon ("The CPU's identity" for "The CPU's identity: CPUID
-- and MSRs"), or after "Appendix: ".

local chapters = {}

local function collect(doc)
	local n = 0
	for _, b in ipairs(doc.blocks) do
		if b.t == "Header" and b.level == 1 and not b.classes:includes("unnumbered") then
			n = n + 1
			local title = pandoc.utils.stringify(b.content):lower()
			local ch = { number = n, id = b.identifier }
			chapters[title] = ch
			-- The prose may name a chapter by its title up to the colon,
			-- and an appendix by its title after "Appendix: ".
			local short = title:match("^appendix: (.*)") or title:match("^(.-): ")
			if short and not chapters[short] then
				chapters[short] = ch
			end
		end
	end
end

local naming = { chapter = true, chapters = true, appendix = true, appendices = true }

-- True if a list that a naming word began goes on through EL.
local function continues(el)
	if el.t == "Space" or el.t == "SoftBreak" then
		return true
	end
	return el.t == "Str" and (el.text == "and" or el.text == "or" or el.text == ",")
end

local function number(list)
	local out = pandoc.List()
	local open = false
	for _, el in ipairs(list) do
		local ch = el.t == "Quoted" and el.quotetype == "DoubleQuote" and
			chapters[pandoc.utils.stringify(el.content):lower()]
		if open and ch then
			out:insert(pandoc.Link({ pandoc.Str(tostring(ch.number)) }, "#" .. ch.id))
			out:insert(pandoc.Str(","))
			out:insert(pandoc.Space())
		elseif el.t == "Str" and naming[el.text:lower():gsub("^%(", "")] then
			open = true
		elseif not continues(el) then
			open = false
		end
		out:insert(el)
	end
	return out
end

-- A title already inside a link is hidden from number() in a span of its
-- own, where no naming word goes before it, and shown again after.
local function hide(link)
	return link:walk({
		Quoted = function(q)
			return pandoc.Span({ q }, { class = "xref-kept" })
		end,
	})
end

local function show(span)
	if span.classes:includes("xref-kept") then
		return span.content
	end
end

function Pandoc(doc)
	collect(doc)
	doc = doc:walk({ Link = hide })
	doc = doc:walk({ Inlines = number })
	return doc:walk({ Span = show })
end

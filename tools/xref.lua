-- xref.lua: the book's parts, chapters and appendices numbered, and a chapter
-- named by its title given its number, linked, as in a printed book:
-- `chapter "A disk"` reads `chapter 26, "A disk"`, the number a link to the
-- chapter.  A pandoc filter run on the joined book (tools/weave), before the
-- editions are made from it, so that the student edition and the guide show
-- the book's numbers.
-- - A chapter that begins a part says so in its heading's attribute part, the
--   part's title: a heading of the part (classes part and unnumbered, its
--   number in the attribute part) goes before it, which tools/render.lua
--   makes a part page in LaTeX.  Parts are numbered I, II, ...
-- - A heading of level one whose title begins "Appendix" is an appendix:
--   lettered A, B, ... (the attribute number, which pandoc's HTML and EPUB
--   writers print, on it and on its sections; LaTeX letters them itself after
--   \appendix, which render.lua puts before the first), its title without the
--   word "Appendix: ".  The preface is unnumbered in the book's source, and so,
--   here, are its sections.
-- - A title counts after the word chapter, chapters, appendix or appendices,
--   and in the list that word begins ("chapters "A" and "B""); a quoted
--   title inside a link is left alone.  Chapters are numbered as pandoc
--   numbers them: each heading of level one that is not unnumbered.  A title
--   is the whole heading, in any case, or its words up to a colon ("The CPU's
--   identity" for "The CPU's identity: CPUID and MSRs"), or after
--   "Appendix: ".

local chapters = {}

local romans = { "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X" }

-- The headings of level one and below, in order: the book's own blocks and
-- those of a div at the top (the syllabus is in the guide's div).
local function headers(blocks, fn)
	for _, b in ipairs(blocks) do
		if b.t == "Header" then
			fn(b)
		elseif b.t == "Div" then
			headers(b.content, fn)
		end
	end
end

-- Parts before the chapters that begin them; appendices lettered.
local function divide(doc)
	local out = pandoc.List()
	local parts = 0
	for _, b in ipairs(doc.blocks) do
		if b.t == "Header" and b.level == 1 and b.attributes.part then
			parts = parts + 1
			local title = b.attributes.part
			b.attributes.part = nil
			out:insert(pandoc.Header(1, pandoc.Inlines(title), pandoc.Attr("part-" .. parts,
				{ "part", "unnumbered" }, { part = romans[parts] })))
		end
		out:insert(b)
	end
	doc.blocks = out
	local letter, counts = nil, {}
	local appendices = 0
	local plain = false
	headers(doc.blocks, function(h)
		if h.level == 1 then
			letter = nil
			plain = h.classes:includes("unnumbered") and not h.classes:includes("part")
			local text = pandoc.utils.stringify(h.content)
			if text:match("^Appendix") and not h.classes:includes("unnumbered") then
				appendices = appendices + 1
				letter = string.char(64 + appendices)
				h.classes:insert("appendix")
				h.attributes.number = letter
				counts = {}
				-- "Appendix: fuzzing the devices" reads "Fuzzing the devices".
				local rest = text:match("^Appendix: (.*)")
				if rest then
					h.content = pandoc.Inlines(rest:sub(1, 1):upper() .. rest:sub(2))
				end
			end
		elseif plain then
			-- the sections of the preface are not numbered 0.1, 0.2
			if not h.classes:includes("unnumbered") then
				h.classes:insert("unnumbered")
			end
		elseif letter and not h.classes:includes("unnumbered") then
			counts[h.level] = (counts[h.level] or 0) + 1
			for l = h.level + 1, 6 do
				counts[l] = nil
			end
			local n = letter
			for l = 2, h.level do
				n = n .. "." .. (counts[l] or 0)
			end
			h.attributes.number = n
		end
	end)
	return doc
end

local function collect(doc)
	local n = 0
	for _, b in ipairs(doc.blocks) do
		if b.t == "Header" and b.level == 1 and not b.classes:includes("unnumbered") then
			n = n + 1
			local title = pandoc.utils.stringify(b.content):lower()
			local ch = { number = b.attributes.number or tostring(n), id = b.identifier }
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
	doc = divide(doc)
	collect(doc)
	doc = doc:walk({ Link = hide })
	doc = doc:walk({ Inlines = number })
	return doc:walk({ Span = show })
end

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
-- - A section counts after the word section or sections: a section of the
--   chapter named just before it ("chapter "A", section "B""), else of the
--   chapter it is written in, else the only section of the book with that
--   title; it reads `section 28.7, "Against a peer"`.  A section of another
--   document is named with its owner before the word, which leaves it alone:
--   "the virtio specification's section "Block Device"", "its sections".
-- - A chapter's title quoted without the word is numbered too:
--   `"Several vCPUs" (chapter 25)`, or `(chapter 25, "Several vCPUs")` after
--   an opening parenthesis.
-- - A reference after one of those words that names nothing in the book
--   fails the weave, each one named with the chapter it is in: the book's
--   references are its markup, and the test test-xref checks that they are
--   checked.

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

-- Every numbered heading: a chapter's under its title (and short title), a
-- section's under its title in its chapter, and in the book when no other
-- section has that title.  Numbers as pandoc gives them (chapter.section...),
-- or the letters divide() gave an appendix and its sections.
local sections = {}	-- chapter id -> title -> section
local anywhere = {}	-- title -> section, or false when two sections share it

local function collect(doc)
	local n = 0
	local ch, counts
	headers(doc.blocks, function(h)
		if h.classes:includes("unnumbered") then
			if h.level == 1 then
				ch = nil
			end
			return
		end
		local title = pandoc.utils.stringify(h.content):lower()
		if h.level == 1 then
			n = n + 1
			ch = { number = h.attributes.number or tostring(n), id = h.identifier, title = title }
			chapters[title] = ch
			-- The prose may name a chapter by its title up to the colon,
			-- and an appendix by its title after "Appendix: ".
			local short = title:match("^appendix: (.*)") or title:match("^(.-): ")
			if short and not chapters[short] then
				chapters[short] = ch
			end
			sections[ch.id] = {}
			counts = {}
		elseif ch then
			counts[h.level] = (counts[h.level] or 0) + 1
			for l = h.level + 1, 6 do
				counts[l] = nil
			end
			local num = h.attributes.number
			if not num then
				num = ch.number
				for l = 2, h.level do
					num = num .. "." .. (counts[l] or 0)
				end
			end
			local sec = { number = num, id = h.identifier }
			if not sections[ch.id][title] then
				sections[ch.id][title] = sec
			end
			anywhere[title] = anywhere[title] == nil and sec or false
		end
	end)
end

local naming = { chapter = "chapter", chapters = "chapter", appendix = "chapter",
	appendices = "chapter", section = "section", sections = "section" }

-- True if a list that a naming word began goes on through EL.
local function continues(el)
	if el.t == "Space" or el.t == "SoftBreak" then
		return true
	end
	return el.t == "Str" and (el.text == "and" or el.text == "or" or el.text == "," or el.text == "(")
end

-- References that name no chapter or section of the book: the weave fails
-- on them (Pandoc below), each shown with the chapter it is in.
local unresolved = {}
local here	-- the chapter being read

-- A section named after a chapter ("chapter "A", section "B"") is that
-- chapter's; otherwise the current chapter's, or the only one of its title.
-- A section of another document is named with its owner before the word:
-- "the virtio specification's section "Block Device"", "its section".
local function number(list)
	local out = pandoc.List()
	local open, scope = nil, nil
	local owned = false
	for i, el in ipairs(list) do
		local title = el.t == "Quoted" and el.quotetype == "DoubleQuote" and
			pandoc.utils.stringify(el.content):lower()
		local target
		if open and title then
			if open == "chapter" then
				target = chapters[title]
				scope = target
			elseif not owned then
				if scope then
					target = sections[scope.id][title]
				else
					target = here and sections[here.id][title] or anywhere[title] or nil
				end
			end
			if not target and not (open == "section" and owned) then
				table.insert(unresolved, string.format('%s "%s" (in chapter "%s")', open,
					pandoc.utils.stringify(el.content), here and here.title or "?"))
			end
		elseif title and chapters[title] then
			-- A title quoted alone: "(chapter 25, "Several vCPUs")" after a
			-- parenthesis, else ""Several vCPUs" (chapter 25)".
			local ch = chapters[title]
			local word = ch.number:match("^%d") and "chapter " or "appendix "
			local prev = out[#out]
			if prev and prev.t == "Str" and prev.text:match("%($") then
				out:insert(pandoc.Str(word))
				out:insert(pandoc.Link({ pandoc.Str(ch.number) }, "#" .. ch.id))
				out:insert(pandoc.Str(","))
				out:insert(pandoc.Space())
				out:insert(el)
			else
				out:insert(el)
				out:insert(pandoc.Space())
				out:insert(pandoc.Str("(" .. word))
				out:insert(pandoc.Link({ pandoc.Str(ch.number) }, "#" .. ch.id))
				out:insert(pandoc.Str(")"))
			end
			goto next
		end
		if target then
			out:insert(pandoc.Link({ pandoc.Str(tostring(target.number)) }, "#" .. target.id))
			out:insert(pandoc.Str(","))
			out:insert(pandoc.Space())
		elseif el.t == "Str" and naming[el.text:lower():gsub("^%(", "")] then
			open = naming[el.text:lower():gsub("^%(", "")]
			local prev = list[i - 2]
			owned = open == "section" and prev and prev.t == "Str" and
				(prev.text:match("'s$") or prev.text:match("’s$") or prev.text:lower() == "its") and true
		elseif not title and not continues(el) then
			open, scope = nil, nil
		end
		out:insert(el)
		::next::
	end
	return out
end

-- A title already inside a link is hidden from number() as a single-quoted
-- one in a span of its own, and shown again, double-quoted, after.
local function hide(link)
	return link:walk({
		Quoted = function(q)
			if q.quotetype == "DoubleQuote" then
				return pandoc.Span({ pandoc.Quoted("SingleQuote", q.content) }, { class = "xref-kept" })
			end
		end,
	})
end

local function show(span)
	if span.classes:includes("xref-kept") then
		return pandoc.Quoted("DoubleQuote", span.content[1].content)
	end
end

-- The blocks in order, each chapter's prose read knowing its chapter.
local function read(blocks)
	for i, b in ipairs(blocks) do
		if b.t == "Header" and b.level == 1 then
			here = chapters[pandoc.utils.stringify(b.content):lower()] or here
		end
		if b.t == "Div" then
			read(b.content)
		else
			blocks[i] = b:walk({ Inlines = number })
		end
	end
end

function Pandoc(doc)
	doc = divide(doc)
	collect(doc)
	doc = doc:walk({ Link = hide })
	read(doc.blocks)
	if #unresolved > 0 then
		for _, u in ipairs(unresolved) do
			io.stderr:write("xref: no such " .. u .. "\n")
		end
		error(#unresolved .. " references name nothing in the book")
	end
	return doc:walk({ Span = show })
end

-- render.lua: what each output format needs besides pandoc's own rendering
-- (a pandoc filter, run when the woven JSON becomes HTML, LaTeX or EPUB).
-- - The licences (metadata `rights`) go on the title page: in LaTeX after
--   \maketitle, in HTML at the top of the body, beside the title block (the
--   contents are a sidebar there); the EPUB's title page shows them itself.
-- - HTML gets a "Contents" link that narrow screens show in a corner.
-- - Tabs in code become spaces to 8-column stops in the PDF and the EPUB:
--   LaTeX's verbatim would put a fixed run of spaces for each tab and break
--   the alignment after text (the HTML's style sets tab stops itself).
-- - The guide's links to the HTML book become plain text in the PDF.
-- - A figure named without an extension (book/README.md) becomes the PDF
--   drawing in LaTeX, the SVG one elsewhere.
-- - A part's heading (tools/xref.lua) is a part page in LaTeX, \part, and elsewhere
--   reads "Part I: its title"; LaTeX letters the appendices after \appendix.
-- - A session line of the harness (a div .harness, tools/nw2md.awk) is small
--   and grey on paper, as the HTML's style sets it, and in italics in the EPUB.
-- - In the EPUB each chunk use in code (a marker from nw2md.awk) becomes the
--   chunk's name and number, unlinked: the refs file is KVMBOOK_REFS.

local function rights(meta)
	local r = meta.rights
	if not r then
		return {}
	end
	if pandoc.utils.type(r) == "Blocks" then
		return r
	end
	return { pandoc.Plain(r) }
end

local function read_refs()
	local names = {}
	local file = os.getenv("KVMBOOK_REFS")
	if file then
		for line in io.lines(file) do
			local marker, _, num, name = line:match("^([^\t]*)\t([^\t]*)\t([^\t]*)\t(.*)$")
			if marker then
				names[marker] = "⟨" .. name .. " " .. num .. "⟩"
			end
		end
	end
	return names
end

local function expand_tabs(text)
	return (text:gsub("[^\n]*", function(line)
		local out, col = {}, 0
		for piece, tab in line:gmatch("([^\t]*)(\t?)") do
			table.insert(out, piece)
			col = col + utf8.len(piece)
			if tab ~= "" then
				local n = 8 - col % 8
				table.insert(out, string.rep(" ", n))
				col = col + n
			end
		end
		return table.concat(out)
	end))
end

function Pandoc(doc)
	local ext = FORMAT == "latex" and ".pdf" or ".svg"
	doc = doc:walk({
		Image = function(img)
			if not img.src:match("%.%w+$") then
				img.src = img.src .. ext
				return img
			end
		end,
	})
	if FORMAT == "latex" or FORMAT:match("^epub") then
		doc = doc:walk({
			CodeBlock = function(code)
				code.text = expand_tabs(code.text)
				return code
			end,
		})
	end
	local first_appendix = true
	doc = doc:walk({
		Header = function(h)
			if h.classes:includes("part") then
				if FORMAT == "latex" then
					return pandoc.RawBlock("latex", "\\part{" .. pandoc.utils.stringify(h.content) .. "}")
				end
				h.content = pandoc.Inlines("Part " .. h.attributes.part .. ": ") .. h.content
				return h
			end
			if h.classes:includes("appendix") and FORMAT == "latex" and first_appendix then
				first_appendix = false
				return { pandoc.RawBlock("latex", "\\appendix"), h }
			end
		end,
	})
	doc = doc:walk({
		Div = function(d)
			if not d.classes:includes("harness") then
				return nil
			end
			if FORMAT == "latex" then
				return { pandoc.RawBlock("latex", "\\begingroup\\small\\color{darkgray}"),
					d, pandoc.RawBlock("latex", "\\par\\endgroup") }
			elseif FORMAT:match("^epub") then
				return d:walk({ Para = function(p) return pandoc.Para({ pandoc.Emph(p.content) }) end })
			end
		end,
	})
	local blocks = rights(doc.meta)
	if FORMAT == "latex" then
		-- The guide's links into the HTML book are plain text on paper.
		doc = doc:walk({
			Link = function(link)
				if link.target:match("^kvmbook%.html") then
					return pandoc.Span(link.content)
				end
			end,
		})
		local before = { pandoc.RawBlock("latex", "\\begin{center}\\begin{minipage}{0.8\\textwidth}\\small") }
		for _, b in ipairs(blocks) do
			table.insert(before, b)
		end
		table.insert(before, pandoc.RawBlock("latex", "\\end{minipage}\\end{center}"))
		doc.meta["include-before"] = pandoc.MetaBlocks(before)
	elseif FORMAT:match("^html") then
		local top = {
			pandoc.RawBlock("html", '<a class="to-contents" href="#TOC">Contents</a>'),
			pandoc.Div(blocks, { id = "licences", class = "licences" }),
		}
		for i = #top, 1, -1 do
			table.insert(doc.blocks, 1, top[i])
		end
	elseif FORMAT:match("^epub") then
		local names = read_refs()
		doc = doc:walk({
			CodeBlock = function(code)
				code.text = code.text:gsub("kvmbookref%d+x", names)
				return code
			end,
		})
	end
	return doc
end

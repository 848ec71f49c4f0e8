-- student.lua: the student edition of the woven book (a pandoc filter, JSON to
-- JSON).  The book marks worked solutions `::: {.solution}` and notes for
-- instructors `::: {.instructors}` (or `[...]{.instructors}` inside a
-- paragraph); this drops them with every chunk inside.  Links to a dropped
-- chunk become plain text, and an index entry whose links all went is
-- dropped too.  The ids of the dropped chunks go to the file named by
-- KVMBOOK_DROPPED, for chunkrefs.awk to leave chunk uses in code unlinked.

local hidden = { solution = true, instructors = true }

local function is_hidden(el)
	for _, class in ipairs(el.classes) do
		if hidden[class] then
			return true
		end
	end
	return false
end

local dropped = {}
local ndropped = 0

local function drop(el)
	if is_hidden(el) then
		pandoc.walk_block(pandoc.Div(el.content), {
			Div = function(d)
				if d.identifier ~= "" then
					dropped[d.identifier] = true
					ndropped = ndropped + 1
				end
			end,
		})
		return {}
	end
end

local function target(link)
	return link.target:match("^#(.*)$")
end

-- A link into what is gone keeps its text.
local function unlink(link)
	local id = target(link)
	if id and dropped[id] then
		return pandoc.Span(link.content, { class = "dropped" })
	end
end

-- An index entry is a paragraph of links; it goes when every one of them did.
local function index_entry(para)
	local links, gone = 0, 0
	pandoc.walk_block(para, {
		Link = function(link)
			links = links + 1
			local id = target(link)
			if id and dropped[id] then
				gone = gone + 1
			end
		end,
	})
	if links > 0 and gone == links then
		return {}
	end
end

function Pandoc(doc)
	doc = doc:walk({ Div = drop, Span = drop })
	doc = doc:walk({
		Div = function(div)
			if div.classes:includes("index") then
				return pandoc.walk_block(div, { Para = index_entry })
			end
		end,
	})
	doc = doc:walk({ Link = unlink })
	local file = os.getenv("KVMBOOK_DROPPED")
	if file then
		local out = assert(io.open(file, "w"))
		for id in pairs(dropped) do
			out:write(id, "\n")
		end
		out:close()
	end
	return doc
end

-- join.lua: the book as one document, from the chapters pandoc read one by
-- one (tools/weave).  A pandoc filter run on an empty document: the files
-- KVMBOOK_PARTS names, one a line, are pandoc JSON, and their blocks become
-- the document's, in that order.  Read as one text, pandoc would have made
-- each heading's identifier unique across the book ("in-short",
-- "in-short-1", ...); read apart, each chapter starts afresh, so the same
-- numbering is done here.

local function read_json(path)
	local f = assert(io.open(path, "r"))
	local text = f:read("a")
	f:close()
	return pandoc.read(text, "json")
end

function Pandoc(doc)
	local blocks = {}
	local list = assert(io.open(assert(os.getenv("KVMBOOK_PARTS")), "r"))
	for path in list:lines() do
		for _, b in ipairs(read_json(path).blocks) do
			blocks[#blocks + 1] = b
		end
	end
	list:close()
	local used = {}
	local function unique(el)
		local id = el.identifier
		if id == "" then
			return nil
		end
		if used[id] then
			local n = 1
			while used[id .. "-" .. n] do
				n = n + 1
			end
			id = id .. "-" .. n
			el.identifier = id
		end
		used[id] = true
		return el
	end
	local joined = pandoc.Pandoc(blocks, doc.meta)
	return joined:walk({ Header = unique })
end

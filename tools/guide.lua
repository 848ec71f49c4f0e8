-- guide.lua: the instructor's guide, drawn from the woven book (a pandoc
-- filter, JSON to JSON).  Nothing in it is written by hand: for each chapter
-- its learning goals (the list after "After this chapter you can:"), its
-- reading time estimated from its length, its sessions, its "Try this" and
-- the answer to it, a note for instructors (`::: {.instructors}`) right after
-- the "Try this" paragraphs; a chapter for instructors only (a note for
-- instructors that starts with a level-1 heading: the syllabus) whole, after
-- this guide's introduction; for each exercise (a section with a **Task.** paragraph) the task, the hint,
-- the book's estimate of its time, the transcript `make grade` compares
-- answers with and the book's note for instructors.  Links go to the book
-- (kvmbook.html); render.lua makes them plain text in the PDF.

-- Reading speeds for the estimate; stated in the guide, not measured.
local WORDS_PER_MINUTE = 150
local CODE_LINES_PER_MINUTE = 10

local stringify = pandoc.utils.stringify

local function has_class(el, class)
	return el.classes and el.classes:includes(class)
end

local function starts_with_strong(block, text)
	return block.t == "Para" and block.content[1] and block.content[1].t == "Strong"
		and stringify(block.content[1]) == text
end

-- Links into the book point at the book's HTML.
local function to_book(blocks)
	return pandoc.walk_block(pandoc.Div(blocks), {
		Link = function(link)
			if link.target:match("^#") then
				link.target = "kvmbook.html" .. link.target
				return link
			end
		end,
	}).content
end

local function book_link(text, id)
	return pandoc.Link(text, "kvmbook.html#" .. id)
end

local function count_words(s)
	local n = 0
	for _ in s:gmatch("%S+") do
		n = n + 1
	end
	return n
end

local function count_lines(s)
	local n = 1
	for _ in s:gmatch("\n") do
		n = n + 1
	end
	return n
end

-- A note for instructors that is a chapter of its own.
local function instructors_chapter(b)
	return b.t == "Div" and has_class(b, "instructors") and b.content[1]
		and b.content[1].t == "Header" and b.content[1].level == 1
end

-- A chapter: its heading and the blocks up to the next level-1 heading; and,
-- apart, the chapters for instructors only.
local function chapters(blocks)
	local list, theirs, current = {}, {}, nil
	for _, b in ipairs(blocks) do
		if b.t == "Header" and b.level == 1 then
			current = { header = b, blocks = {} }
			table.insert(list, current)
		elseif instructors_chapter(b) then
			table.insert(theirs, b)
			current = nil
		elseif current then
			table.insert(current.blocks, b)
		end
	end
	return list, theirs
end

-- What a chapter asks of its reader, measured on its text.
local function measure(blocks)
	local words, lines, sessions = 0, 0, {}
	for _, b in ipairs(blocks) do
		if b.t == "Div" and has_class(b, "chunk") then
			for _, c in ipairs(b.content) do
				if c.t == "CodeBlock" then
					lines = lines + count_lines(c.text)
				end
			end
			pandoc.walk_block(b, {
				Span = function(s)
					local name = has_class(s, "chunkname") and stringify(s):match("([%w._-]+)%.transcript")
					if name then
						table.insert(sessions, name)
					end
				end,
			})
		elseif b.t == "CodeBlock" then
			lines = lines + count_lines(b.text)
		elseif b.t == "Div" then
			local w, l, s = measure(b.content)
			words, lines = words + w, lines + l
			for _, name in ipairs(s) do
				table.insert(sessions, name)
			end
		else
			words = words + count_words(stringify(b))
		end
	end
	return words, lines, sessions
end

-- The blocks from the paragraph that starts with **START** up to the next
-- paragraph that starts with a strong phrase, a heading or a div.
local function passage(blocks, start)
	local out, on = {}, false
	for _, b in ipairs(blocks) do
		if on and (b.t == "Header" or b.t == "Div" or
				(b.t == "Para" and b.content[1] and b.content[1].t == "Strong")) then
			break
		end
		if starts_with_strong(b, start) then
			on = true
		end
		if on then
			table.insert(out, b)
		end
	end
	return out
end

-- The note for instructors right after a passage: the answer to "Try this".
local function answer(blocks, start)
	local on = false
	for _, b in ipairs(blocks) do
		if on and (b.t == "Header" or b.t == "Div" or
				(b.t == "Para" and b.content[1] and b.content[1].t == "Strong")) then
			return b.t == "Div" and has_class(b, "instructors") and b or nil
		end
		if starts_with_strong(b, start) then
			on = true
		end
	end
end

local function goals(blocks)
	for i, b in ipairs(blocks) do
		if b.t == "Para" and stringify(b) == "After this chapter you can:" and blocks[i + 1]
				and blocks[i + 1].t == "BulletList" then
			return blocks[i + 1]
		end
	end
end

-- An exercise: a level-2 section of a chapter that has a task.
local function exercises(blocks)
	local list, current = {}, nil
	for _, b in ipairs(blocks) do
		if b.t == "Header" and b.level <= 2 then
			current = b.level == 2 and { header = b, blocks = {} } or nil
			if current then
				table.insert(list, current)
			end
		elseif current then
			table.insert(current.blocks, b)
		end
	end
	local out = {}
	for _, ex in ipairs(list) do
		if #passage(ex.blocks, "Task.") > 0 then
			table.insert(out, ex)
		end
	end
	return out
end

local function lines_of(n)
	return n == 1 and "1 line" or string.format("%d lines", n)
end

local function minutes(n)
	return n == 1 and "1 minute" or string.format("%d minutes", n)
end

local function plain(text)
	return pandoc.Para({ pandoc.Str(text) })
end

local function label(text, rest)
	local inlines = { pandoc.Strong({ pandoc.Str(text) }), pandoc.Space() }
	for _, i in ipairs(rest) do
		table.insert(inlines, i)
	end
	return pandoc.Para(inlines)
end

local function exercise_guide(ex, number, out)
	local h = ex.header
	table.insert(out, pandoc.Header(2, { book_link(h.content, h.identifier) },
		{ id = "guide-" .. h.identifier, class = "unnumbered" }))
	local estimate = h.attributes.estimate
	table.insert(out, label("Time.", { pandoc.Str(estimate and
		("About " .. estimate .. " (the book's estimate, not measured with students).") or
		"The book gives no estimate for this exercise.") }))
	for _, b in ipairs(to_book(passage(ex.blocks, "Task."))) do
		table.insert(out, b)
	end
	for _, b in ipairs(to_book(passage(ex.blocks, "Hint."))) do
		table.insert(out, b)
	end
	for _, b in ipairs(ex.blocks) do
		if b.t == "Div" and has_class(b, "solution") then
			local _, _, sessions = measure({ b })
			for _, name in ipairs(sessions) do
				table.insert(out, label("What to grade.", { pandoc.Str("Run"), pandoc.Space(),
					pandoc.Code("make grade EXERCISE=" .. name .. " ANSWERS=folder"), pandoc.Str(":"),
					pandoc.Space(), pandoc.Str("each answer must print what the book's solution printed:") }))
			end
			pandoc.walk_block(b, {
				Div = function(d)
					if has_class(d, "chunk") then
						local name = pandoc.utils.stringify(d.content[1])
						if name:match("%.transcript") then
							for _, c in ipairs(d.content) do
								if c.t == "CodeBlock" then
									table.insert(out, c)
								end
							end
						end
					end
				end,
			})
		end
	end
	for _, b in ipairs(ex.blocks) do
		if b.t == "Div" and has_class(b, "instructors") then
			table.insert(out, plain("What to look for, and the usual mistakes:"))
			for _, c in ipairs(to_book(b.content)) do
				table.insert(out, c)
			end
		end
	end
end

function Pandoc(doc)
	local path, exs = {}, {}
	local number, total_minutes = 0, 0
	local list, theirs = chapters(doc.blocks)
	for _, ch in ipairs(list) do
		local h = ch.header
		if not has_class(h, "unnumbered") then
			number = number + 1
			local words, lines, sessions = measure(ch.blocks)
			local read = math.ceil(words / WORDS_PER_MINUTE + lines / CODE_LINES_PER_MINUTE)
			total_minutes = total_minutes + read
			local title = { pandoc.Str(number .. "."), pandoc.Space() }
			for _, i in ipairs(h.content) do
				table.insert(title, i)
			end
			table.insert(path, pandoc.Header(2, { book_link(title, h.identifier) },
				{ id = "guide-" .. h.identifier, class = "unnumbered" }))
			local g = goals(ch.blocks)
			if g then
				table.insert(path, plain("After this chapter a student can:"))
				table.insert(path, to_book({ g })[1])
			else
				table.insert(path, plain("The chapter states no learning goals."))
			end
			local facts = string.format("Reading: about %s (%d words of prose, %s of code).",
				minutes(read), words, lines_of(lines))
			if #sessions > 0 then
				facts = facts .. string.format(" Sessions it runs in the guest: %d (%s).",
					#sessions, table.concat(sessions, ", "))
			end
			table.insert(path, plain(facts))
			for _, b in ipairs(to_book(passage(ch.blocks, "Try this."))) do
				table.insert(path, b)
			end
			local a = answer(ch.blocks, "Try this.")
			if a then
				for _, b in ipairs(to_book(a.content)) do
					table.insert(path, b)
				end
			end
			for _, ex in ipairs(exercises(ch.blocks)) do
				table.insert(exs, ex)
			end
		end
	end

	local out = {
		pandoc.Header(1, { pandoc.Str("How this guide is made") }, { id = "guide-about", class = "unnumbered" }),
		pandoc.Para({ pandoc.Str("Everything below is taken from the book at the time it was woven: each " ..
			"chapter's learning goals, its closing task (\"Try this\") and the book's answer to it, " ..
			"the chapters the book writes for instructors only, and for each exercise the task, " ..
			"the hint, the transcript answers are graded against and the book's note for instructors. " ..
			"Headings link to the book.") }),
		pandoc.Para({ pandoc.Str(string.format("Times are estimates, not measurements. A chapter's " ..
			"reading time counts its prose at %d words a minute and its code at %d lines a minute; " ..
			"running its sessions and doing its \"Try this\" come on top. The whole book reads in " ..
			"about %d hours by that count. An exercise's time is the estimate the book's source " ..
			"gives it.", WORDS_PER_MINUTE, CODE_LINES_PER_MINUTE, math.ceil(total_minutes / 60))) }),
		pandoc.Para({ pandoc.Str("Answers are graded by running them: "), pandoc.Code("make grade"),
			pandoc.Str(" compiles each answer, runs it in the guest in every lane the book runs " ..
				"the exercise in, and compares its output with the book's transcript.") }),
	}
	-- Unnumbered, as the guide's own headings are.
	for _, d in ipairs(theirs) do
		for _, b in ipairs(to_book(d.content)) do
			if b.t == "Header" then
				b.classes:insert("unnumbered")
			end
			table.insert(out, b)
		end
	end
	for _, b in ipairs({
		pandoc.Header(1, { pandoc.Str("The learning path") }, { id = "guide-path", class = "unnumbered" }),
		pandoc.Para({ pandoc.Str("The chapters in the order the book teaches them.") }),
	}) do
		table.insert(out, b)
	end
	for _, b in ipairs(path) do
		table.insert(out, b)
	end
	table.insert(out, pandoc.Header(1, { pandoc.Str("Exercises") }, { id = "guide-exercises", class = "unnumbered" }))
	for i, ex in ipairs(exs) do
		exercise_guide(ex, i, out)
	end
	return pandoc.Pandoc(out, doc.meta)
end

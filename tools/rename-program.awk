# rename-program.awk -v ex=NAME -v to=OTHER: a transcript whose command
# lines run program OTHER wherever they ran NAME, by ./NAME or /NAME as a
# word of the line: alone, with arguments, in a pipeline, by absolute path.
# What the lines printed is left as it is (tools/grade), but for the
# program's own name where a message of its own starts with it ("NAME: ",
# as err and warn write it): the answer's messages name OTHER.
/^\$ / {
	line = " " substr($0, 3) " "
	out = ""
	while (match(line, "[ |;(&](\\./|/)" ex "[ |;)&<>]")) {
		word = substr(line, RSTART, RLENGTH - 1)
		sub("/" ex "$", "/" to, word)
		out = out substr(line, 1, RSTART - 1) word
		line = substr(line, RSTART + RLENGTH - 1)
	}
	line = out line
	print "$ " substr(line, 2, length(line) - 2)
	next
}
index($0, ex ": ") == 1 { $0 = to substr($0, length(ex) + 1) }
{ print }

# chunkrefs.awk: put the links to chunk definitions into highlighted code.
# Run as `awk -f chunkrefs.awk -v format=html|latex [-v dropped=FILE] REFS
# PANDOC-OUTPUT`.  nw2md.awk wrote each chunk use as a marker token that
# pandoc's highlighter leaves whole; REFS maps the marker to the chunk's anchor,
# number and name.  A chunk whose anchor FILE lists (the student edition's
# solutions) is shown unlinked.

BEGIN {
	FS = "\t"
	if (dropped != "") {
		while ((getline line < dropped) > 0)
			gone[line] = 1
		close(dropped)
	}
}

FILENAME == ARGV[1] {
	target[$1] = ($2 in gone) ? "" : $2
	num[$1] = $3
	name[$1] = $4
	next
}

function html(s) {
	gsub(/&/, "\\&amp;", s)
	gsub(/</, "\\&lt;", s)
	gsub(/>/, "\\&gt;", s)
	return s
}

# Inside the Highlighting environment only \, { and } are special.
function latex(s) {
	gsub(/\\/, "\001", s)
	gsub(/[{}]/, "\\\\&", s)
	gsub(/\001/, "\\textbackslash{}", s)
	return s
}

# A use of an undefined chunk shows its name unlinked: tangle reports it.
function ref(m,    shown) {
	if (format == "latex") {
		shown = "{" latex(name[m]) "}{" num[m] "}"
		if (target[m] == "")
			return "\\nwname" shown
		return "\\nwref{" target[m] "}" shown
	}
	shown = "⟨" html(name[m]) " " num[m] "⟩"
	if (target[m] == "")
		return "<span class=\"chunkref\">" shown "</span>"
	return "<a class=\"chunkref\" href=\"#" target[m] "\">" shown "</a>"
}

{
	out = ""
	rest = $0
	while (match(rest, /kvmbookref[0-9]+x/)) {
		m = substr(rest, RSTART, RLENGTH)
		out = out substr(rest, 1, RSTART - 1) ((m in target) ? ref(m) : m)
		rest = substr(rest, RSTART + RLENGTH)
	}
	print out rest
}

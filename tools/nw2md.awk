# nw2md.awk: noweb's markup stream (markup -t | autodefs.c) to Pandoc Markdown.
# Run as `awk -f nw2md.awk -v refs=FILE -v headers="KVM-HEADERS" STREAM STREAM`:
# pass 1 collects chunks, uses and identifiers; pass 2 writes the book, a
# cross-reference line under each chunk and the two indexes.  A use of a chunk
# in code becomes a marker token that survives highlighting; FILE maps each
# marker to its anchor, number and name, for chunkrefs.awk to link after pandoc.

BEGIN {
	fence = "~~~~~~~~~~~~"
	# In the PDF a chunk keeps its name and its cross-references on its pages.
	keep = "```{=latex}\n\\nopagebreak\n```\n\n"
	read_kvm_names()
}

# Reading the KVM API's names from the uapi headers: every KVM_* macro (ioctls,
# exit reasons, capabilities), every struct kvm_* and the fields of struct kvm_run.
function read_kvm_names(    n, files, i, line, depth, name) {
	n = split(headers, files, " ")
	for (i = 1; i <= n; i++) {
		depth = 0
		while ((getline line < files[i]) > 0) {
			if (match(line, /^#define[ \t]+KVM_[A-Za-z0-9_]+/)) {
				name = substr(line, RSTART, RLENGTH)
				sub(/^#define[ \t]+/, "", name)
				kvmname[name] = 1
			} else if (match(line, /^struct kvm_[a-z0-9_]+ \{/)) {
				name = substr(line, 8, RLENGTH - 9)
				kvmname[name] = 1
				if (name == "kvm_run")
					depth = 1
			} else if (depth > 0 && line !~ /^#/) {
				sub(/\/\*.*/, "", line)
				if (line ~ /;/ && match(line, /[A-Za-z_][A-Za-z0-9_]*[ \t]*(\[[^]]*\])?[ \t]*;/)) {
					name = substr(line, RSTART, RLENGTH)
					sub(/[^A-Za-z0-9_].*/, "", name)
					if (name !~ /^padding/)
						runfield[name] = 1
				}
				depth += gsub(/\{/, "{", line) - gsub(/\}/, "}", line)
			}
		}
		close(files[i])
	}
}

# Chunk numbers read like noweb's: chapter (file) number and a letter, "2c".
function letters(k,    s) {
	s = ""
	for (; k > 0; k = int((k - 1) / 26))
		s = substr("abcdefghijklmnopqrstuvwxyz", (k - 1) % 26 + 1, 1) s
	return s
}

function slug(name,    s) {
	s = tolower(name)
	gsub(/[^a-z0-9]+/, "-", s)
	gsub(/^-|-$/, "", s)
	return s == "" ? "chunk" : s
}

# Markdown text that shows NAME literally.
function md(name,    s) {
	s = name
	gsub(/[][\\`*_{}()#+.!<>|$~^"'&:;@=%-]/, "\\\\&", s)
	return s
}

function addlist(list, key, item) {
	if (!((key, item) in list)) {
		list[key, item] = 1
		list[key] = list[key] " " item
	}
}

function link(c) {
	return "[" num[c] "](#" id[c] "){.ix}"
}

function links(items, bold,    n, a, i, s) {
	n = split(items, a, " ")
	s = ""
	for (i = 1; i <= n; i++)
		s = s (i > 1 ? ", " : "") (a[i] == bold ? "**" link(a[i]) "**" : link(a[i]))
	return s
}

# Where a chunk ends up decides how it is highlighted: C if any of its roots is
# a C file, a diff in a patch, GNU assembler in a guest's source (.S), a
# session (transcripts, the boots list) otherwise.
function lang(name,    n, a, i, l, best) {
	if (name in langof)
		return langof[name]
	langof[name] = "c"		# a cycle: tangle reports it
	if (parents[name] == "")
		best = name ~ /\.[ch]$/ ? "c" : name ~ /^patches\// ? "diff" : \
			name ~ /\.S$/ ? "gnuassembler" : "session"
	else {
		best = "session"
		n = split(parents[name], a, SUBSEP)
		for (i = 2; i <= n; i++) {
			l = lang(a[i])
			if (l == "c" || (l == "diff" && best == "session"))
				best = l
		}
	}
	return langof[name] = best
}

# Identifiers in a line of code, as candidates for the identifier index.  A
# member of a chain that starts with "->" may be a field of struct kvm_run,
# which programs reach through the pointer mmap gives them: run->io.port.
function scan(c, line,    rest, before, tok, chain) {
	before = ""
	rest = line
	while (match(rest, /[A-Za-z_][A-Za-z0-9_]*/)) {
		before = before substr(rest, 1, RSTART - 1)
		tok = substr(rest, RSTART, RLENGTH)
		rest = substr(rest, RSTART + RLENGTH)
		if (before !~ /[A-Za-z0-9_]$/) {
			addlist(tokens, c, tok)
			match(before, /[]A-Za-z0-9_[>.-]*$/)
			chain = substr(before, RSTART)
			if (chain ~ /(->|\.)$/ && match(chain, /->|\./) && substr(chain, RSTART, 1) == "-")
				addlist(members, c, tok)
		}
		before = before tok
	}
}

# Pass 1: the chunk graph and the identifiers.
FNR == NR {
	if ($1 == "@file") {
		file++
		k = 0
	} else if ($0 == "@begin code " $3) {
		c++
		line = body = ""
		header = 1
	} else if ($0 == "@end code " $3) {
		# numbered when it ends, since only then is it known to be a chunk
		if (cname[c] == "tangled/boots" && part[c] > 1 && sessions(body) != "")
			quiet[c] = 1
		else
			num[c] = file letters(++k)
	} else if ($1 == "@defn") {
		name = substr($0, 7)
		cname[c] = name
		if (!(name in nparts)) {
			first[name] = c
			s = slug(name)
			for (i = 2; s in slugof; i++)
				s = slug(name) "-" i
			slugof[s] = name
			base[name] = s
		}
		part[c] = ++nparts[name]
		id[c] = "chunk-" base[name] (part[c] > 1 ? "." part[c] : "")
		addlist(defs, name, c)
	} else if ($1 == "@use" && c && cname[c] != "" && incode) {
		name = substr($0, 6)
		addlist(uses, name, c)
		if (!((name, cname[c]) in isparent)) {
			isparent[name, cname[c]] = 1
			parents[name] = parents[name] SUBSEP cname[c]
		}
	} else if ($1 == "@text" && incode) {
		line = line substr($0, 7)
	} else if ($1 == "@nl" && incode) {
		if (!header) {
			scan(c, line)
			body = body line "\n"
		}
		line = ""
		header = 0
	} else if ($1 == "@index" && ($2 == "defn" || $2 == "localdefn") && $3 !~ /^__/) {
		# (autodefs takes the type in "static const __u8 x[]" for a
		# definition; names with __ belong to the C implementation.)
		addlist(iddefs, $3, c)
		addlist(chunkdefs, c, $3)
	}
	if ($1 == "@begin" || $1 == "@end")
		incode = ($1 == "@begin" && $2 == "code")
	next
}

FNR == 1 {
	file = c = 0
	for (i = 1; i in cname; i++)
		chunklang[i] = lang(cname[i])
	index_identifiers()
}

# Each identifier's uses: the chunks of code (not sessions) that mention it.
function index_identifiers(    i, n, a, j, tok) {
	for (i = 1; i in cname; i++) {
		if (chunklang[i] == "session")
			continue
		n = split(tokens[i], a, " ")
		for (j = 1; j <= n; j++) {
			tok = a[j]
			if ((tok in iddefs) && !((tok, i) in iddefs))
				addlist(iduses, tok, i)
			if (tok in kvmname)
				addlist(kvmuses, tok, i)
		}
		n = split(members[i], a, " ")
		for (j = 1; j <= n; j++)
			if (a[j] in runfield)
				addlist(kvmuses, a[j] " (struct kvm_run)", i)
	}
}

# Pass 2: the book.
$1 == "@file" {
	if (file++)
		printf "\n"
	k = 0
}
$0 == "@begin code " $3 {
	c++
	code = line = ""
	header = 1
	incode = 1
}
$1 == "@text" {
	if (quoting)
		quote = quote substr($0, 7)
	else if (incode)
		line = line substr($0, 7)
	else
		printf "%s", substr($0, 7)
}
$1 == "@nl" {
	if (quoting)
		quote = quote " "
	else if (!incode)
		printf "\n"
	else if (header)
		header = 0
	else {
		code = code line "\n"
		line = ""
	}
}
$1 == "@use" {
	name = substr($0, 6)
	if (!incode)
		quote = quote "<<" name ">>"
	else {
		marker = "kvmbookref" (++nmarkers) "x"
		f = first[name]
		printf "%s\t%s\t%s\t%s\n", marker, f ? id[f] : "",
			f ? num[f] : "undefined", name >refs
		line = line marker
	}
}
$1 == "@quote" { quoting = 1; quote = "" }
$1 == "@endquote" {
	quoting = 0
	printf "%s", inline_code(quote)
}
$0 == "@end code " $3 {
	incode = 0
	print_chunk(c)
}

function inline_code(s,    ticks, t) {
	ticks = "`"
	t = s
	while (index(t, ticks))
		ticks = ticks "`"
	if (s ~ /^`|`$/)
		s = " " s " "
	return ticks s ticks
}

# The harness's bookkeeping is not the reader's: a chunk of the list of
# boots that only adds sessions (each chapter's, beside its transcript) is
# one quiet line that says where each session runs, and no chunk (pass 1
# gives it no number).  sessions(CODE) is that line, or "" for other code.
function sessions(code,    n, a, i, f, nf, s, boots, j) {
	n = split(code, a, "\n")
	s = ""
	for (i = 1; i <= n; i++) {
		sub(/[ \t]*#.*/, "", a[i])
		nf = split(a[i], f, /[ \t]+/)
		if (nf == 0)
			continue
		if (f[1] != "session" || nf < 3)
			return ""
		boots = ""
		for (j = 3; j <= nf; j++)
			boots = boots (j == 3 ? "" : j == nf ? " and " : ", ") "`" f[j] "`"
		s = s (s == "" ? "" : " ") "Session `" f[2] "`, run in " (nf > 3 ? "the boots " : "the boot ") boots "."
	}
	return s
}

function print_chunk(c,    name, s, n, a, i) {
	name = cname[c]
	if (c in quiet) {
		printf "\n\n::: {.harness}\n%s\n:::\n\n", sessions(code)
		return
	}
	printf "\n\n::: {#%s .chunk}\n", id[c]
	printf "[⟨*%s* %s⟩%s≡]{.chunkname}\n\n%s", md(name), num[c], (part[c] > 1 ? "+" : ""), keep
	printf "%s {.%s}\n%s%s\n", fence, chunklang[c], code, fence
	s = ""
	# The list of boots grows in every chapter: its cross-references would
	# list a hundred chunks.  A transcript's file is its name already.
	if (nparts[name] > 1 && name != "tangled/boots")
		s = s " Defined in " links(defs[name], c) "."
	if (part[c] > 1 && name != "tangled/boots")
		s = s " Continued from " link(word(defs[name], part[c] - 1)) "."
	if (part[c] < nparts[name] && name != "tangled/boots")
		s = s " Continued in " link(word(defs[name], part[c] + 1)) "."
	if (uses[name] != "")
		s = s " Used in " links(uses[name]) "."
	else if (name ~ /\.transcript$/ || name == "tangled/boots")
		;
	else if (name ~ /^(tangled|patches)\//)
		s = s " Written to `" name "`."
	else
		s = s " Never used."
	n = split(chunkdefs[c], a, " ")
	for (i = 1; i <= n; i++)
		s = s (i == 1 ? " Defines " : ", ") "`" a[i] "`" \
			(iduses[a[i]] != "" ? " (used in " links(iduses[a[i]]) ")" : "")
	if (n)
		s = s "."
	if (s == "")
		printf "\n:::\n\n"
	else
		printf "\n%s[%s]{.xref}\n:::\n\n", keep, substr(s, 2)
}

function word(s, i,    a) {
	split(s, a, " ")
	return a[i]
}

# Insertion sort of keys[1..n], case-insensitive, ties broken so that every
# awk gives the same order: books are small.
function before(a, b) {
	return tolower(a) < tolower(b) || (tolower(a) == tolower(b) && a < b)
}

function sort_keys(keys, n,    i, j, t) {
	for (i = 2; i <= n; i++) {
		t = keys[i]
		for (j = i - 1; j > 0 && before(t, keys[j]); j--)
			keys[j + 1] = keys[j]
		keys[j + 1] = t
	}
}

# An index is set as a book's index is: entries in columns, each a paragraph
# with a hanging indent, no bullets (the kvmindex environment of weave.yaml and
# the .index rules of kvmbook.css).
function begin_index(title, id, cols) {
	printf "\n## %s {.unnumbered%s}\n\n::: {.index .cols%d}\n", title, id, cols
	printf "```{=latex}\n\\begin{kvmindex}{%d}\n```\n\n", cols
}

function end_index() {
	printf "```{=latex}\n\\end{kvmindex}\n```\n:::\n"
}

function print_index(title, list, what, cols,    n, keys, key, i, name) {
	n = 0
	for (key in list)
		if (index(key, SUBSEP) == 0)
			keys[++n] = key
	sort_keys(keys, n)
	begin_index(title, "", cols)
	if (n == 0)
		printf "(none yet)\n\n"
	for (i = 1; i <= n; i++) {
		name = keys[i]
		sub(/ .*/, "", name)
		printf "`%s`%s: ", name, substr(keys[i], length(name) + 1)
		if (what == "defined")
			printf "%s%s\n\n", links(iddefs[keys[i]], word(iddefs[keys[i]], 1)),
				iduses[keys[i]] != "" ? ", " links(iduses[keys[i]]) : ""
		else
			printf "%s\n\n", links(list[keys[i]])
	}
	end_index()
}

END {
	printf "\n# Index {.unnumbered #index}\n"
	n = 0
	for (name in first)
		keys[++n] = name
	sort_keys(keys, n)
	begin_index("Chunks", " #index-of-chunks", 2)
	for (i = 1; i <= n; i++) {
		name = keys[i]
		# the list of boots: where it begins, not its hundred continuations
		printf "⟨%s⟩: %s", md(name), name == "tangled/boots" ? link(first[name]) : links(defs[name])
		printf "%s\n\n", uses[name] != "" ? "; used in " links(uses[name]) : ""
	}
	end_index()
	print_index("Identifiers the programs define", iddefs, "defined", 3)
	print_index("KVM API names used in the code", kvmuses, "kvm", 2)
}

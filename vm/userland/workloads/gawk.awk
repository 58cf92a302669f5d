# The rebuilt gawk's workload in the guest (vm/userland/check), run as
#   gawk -l filefuncs -l ordchr -l readfile -l rwarray -l fnmatch -l readdir -l intdiv \
#        -f gawk.awk DIR
# Every -l is a dlopen() of one of gawk's own extensions, each an indirect call into
# the extension's dl_load() and then, for each function the script calls, from gawk's
# interpreter into the extension. The script reads the workload's text (DIR/text)
# and prints one line of figures. The check holds that line against the line this
# machine's own gawk (Debian 12's, not rebuilt) prints for the same files, so any
# difference is the rebuilt gawk's or its extensions'.
BEGIN {
	dir = ARGV[1]
	ARGV[1] = ""
	text = dir "/text"

	# filefuncs: stat().
	if (stat(text, st) < 0) {
		print "gawk FAIL: stat " text
		exit 1
	}
	# readfile: the whole file as one string; gawk's own split and regex engine on it.
	data = readfile(text)
	lines = split(data, line, "\n") - 1
	for (i = 1; i <= lines; i++) {
		n = split(line[i], field, " ")
		for (j = 3; j <= n; j++) {
			word = field[j]
			sub(/[0-9]+$/, "", word)
			count[word]++
			words++
		}
	}
	# asort() and sorted traversal: qsort() with gawk's comparison functions.
	PROCINFO["sorted_in"] = "@val_num_desc"
	top = ""
	for (w in count) {
		top = w "=" count[w]
		break
	}
	nwords = asorti(count, names)
	first = names[1]
	last = names[nwords]
	# ordchr: ord() and chr() over the text's first line.
	sum = 0
	for (i = 1; i <= length(line[1]); i++)
		sum += ord(substr(line[1], i, 1))
	letters = chr(ord("A") + 1) chr(101) chr(116)
	# intdiv: integer division into an array.
	intdiv(st["size"], 7, q)
	# rwarray: the counts written out and read back.
	tmp = "/tmp/gawk-counts." PROCINFO["pid"]
	if (!writea(tmp, count) || !reada(tmp, back)) {
		print "gawk FAIL: writea/reada " tmp
		exit 1
	}
	same = 1
	for (w in count)
		if (back[w] != count[w])
			same = 0
	# readdir and fnmatch: the compressed copies of the text beside it.
	matched = 0
	while ((getline entry < dir) > 0) {
		split(entry, part, "/")
		if (fnmatch("text.*", part[2], 0) == 0)
			matched++
	}
	close(dir)
	# gawk's own rand() (its random.c), gensub, printf.
	srand(31)
	r = int(rand() * 1000000)
	g = gensub(/([a-z]+)([0-9]+)/, "\\2\\1", 1, line[lines])
	printf "gawk type=%s size=%d lines=%d words=%d distinct=%d top=%s first=%s last=%s ord-sum=%d chr=%s quotient=%d rwarray=%d texts=%d rand=%d gensub=%s\n",
		st["type"], st["size"], lines, words, nwords, top, first, last, sum, letters, q["quotient"],
		same, matched, r, g
}

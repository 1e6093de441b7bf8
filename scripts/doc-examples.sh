#!/bin/sh
# Extract the complete programs of the documentation, so that they are
# built and run like any example and cannot rot. A program is a fenced C
# block right after a marker line naming it:
#
#   <!-- program: NAME -->
#   ```c
#   ... a whole program, main() included ...
#   ```
#
# Other code blocks are fragments and synopses, and are left alone.
#   doc-examples.sh OUTDIR FILE...
# Writes OUTDIR/NAME.c (only when its text changed, so that builds stay
# incremental) and prints each NAME. Fails on a marker without a C block,
# an unterminated block, or a name given twice.
set -eu
out=$1; shift
mkdir -p "$out"
awk -v out="$out" '
	function fail(msg) { printf "%s:%d: %s\n", FILENAME, FNR, msg > "/dev/stderr"; bad = 1; exit 1 }
	FNR == 1 && name != "" { fail("unterminated program " name) }
	state == 1 {
		if ($0 != "```c") fail("program " name ": the marker must be followed by ```c")
		state = 2; next
	}
	state == 2 {
		if ($0 == "```") { state = 0; close(file); name = ""; next }
		print > file; next
	}
	/^<!-- program: [a-z0-9_]+ -->$/ {
		name = $3
		if (name in seen) fail("program " name " given twice")
		seen[name] = 1
		file = out "/" name ".c.new"
		printf "" > file
		print name
		state = 1
	}
	END { if (!bad && state) fail("unterminated program " name) }
' "$@" > "$out/names.new"
for n in $(cat "$out/names.new"); do
	if cmp -s "$out/$n.c.new" "$out/$n.c"; then rm -f "$out/$n.c.new"
	else mv "$out/$n.c.new" "$out/$n.c"; fi
done
for f in "$out"/*.c; do	# programs the documents no longer have
	[ -e "$f" ] || continue
	grep -qx "$(basename "$f" .c)" "$out/names.new" || rm -f "$f"
done
mv "$out/names.new" "$out/names"
cat "$out/names"

#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# check-grep.sh LIBV4LCONVERT SRCDIR
# The dispatch can be read with grep: every symbol of an instruction-set
# tier in LIBV4LCONVERT (nm, local symbols too: the kernels <name>_<isa>
# and the init functions v4lc_<family>_init_<isa>) is written literally in
# SRCDIR's C files where it is defined and where it is registered (at least
# twice as a whole word), and every init function is called by name from
# dispatch/dsp.c. Token pasting or generated tables would hide them.
lib=$1 src=$2
nm=${NM:-nm}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# GCC's clones (name.constprop.0, name.isra.0) count as their function.
$nm --defined-only "$lib" | awk 'NF == 3 {print $3}' | sed 's/\..*//' |
	grep -E '_(sse2|ssse3|avx2|neon)$' | sort -u > "$tmp/syms"
count=$(wc -l < "$tmp/syms")
if [ "$count" -eq 0 ]; then
	echo "$lib: no instruction-set symbols (stripped, or built without SIMD?)"
	exit 1
fi
# How often each such word occurs in the sources.
find "$src" -name '*.[ch]' -exec cat {} + |
	grep -oE '[A-Za-z_][A-Za-z0-9_]*_(sse2|ssse3|avx2|neon)\b' |
	sort | uniq -c | awk '{print $2, $1}' > "$tmp/words"

status=0
missing=$(awk 'NR == FNR {n[$1] = $2; next} !(n[$1] >= 2) {print $1}' \
	"$tmp/words" "$tmp/syms")
if [ -n "$missing" ]; then
	echo "not written literally at their definition and registration:" \
		$missing
	status=1
fi
uncalled=$(grep '^v4lc_.*_init_' "$tmp/syms" | while read -r f; do
	grep -qw "$f" "$src/dispatch/dsp.c" || echo "$f"
done)
if [ -n "$uncalled" ]; then
	echo "init functions not called by name from dispatch/dsp.c:" $uncalled
	status=1
fi
echo "$lib: $count instruction-set symbols," \
	"$(echo "$missing" | grep -c .) not found literally in $src"
exit $status

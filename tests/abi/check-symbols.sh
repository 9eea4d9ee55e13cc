#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# check-symbols.sh LIB EXPECTED SONAME [PRIVATE_NODE]
# The library's unversioned exports must be exactly the symbols of the
# distribution's build (EXPECTED: "T name" lines), no more and no fewer:
# the public ABI, unversioned as in the original. With PRIVATE_NODE, every
# other export must belong to that version node (the entry points the
# project's other libraries use) and it must be the only version the
# library defines; without it the library must define no version at all.
lib=$1 expected=$2 soname_want=$3 private=$4
nm=${NM:-nm}
syms=$($nm -D --defined-only "$lib") || exit 1
# "T name" for unversioned symbols, "T name@@VERSION" for versioned ones;
# a version definition itself shows as an absolute symbol.
public=$(echo "$syms" | awk '$2 != "A" && $3 !~ /@/ {print $2 " " $3}' | sort)
versioned=$(echo "$syms" | awk '$2 != "A" && $3 ~ /@/ {print $3}' | sort)
want=$(sort "$expected")
status=0
if [ "$public" != "$want" ]; then
	echo "unversioned exports differ from $expected:"
	diff -u /dev/fd/3 /dev/fd/4 3<<EOF1 4<<EOF2
$want
EOF1
$public
EOF2
	status=1
fi
stray=$(echo "$versioned" | grep -v "^[^@]*@@$private\$" | grep .)
if [ -n "$stray" ] || { [ -z "$private" ] && [ -n "$versioned" ]; }; then
	echo "exports outside the private node${private:+ $private}:"
	echo "$versioned" | grep -v "^[^@]*@@$private\$"
	status=1
fi
# Version definitions: none, or the base entry and the private node only.
defs=$(readelf -V "$lib" | sed -n '/Version definition/,/^$/p' |
	sed -n 's/.*Name: \([^ ]*\).*/\1/p' | sort)
soname=$(readelf -d "$lib" | sed -n 's/.*SONAME.*\[\(.*\)\]/\1/p')
if [ -z "$private" ]; then
	want_defs=
else
	want_defs=$(printf '%s\n%s\n' "$soname" "$private" | sort)
fi
if [ "$defs" != "$want_defs" ]; then
	echo "$lib defines versions '$(echo $defs)', expected '$(echo $want_defs)'"
	status=1
fi
if [ "$soname" != "$soname_want" ]; then
	echo "$lib: SONAME $soname, expected $soname_want"
	status=1
fi
[ $status -eq 0 ] || exit 1
echo "$lib: $(echo "$public" | wc -l) public symbols as expected, SONAME" \
	"$soname; private ($private): $(echo $versioned)"

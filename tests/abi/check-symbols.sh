#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# The library must export exactly the symbols of the distribution's build
# (tests/abi/<name>.symbols), no more and no fewer, without symbol versions.
lib=$1 expected=$2
nm=${NM:-nm}
actual=$($nm -D --defined-only "$lib" | awk '{print $2 " " $3}' | sort)
want=$(sort "$expected")
if [ "$actual" != "$want" ]; then
	echo "exported symbols differ from $expected:"
	diff -u /dev/fd/3 /dev/fd/4 3<<EOF1 4<<EOF2
$want
EOF1
$actual
EOF2
	exit 1
fi
if readelf -V "$lib" | grep -q 'Version definition'; then
	echo "$lib has symbol versions; the original has none"
	exit 1
fi
soname=$(readelf -d "$lib" | sed -n 's/.*SONAME.*\[\(.*\)\]/\1/p')
echo "$lib: $(echo "$actual" | wc -l) symbols as expected, SONAME $soname"
[ "$soname" = "$3" ]

#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# crossload.sh LIBDIR PROGRAM: run PROGRAM (tests/abi/crossload.c) on the
# libv4lconvert.so.0 of LIBDIR. It must pass and the loader must stay
# silent: a version recorded in the program that the library does not
# define makes glibc warn ("no version information available") or refuse.
# (The variable is set here: meson puts our build directory first in a
# test's LD_LIBRARY_PATH.)
dir=$1 prog=$2
err=$(LD_LIBRARY_PATH=$dir "$prog" "$dir" 2>&1 >/dev/null)
status=$?
if [ -n "$err" ]; then
	echo "$prog on $dir wrote to stderr:"
	echo "$err"
	exit 1
fi
exit $status

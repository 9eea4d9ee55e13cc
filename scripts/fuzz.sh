#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Run the libFuzzer targets (tests/fuzz) for longer than the bounded meson
# tests do: scripts/fuzz.sh [SECONDS-PER-TARGET] [TARGET...]
# (default 600 s; targets: convert jpeg ioctl server). Needs clang and
# libclang-rt-dev. Uses build-fuzz (set up with tests/fuzz/clang-fuzz.ini);
# each target keeps its corpus in build-fuzz/tests/fuzz/work-<target>/corpus
# across runs, crash inputs land next to it. Add a crash input that a fix
# makes pass to tests/fuzz/corpus/<target>/.
# Environment: BUILD (build directory), JOBS (ninja jobs, default 2),
# FUZZ_ARGS (extra libFuzzer options, e.g. "-jobs=2 -workers=2"),
# FUZZ_GROW=1 (merge inputs with new coverage into tests/fuzz/corpus/).
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-600}
[ $# -gt 0 ] && shift
targets=("$@")
[ ${#targets[@]} = 0 ] && targets=(convert jpeg ioctl server)
build=${BUILD:-build-fuzz}
if [ ! -f "$build/build.ninja" ]; then
	meson setup --native-file tests/fuzz/clang-fuzz.ini "$build" >/dev/null
fi
ninja -C "$build" -j "${JOBS:-2}" "${targets[@]/#/tests/fuzz/fuzz-}" >/dev/null
rt=$(clang -print-file-name="libclang_rt.asan-$(uname -m).so")
status=0
for t in "${targets[@]}"; do
	exe="$build/tests/fuzz/fuzz-$t"
	if [ ! -x "$exe" ]; then
		echo "$t: $exe not built (is $build a clang fuzzing build?)" >&2
		exit 1
	fi
	echo "=== $t: $secs s"
	# shellcheck disable=SC2086
	if LD_PRELOAD=$rt \
	   ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 \
	   UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	   tests/fuzz/run-fuzz.sh "$exe" "tests/fuzz/corpus/$t" \
		"$build/tests/fuzz/work-$t" "$secs" ${FUZZ_ARGS:-}; then
		echo "$t: ok"
	else
		echo "$t: FAILED (see $build/tests/fuzz/work-$t)"
		status=1
	fi
done
exit $status

#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# run-fuzz.sh FUZZER SEEDS WORKDIR SECONDS [libFuzzer options...]
# Runs a libFuzzer target for a bounded time: new inputs go to
# WORKDIR/corpus, crashes to WORKDIR/crash-*, the seed directory is only
# read. Prints the executions done; fails on any crash or sanitizer report.
# With FUZZ_GROW=1 (scripts/fuzz.sh), a clean run then merges into SEEDS
# the inputs of WORKDIR/corpus that reach new coverage (libFuzzer's
# -merge=1), so the corpus kept in the tree grows; commit what it adds.
set -eu
fuzzer=$1 seeds=$2 work=$3 secs=$4
shift 4
mkdir -p "$work/corpus"
log="$work/log"
status=0
"$fuzzer" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2560 \
	-print_final_stats=1 -artifact_prefix="$work/" "$@" \
	"$work/corpus" "$seeds" >"$log" 2>&1 || status=$?
grep -E '^stat::number_of_executed_units|^#[0-9]+ +DONE' "$log" || true
if [ $status = 0 ] && [ "${FUZZ_GROW:-0}" = 1 ]; then
	before=$(find "$seeds" -type f | wc -l)
	"$fuzzer" -merge=1 "$seeds" "$work/corpus" >"$work/merge.log" 2>&1 ||
		status=$?
	echo "corpus $seeds: $before -> $(find "$seeds" -type f | wc -l) files"
fi
if [ $status != 0 ]; then
	tail -60 "$log"
	echo "fuzzer failed ($status); artifacts in $work"
fi
exit $status

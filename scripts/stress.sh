#!/usr/bin/env bash
# stress: run test packages STRESS_COUNT times (default 10) under -race while
# STRESS_HOGS CPU hogs (default 1, `yes > /dev/null`) compete for the CPU, then
# print per package how many test runs passed and failed (scripts/stresssum).
# Exits non-zero on any failure. The hogs always die with the script (trap).
#
# Usage: scripts/stress.sh [packages...]      (default ./...)
# Env:   STRESS_COUNT, STRESS_HOGS, STRESS_TIMEOUT (go test -timeout, 60m), GO.
# Env-gated soak tests (REASONIX_SOAK) stay gated: `make soak` runs them.
set -uo pipefail

count=${STRESS_COUNT:-10}
hogs=${STRESS_HOGS:-1}
timeout=${STRESS_TIMEOUT:-60m}
go=${GO:-go}
if [ $# -eq 0 ]; then set -- ./...; fi

work=$(mktemp -d)
hog_pids=()
summary=""
cleanup() {
	[ -n "$summary" ] && kill "$summary" 2>/dev/null # go test then dies on its next write
	for pid in "${hog_pids[@]}"; do kill "$pid" 2>/dev/null; done
	for pid in "${hog_pids[@]}"; do wait "$pid" 2>/dev/null; done
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Build the summarizer before the load starts.
"$go" build -o "$work/stresssum" ./scripts/stresssum || exit 2

for _ in $(seq "$hogs"); do
	yes > /dev/null &
	hog_pids+=($!)
done
echo "stress: $* ${count}x under -race, $hogs CPU hog(s) (pids ${hog_pids[*]}), timeout $timeout"

start=$(date +%s)
# In the background, so that a signal to this script runs its traps at once
# (bash runs a trap only once the foreground command ends) and the hogs die
# with it. go test's own status is kept in a file: stresssum's is the job's.
(
	env -u REASONIX_SOAK "$go" test -race -count="$count" -timeout "$timeout" -json "$@" 2>&1
	echo $? 2>/dev/null > "$work/go-test-status"
) | "$work/stresssum" &
summary=$!
wait "$summary"
sum_status=$?
test_status=$(cat "$work/go-test-status" 2>/dev/null || echo "missing")
echo "stress: wall time $(( $(date +%s) - start ))s, go test exit $test_status, summary exit $sum_status"
if [ "$test_status" != 0 ] || [ "$sum_status" != 0 ]; then
	exit 1
fi

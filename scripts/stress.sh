#!/usr/bin/env bash
# stress: run test packages STRESS_COUNT times (default 10) under -race while
# STRESS_HOGS CPU hogs (default 1, `yes > /dev/null`) compete for the CPU, then
# print per package how many test runs passed and failed (scripts/stresssum).
# Exits non-zero on any failure. The hogs always die with the script (trap).
#
# Usage: scripts/stress.sh [packages...]      (default ./...)
# Env:   STRESS_COUNT, STRESS_HOGS, STRESS_TIMEOUT (go test -timeout, 25m), GO.
# Env-gated soak tests (REASONIX_SOAK) stay gated: `make soak` runs them.
set -uo pipefail

count=${STRESS_COUNT:-10}
hogs=${STRESS_HOGS:-1}
timeout=${STRESS_TIMEOUT:-25m}
go=${GO:-go}
if [ $# -eq 0 ]; then set -- ./...; fi

work=$(mktemp -d)
hog_pids=()
cleanup() {
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
env -u REASONIX_SOAK "$go" test -race -count="$count" -timeout "$timeout" -json "$@" 2>&1 |
	"$work/stresssum"
status=("${PIPESTATUS[@]}")
echo "stress: wall time $(( $(date +%s) - start ))s, go test exit ${status[0]}, summary exit ${status[1]}"
if [ "${status[0]}" -ne 0 ] || [ "${status[1]}" -ne 0 ]; then
	exit 1
fi

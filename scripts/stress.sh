#!/usr/bin/env bash
# stress: run test packages STRESS_COUNT times (default 10) under -race while
# STRESS_HOGS CPU hogs (default 1, `yes > /dev/null`) compete for the CPU, then
# print per package how many test runs passed and failed (scripts/stresssum).
# Exits non-zero on any failure. The hogs always die with the script (trap).
#
# STRESS_BUSY adds what a CI machine is shared with beside the hogs, in a
# loop until the tests end: "build" rebuilds the whole module from scratch
# (go build -a, its own GOCACHE in a temp dir so the shared cache is neither
# used nor churned), "test" runs a second `go test -race` of STRESS_BUSY_PKG
# (default ./internal/plugins/intercept, many child processes). CPU hogs
# alone never touch the disk, the linker or the page cache; a build does.
#
# Usage: scripts/stress.sh [packages...]      (default ./...)
# Env:   STRESS_COUNT, STRESS_HOGS, STRESS_TIMEOUT (go test -timeout, 60m),
#        STRESS_BUSY (none|build|test), STRESS_BUSY_PKG, GO.
# Env-gated soak tests (REASONIX_SOAK) stay gated: `make soak` runs them.
set -uo pipefail

count=${STRESS_COUNT:-10}
hogs=${STRESS_HOGS:-1}
busy=${STRESS_BUSY:-none}
busy_pkg=${STRESS_BUSY_PKG:-./internal/plugins/intercept}
case "$busy" in
none | build | test) ;;
*) echo "stress: STRESS_BUSY=$busy: want none, build or test" >&2; exit 2 ;;
esac
timeout=${STRESS_TIMEOUT:-60m}
go=${GO:-go}
if [ $# -eq 0 ]; then set -- ./...; fi

work=$(mktemp -d)
hog_pids=()
busy_pid=""
summary=""
cleanup() {
	[ -n "$summary" ] && kill "$summary" 2>/dev/null # go test then dies on its next write
	for pid in "${hog_pids[@]}"; do kill "$pid" 2>/dev/null; done
	# The busy loop is a session of its own (setsid): its group takes the
	# go command and the compilers it runs with it.
	[ -n "$busy_pid" ] && kill -- -"$busy_pid" 2>/dev/null
	for pid in "${hog_pids[@]}" $busy_pid; do wait "$pid" 2>/dev/null; done
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
# busy_loop: one job of STRESS_BUSY after another; each finished one adds a
# line to $work/busy-runs (its status), counted at the end.
busy_loop() {
	while :; do
		case "$busy" in
		build) GOCACHE="$work/busy-cache" "$go" build -a -o /dev/null ./... >>"$work/busy.log" 2>&1 ;;
		test) env -u REASONIX_SOAK "$go" test -race -count=1 "$busy_pkg" >>"$work/busy.log" 2>&1 ;;
		esac
		echo $? >>"$work/busy-runs"
	done
}
if [ "$busy" != none ]; then
	: >"$work/busy-runs"
	export -f busy_loop
	export busy busy_pkg work go
	setsid bash -c busy_loop &
	busy_pid=$!
fi
echo "stress: $* ${count}x under -race, $hogs CPU hog(s) (pids ${hog_pids[*]}), beside them: $busy${busy_pid:+ (pid $busy_pid)}, timeout $timeout"

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
if [ "$busy" != none ]; then
	runs=$(wc -l <"$work/busy-runs")
	bad=$(grep -vc '^0$' "$work/busy-runs" 2>/dev/null)
	# The busy job's own failures are not the tests' (a build broken by
	# work in progress, its test under the same load): shown, not counted.
	echo "stress: beside them, $runs $busy run(s) finished, ${bad:-0} of them failed"
	if [ "${bad:-0}" != 0 ]; then tail -n 20 "$work/busy.log"; fi
fi
if [ "$test_status" != 0 ] || [ "$sum_status" != 0 ]; then
	exit 1
fi

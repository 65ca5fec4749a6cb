#!/usr/bin/env bash
# xvfb-perf-check.sh — the transcript's real-window performance check.
#
# Opens a generated session of $MESSAGES messages (default 5,000) in the real
# binary under Xvfb (GL through Mesa), streams an echo reply of $WORDS words
# at 200 chunks/s at its bottom (ECHO_PROVIDER_DELAY_MS=5), and prints the
# transcript's figures from the hidden --stats flag: frames, frames/s, work
# per frame, the time from opening the session to its first frame, the
# rows with widgets, and the app's peak RSS. Opening the session is a chat
# switch: the window shows it from its file at once ("viewing … (N ms)",
# click → on screen) while the core loads it with a new plugin generation
# ("chat ready … (N ms)"); PLUGINS=4 runs it with four plugins installed
# (echo-provider, hello-surfaces, policy-guard, openai-provider) instead of
# echo-provider alone. A screenshot is written to
# $LOGDIR (default ./ci-logs). Not part of `make test`: it measures, it does
# not pass or fail on figures (the widget benchmarks are the gate).
set -euo pipefail

cd "$(dirname "$0")/.."
# shellcheck source=scripts/xvfb-lib.sh
. scripts/xvfb-lib.sh # (the script runs from the repo root)
use_logdir
MESSAGES="${MESSAGES:-5000}"
WORDS="${WORDS:-2000}"
RUN_FOR="${RUN_FOR:-20}"
MODEL=plugin/echo-provider/echo/echo-1

fail() { echo "xvfb-perf-check: FAIL: $*" >&2; exit 1; }
command -v xvfb-run >/dev/null || fail "xvfb-run is missing (run: make deps)"

BIN="" # always a fresh build (make examples builds echo-provider too)
build_bin

D="$(mktemp -d)"
trap 'rm -rf "$D"' EXIT
PLUGINS="${PLUGINS:-1}"
INSTALL=(echo-provider)
[ "$PLUGINS" -ge 4 ] && INSTALL+=(hello-surfaces policy-guard openai-provider)
for p in "${INSTALL[@]}"; do
	bin/reasonix-desktop plugin install --yes --data-dir "$D" "examples/$p" >>"$LOGDIR/perf-install.log" 2>&1 ||
		{ cat "$LOGDIR/perf-install.log" >&2; fail "installing $p"; }
done
ID="$(go run ./scripts/gensession -data-dir "$D" -messages "$MESSAGES" -model "$MODEL")"
# Paragraphs of 40 words, as a model writes them.
TEXT="$(for i in $(seq $((WORDS / 40))); do printf 'word %.0s' $(seq 40); printf '\n\n'; done)"

echo "xvfb-perf-check: ${#INSTALL[@]} plugin(s), $MESSAGES messages, a $WORDS-word reply (paragraphs of 40 words) at 200 chunks/s, ${RUN_FOR}s"
set +e
ECHO_PROVIDER_DELAY_MS=5 /usr/bin/time -f "peak RSS %M KB" -o "$LOGDIR/perf-rss.txt" \
	timeout 180 xvfb-run -a -s "-screen 0 1280x800x24 -noreset" \
	bin/reasonix-desktop gui --data-dir "$D" --session "$ID" --send "$TEXT" --stats --trace \
	--screenshot "$LOGDIR/perf.png" --screenshot-after "$((RUN_FOR - 3))s" --exit-after "${RUN_FOR}s" \
	>"$LOGDIR/perf.stdout" 2>"$LOGDIR/perf.stderr"
code=$?
set -e
[ "$code" -eq 0 ] || { tail -n 40 "$LOGDIR/perf.stderr" >&2; fail "the app exited with $code"; }
grep '^transcript:' "$LOGDIR/perf.stdout" || fail "no --stats line (see $LOGDIR/perf.stdout)"
grep -E "^trace: (viewing|chat ready) $ID " "$LOGDIR/perf.stdout" | sed 's/^trace: /switch: /' ||
	fail "no switch figures (see $LOGDIR/perf.stdout)"
cat "$LOGDIR/perf-rss.txt"
echo "xvfb-perf-check: screenshot $LOGDIR/perf.png"

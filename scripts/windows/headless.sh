#!/usr/bin/env bash
# scripts/windows/headless.sh PREBUILT LOGDIR — run by lane.sh with its wine
# prefix in the environment. Through reasonix-desktop.exe (the nogui CLI
# build, PREBUILT/cmd_reasonix-desktop.exe) under wine:
#   - installs echo-provider and policy-guard (their sidecars as .exe: a
#     manifest's ${REASONIX_PLUGIN_ROOT}/bin/echo-provider finds
#     bin/echo-provider.exe on Windows);
#   - a headless chat with the echo model ("Echo: hi");
#   - a run_command "rm -rf /" that policy-guard blocks (--json events);
#   - what an approval would cover: only once for CMD.EXE /C, git status …
#     for git status;
#   - a --repl chat kept open, its plugins running, then the host's wine
#     process SIGKILLed: every plugin process must be gone shortly after (the
#     job objects' kill-on-close; no watchdog process on Windows).
set -euo pipefail

PRE="$1"
LOGDIR="$2"
cd "$(dirname "$0")/../.."
LOG="$LOGDIR/windows-headless.log"
: >"$LOG"
EXE="$PRE/cmd_reasonix-desktop.exe"
winpath() { echo "Z:$(echo "$1" | tr / '\\')"; }
fail() {
	echo "headless (wine): FAIL: $*" | tee -a "$LOG" >&2
	exit 1
}

W="$(mktemp -d)"
HOST=""
cleanup() {
	[ -n "$HOST" ] && kill -9 "$HOST" 2>/dev/null || true
	exec 7>&- 2>/dev/null || true
	rm -rf "$W"
}
trap cleanup EXIT
DATA="$(winpath "$W/data")"
rd() { wine "$EXE" "$@"; }

for x in echo-provider policy-guard; do
	mkdir -p "$W/src/$x/bin"
	cp "examples/$x/reasonix-plugin.json" "$W/src/$x/"
	cp "$PRE/examples_$x.exe" "$W/src/$x/bin/$x.exe"
	rd plugin install --yes --data-dir "$DATA" "$(winpath "$W/src/$x")" >>"$LOG" 2>&1 || fail "plugin install $x"
done

out="$(rd chat --headless --data-dir "$DATA" --model plugin/echo-provider/echo/echo-1 --prompt hi 2>>"$LOG")" ||
	fail "chat --prompt hi: $out"
echo "$out" >>"$LOG"
grep -q "Echo: hi" <<<"$out" || fail "no 'Echo: hi' in: $out"
echo "headless chat with the echo model: ok" | tee -a "$LOG"

out="$(echo 'call run_command {"command":"rm -rf /"}' |
	rd chat --headless --data-dir "$DATA" --json --non-interactive 2>>"$LOG")" || fail "chat --json: $out"
echo "$out" >>"$LOG"
grep -q '"blocked"' <<<"$out" && grep -q 'policy-guard' <<<"$out" || fail "policy-guard did not block rm -rf /"
echo "policy-guard blocked rm -rf /: ok" | tee -a "$LOG"

# What an approval would cover, as the Windows build says it: a cmd /c line
# runs a wrapper, so no session or always approval can cover it; a plain
# git status is covered as `git status …`.
ask() { # $1: the command the echo model calls; prints the chat's --json events
	echo "call run_command {\"command\":\"$1\"}" |
		rd chat --headless --data-dir "$DATA" --json --non-interactive 2>>"$LOG" || fail "chat --json ($1)"
}
out="$(ask 'CMD.EXE /C echo hi')"
echo "$out" >>"$LOG"
grep -q '"onceOnly":true' <<<"$out" && grep -q 'runs cmd, which runs whatever it is given' <<<"$out" ||
	fail "the approval of CMD.EXE /C did not say that only once is possible: $out"
out="$(ask 'git status')"
echo "$out" >>"$LOG"
grep -q 'run_command `git status …`' <<<"$out" || fail "the approval of git status did not say what it covers: $out"
echo "approvals say what they cover (cmd /c: only once; git status: git status …): ok" | tee -a "$LOG"

# A --repl chat held open on a fifo: its plugins stay running.
mkfifo "$W/in"
rd chat --headless --repl --data-dir "$DATA" <"$W/in" >"$W/repl.out" 2>>"$LOG" &
exec 7>"$W/in"
echo hi >&7
for _ in $(seq 300); do grep -q "Echo: hi" "$W/repl.out" 2>/dev/null && break; sleep 0.1; done
grep -q "Echo: hi" "$W/repl.out" || fail "the --repl chat did not answer"
plugins() { pgrep -f 'bin.(echo-provider|policy-guard)\.exe' || true; }
before=$(plugins | wc -l)
[ "$before" -ge 2 ] || fail "expected 2 plugin processes running, saw $before"
HOST=$(pgrep -f 'cmd_reasonix-desktop\.exe.*--repl' | head -n 1)
[ -n "$HOST" ] || fail "host process not found"
kill -9 "$HOST"
left=$before
for _ in $(seq 100); do
	left=$(plugins | wc -l)
	[ "$left" = 0 ] && break
	sleep 0.1
done
HOST=""
echo "host SIGKILLed with $before plugin processes running: $left survived" | tee -a "$LOG"
[ "$left" = 0 ] || fail "$left plugin processes outlived the host"

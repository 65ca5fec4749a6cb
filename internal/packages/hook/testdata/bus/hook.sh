#!/bin/sh
# A settings-bus hook for the runner's tests, driven by its environment:
# it keeps its stdin in $SEEN (when set), writes its pid to $PIDFILE (when
# set), prints $ERR on stderr and $OUT on stdout, then ends as $END says:
# an exit code (default 0), "kill" (SIGKILL to itself) or "hang" (a child
# that holds on, for the timeout).
if [ -n "$SEEN" ]; then cat >"$SEEN"; else cat >/dev/null; fi
[ -n "$PIDFILE" ] && echo $$ >"$PIDFILE"
[ -n "$ERR" ] && printf '%s\n' "$ERR" >&2
[ -n "$OUT" ] && printf '%s\n' "$OUT"
case "$END" in
kill) kill -9 $$ ;;
hang) sleep 30 & wait ;;
esac
exit "${END:-0}"

#!/bin/sh
# Logs the event it fired at (the first field of its stdin) to events.log.
input=$(cat)
event=$(printf '%s' "$input" | sed -n 's/^{"event":"\([A-Za-z]*\)".*/\1/p')
echo "$event" >> "$REASONIX_WORKSPACE_ROOT/events.log"
case "$event" in
PostLLMCall) echo "reasoning kept by the hook" ;;
PreCompact) echo "KEEP THE TODO LIST" ;;
esac
exit 0

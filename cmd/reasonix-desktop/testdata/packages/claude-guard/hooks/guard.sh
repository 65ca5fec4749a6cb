#!/bin/sh
# A Claude-format PreToolUse hook: logs the payload it got (one JSON line)
# in the workspace, and blocks (exit 2) a change to a file whose path says
# protected.
payload=$(cat)
printf '%s\n' "$payload" >> "$REASONIX_WORKSPACE_ROOT/claude-hook.log"
case "$payload" in
*'"file_path":'*protected*) echo "claude-guard: protected files stay as they are" >&2; exit 2 ;;
esac
exit 0

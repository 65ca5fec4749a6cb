#!/bin/sh
# A Claude Code PreToolUse hook: it denies through JSON on exit 0.
input=$(cat)
echo "$input" > "$REASONIX_WORKSPACE_ROOT/claude.json"
case "$input" in
*'git push'*) echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no pushing from the agent"}}' ;;
esac
exit 0

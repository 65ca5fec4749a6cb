# Every tool call: keep what the hook was given, and deny `rm -rf` in Bash
# with a JSON decision, as a hookify rule with action block does.
in=$(cat)
printf '%s' "$in" > "$CLAUDE_PROJECT_DIR/pretooluse.json"
case "$in" in
*'"tool_name":"Bash"'*)
	case "$in" in
	*'rm -rf'*)
		printf '%s\n' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"rm -rf is blocked by a hookify rule"}}'
		;;
	esac
	;;
esac
exit 0

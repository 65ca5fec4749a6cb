# File changes: keep what the hook was given; a write into generated/ is
# sent to src/kept.txt instead (updatedInput, in Claude's argument names).
in=$(cat)
printf '%s' "$in" > "$CLAUDE_PROJECT_DIR/files.json"
case "$in" in
*'"tool_name":"Write"'*)
	case "$in" in
	*'/generated/'*)
		printf '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"file_path":"%s/src/kept.txt","content":"rewritten\\n"}}}\n' "$CLAUDE_PROJECT_DIR"
		;;
	esac
	;;
esac
exit 0

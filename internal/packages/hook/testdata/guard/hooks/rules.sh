# As hookify: rules are .claude/hookify.*.local.md files of the folder the
# hook runs in (the project); a rule whose pattern is in the call blocks it
# with a JSON deny whose only text is the systemMessage.
in=$(cat)
for rule in .claude/hookify.*.local.md; do
	[ -f "$rule" ] || continue
	pattern=$(sed -n 's/^pattern: //p' "$rule")
	case "$in" in
	*"$pattern"*)
		printf '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny"},"systemMessage":"**[%s]** blocked by the project'"'"'s rule"}\n' "$pattern"
		exit 0
		;;
	esac
done
printf '{}\n'

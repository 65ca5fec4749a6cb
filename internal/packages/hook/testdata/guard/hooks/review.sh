# As security-guidance's Stop review: look at the git diff of the folder the
# hook runs in, and say where that was.
cat >/dev/null
{
	printf 'cwd=%s\n' "$(pwd -P)"
	printf 'project=%s\n' "$CLAUDE_PROJECT_DIR"
	printf 'root=%s\n' "$CLAUDE_PLUGIN_ROOT"
	git status --porcelain 2>&1
} > "$CLAUDE_PROJECT_DIR/review.txt"

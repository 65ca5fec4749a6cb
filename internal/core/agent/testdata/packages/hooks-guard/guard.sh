#!/bin/sh
# PreToolUse: refuse any run_command whose command holds "rm -rf" (exit 2).
input=$(cat)
echo "$input" >> "$REASONIX_WORKSPACE_ROOT/guard.log"
case "$input" in
*'rm -rf'*) echo "refusing rm -rf in $REASONIX_PLUGIN_NAME $REASONIX_PLUGIN_VERSION" >&2; exit 2 ;;
esac
exit 0

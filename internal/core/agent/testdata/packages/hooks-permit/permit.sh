#!/bin/sh
# A Claude PermissionRequest hook answering the approval: allow writes, deny the rest.
input=$(cat)
case "$input" in
*'"file_path":"'*'notes.txt"'*) echo '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}' ;;
*) echo "only notes.txt may be written" >&2; exit 2 ;;
esac

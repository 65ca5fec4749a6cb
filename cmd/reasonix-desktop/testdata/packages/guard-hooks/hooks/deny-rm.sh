#!/bin/sh
# Reads the hook's JSON line on stdin; blocks (exit 2) any rm -rf.
payload=$(cat)
case "$payload" in
*"rm -rf"*) echo "guard-hooks: rm -rf is not allowed here" >&2; exit 2 ;;
esac
exit 0

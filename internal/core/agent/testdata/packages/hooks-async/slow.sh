#!/bin/sh
# Async: waits for the test's go-ahead, then records the prompt; exit 2 would block were it not async.
input=$(cat)
while [ ! -e "$REASONIX_WORKSPACE_ROOT/go" ]; do sleep 0.05; done
echo "$input" > "$REASONIX_WORKSPACE_ROOT/async.json"
exit 2

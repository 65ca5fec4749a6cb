#!/bin/sh
# Appends the event it was registered for ($1) to events.log in the workspace.
cat >/dev/null
echo "$1" >> "$REASONIX_WORKSPACE_ROOT/events.log"

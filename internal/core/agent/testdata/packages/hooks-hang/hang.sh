#!/bin/sh
# Hangs (with a child of its own) until killed; logs each start and the child's pid.
sleep 300 &
echo "$!" >> "$REASONIX_WORKSPACE_ROOT/hang.pids"
wait

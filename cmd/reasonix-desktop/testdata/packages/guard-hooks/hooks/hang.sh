#!/bin/sh
# Never answers: the host must kill it after its timeout. Its pid goes to
# the workspace so the test can check it is gone.
echo $$ > "$REASONIX_WORKSPACE_ROOT/hang.pid"
exec sleep 600

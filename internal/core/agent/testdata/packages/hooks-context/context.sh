#!/bin/sh
# SessionStart: print the project's conventions; the host gives them to the model.
cat >> "$REASONIX_WORKSPACE_ROOT/session-start.log"
echo "PROJECT RULE: indent with tabs"

#!/usr/bin/env python3
# ADAPTED from the xdev v1 protocol document's example deny-rm.py (copied
# verbatim beside this file). The only change: this host's shell tool is
# named run_command, not bash, so the tool check below names run_command.
# <dataDir>/extensions/deny-rm-run_command.py   (chmod +x)
import json, sys

for line in sys.stdin:
    line = line.strip()
    if not line:
        continue
    try:
        frame = json.loads(line)
    except json.JSONDecodeError:
        continue  # a bad line is not a frame; keep serving
    t = frame.get("type")
    if t == "hello":
        # Declare only what you handle. Omit failOpen: this IS a policy hook.
        print(json.dumps({"type": "capabilities",
                          # capabilities ride under "payload", not top level
                          "payload": {"events": ["tool_call", "session_start"]}}),
              flush=True)
    elif t == "event" and frame.get("event") == "tool_call":
        # payload = {"tool": "<name>", "arguments": {...as the model sent them...}}
        p = frame.get("payload", {})
        args = p.get("arguments") or {}
        cmd = str(args.get("command", "")) if p.get("tool") == "run_command" else ""
        deny = "rm -rf" in cmd
        print(json.dumps({"type": "response", "id": frame.get("id"),
                          "allow": not deny,
                          "reason": "rm -rf is disabled in this project" if deny else ""}),
              flush=True)
    elif t == "event":
        # Any other event must still be answered, or the round-trip times
        # out — and with fail-closed that reads as a denial.
        print(json.dumps({"type": "response", "id": frame.get("id"),
                          "allow": True}), flush=True)

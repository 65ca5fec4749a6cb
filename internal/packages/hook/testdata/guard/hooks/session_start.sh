# As security-guidance's ensure_agent_sdk.py: ask Claude Code to go on in
# the background, then answer with metrics only (no context).
cat >/dev/null
printf '%s\n' '{"async": true, "asyncTimeout": 180000}'
printf '%s\n' '{"metrics": {"sdk_bootstrap": "ready", "sdk_bootstrap_ms": 3}}'

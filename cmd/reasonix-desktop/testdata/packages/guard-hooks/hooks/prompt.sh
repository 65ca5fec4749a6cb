#!/bin/sh
# UserPromptSubmit: exit 2 keeps prompts about project X from the model.
case "$(cat)" in
*'project X'*) echo "guard-hooks: prompts about project X stay local" >&2; exit 2 ;;
esac
exit 0

#!/bin/sh
# UserPromptSubmit: exit 2 refuses prompts that name the secret project.
case "$(cat)" in
*'project X'*) echo "prompts about project X are not sent to the model" >&2; exit 2 ;;
esac
exit 0

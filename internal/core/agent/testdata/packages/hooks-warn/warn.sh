#!/bin/sh
# PostToolUse: exit 3 warns; its stderr carries a secret the host must mask.
cat > /dev/null
echo "lint failed; token sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcd leaked" >&2
exit 3

package agent_test

import "os"

var syscallZero = os.Kill // never used: the fixture hooks are skipped on Windows

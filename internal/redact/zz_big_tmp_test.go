package redact

import (
	"strings"
	"testing"
	"time"
)

func TestTmpBig(t *testing.T) {
	for name, unit := range map[string]string{
		"json":    `{"token":"abcdefghijklmnop","x":"Bearer abcdefghijklmnopqrstu","u":"https://a:b@c"},`,
		"prose":   "the token count is 12 and the key is nice; ",
		"glued":   ghToken,
		"headers": "Cookie: a=\"b\" ",
		"fields":  "token: a ",
		"sk":      "task-",
		"quotes":  `"`,
		"url":     "://a:",
	} {
		s := strings.Repeat(unit, 1<<20/len(unit))
		start := time.Now()
		String(s)
		t.Logf("%s: %v", name, time.Since(start))
	}
}

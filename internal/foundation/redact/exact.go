package redact

import (
	"os"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
)

// exactValue is one registered secret, masked wherever it appears.
type exactValue struct{ value, kind string }

var (
	exactMu sync.Mutex                   // serialises registrations
	exact   atomic.Pointer[[]exactValue] // longest first; read lock-free
)

func init() { RegisterEnviron(os.Environ()) }

// RegisterEnviron registers the values of the secret-looking variables of
// environ ("NAME=value" entries: names holding KEY, TOKEN, SECRET, PASSWORD,
// PASSWD or CREDENTIAL), so that they are masked by value wherever they
// appear, whatever their shape. The host's own environment is registered
// when the package loads; plugins inherit it.
func RegisterEnviron(environ []string) {
	var add []exactValue
	for _, kv := range environ {
		k, v, ok := strings.Cut(kv, "=")
		if ok && secretName(k) && worthMasking(v, 8) {
			add = append(add, exactValue{v, "value of " + k})
		}
	}
	register(add)
}

// RegisterEnv registers the values of a manifest's env (after expansion)
// that look like secrets: no blank, not a path, at least two kinds of
// character (lower, upper, digit, other), and 8 bytes or more under a
// secret-looking name, 12 or more under any other. A manifest is untrusted
// until installed and its values are masked everywhere, so ordinary words
// (LOG_LEVEL=debug, X_TOKEN=approved) are not taken: a plugin must not be
// able to blank out what the user reads.
func RegisterEnv(env map[string]string) {
	var add []exactValue
	for k, v := range env {
		minLen := 12
		if secretName(k) {
			minLen = 8
		}
		if !worthMasking(v, minLen) || strings.ContainsAny(v, " \t/\\") || classes(v) < 2 {
			continue
		}
		add = append(add, exactValue{v, "value of " + k})
	}
	register(add)
}

// classes counts the kinds of character in v: lower, upper, digit, other.
func classes(v string) int {
	var l, u, d, o int
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case 'a' <= c && c <= 'z':
			l = 1
		case 'A' <= c && c <= 'Z':
			u = 1
		case '0' <= c && c <= '9':
			d = 1
		default:
			o = 1
		}
	}
	return l + u + d + o
}

func register(add []exactValue) {
	if len(add) == 0 {
		return
	}
	exactMu.Lock()
	defer exactMu.Unlock()
	var all []exactValue
	if p := exact.Load(); p != nil {
		all = append(all, *p...)
	}
	seen := map[string]bool{}
	for _, e := range all {
		seen[e.value] = true
	}
	for _, e := range add {
		if !seen[e.value] {
			seen[e.value] = true
			all = append(all, e)
		}
	}
	sort.SliceStable(all, func(i, j int) bool { return len(all[i].value) > len(all[j].value) })
	exact.Store(&all)
}

// secretName reports an environment variable name that looks secret.
func secretName(k string) bool {
	u := strings.ToUpper(k)
	u = strings.ReplaceAll(u, "TOKENIZ", "") // TOKENIZERS_PARALLELISM
	for _, w := range [...]string{"KEY", "TOKEN", "SECRET", "PASSWORD", "PASSWD", "CREDENTIAL"} {
		if strings.Contains(u, w) {
			return true
		}
	}
	return false
}

// worthMasking rules out values that are not secrets whatever their name:
// short ones, booleans, numbers and file paths (GOOGLE_APPLICATION_CREDENTIALS
// names a file; masking the path everywhere would only hide where it is).
func worthMasking(v string, minLen int) bool {
	t := strings.TrimSpace(v)
	if len(t) < minLen || t != v || strings.Trim(v, "0123456789.-") == "" {
		return false
	}
	switch strings.ToLower(v) {
	case "true", "false", "null", "none", "disabled", "enabled":
		return false
	}
	if strings.HasPrefix(v, "/") || strings.HasPrefix(v, "~/") || strings.HasPrefix(v, "./") ||
		len(v) > 2 && v[1] == ':' && (v[2] == '\\' || v[2] == '/') {
		return false
	}
	return !strings.Contains(v, maskOpen)
}

// collectExact adds a span for every occurrence of a registered value.
func collectExact(s string, sp *spans) {
	p := exact.Load()
	if p == nil {
		return
	}
	for _, e := range *p {
		for i := 0; ; {
			k := strings.Index(s[i:], e.value)
			if k < 0 {
				break
			}
			lo := i + k
			sp.add(span{lo: lo, hi: lo + len(e.value), repl: maskAs(e.kind, e.value)})
			i = lo + len(e.value)
		}
	}
}

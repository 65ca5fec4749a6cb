package shell

import (
	"encoding/base64"
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"unicode/utf16"

	"github.com/reasonix/reasonix-desktop/internal/foundation/proc"
)

// kind is the interpreter family a command is written for.
type kind int

const (
	posix kind = iota // bash or sh
	powerShell
)

// shell is the resolved interpreter.
type shell struct {
	kind kind
	path string
}

var (
	resolveOnce sync.Once
	resolved    shell
)

// hostShell is the host's shell, looked up once (the lookup walks PATH and,
// on Windows, the usual install folders).
func hostShell() shell {
	resolveOnce.Do(func() { resolved = resolveShell() })
	return resolved
}

// psArgLimit is the script length above which PowerShell gets the command
// as -EncodedCommand (UTF-16LE, Base64), which no quoting can break; the
// real host's threshold, well under Windows' 32K command line.
const psArgLimit = 8000

// psPrologue makes PowerShell print UTF-8 rather than the console's code
// page (CP936 on a Chinese Windows), so its output is not mojibake.
const psPrologue = "$OutputEncoding=[Console]::OutputEncoding=[System.Text.Encoding]::UTF8;"

// spec is how proc runs command in dir.
func (s shell) spec(command, dir string) proc.Spec {
	return proc.Spec{Path: s.path, Args: s.args(command), Dir: dir}
}

// args are the interpreter's arguments running command. A POSIX shell
// first sends its stderr to its stdout (`exec 2>&1`), so what the command
// and everything it starts write reaches one pipe in the order written:
// proc.Spawn keeps stderr apart, and the card shows one stream.
// PowerShell cannot do that for native commands without rewriting their
// errors, so its stderr is shown after the output (see run).
func (s shell) args(command string) []string {
	if s.kind != powerShell {
		// On the command's first line, so the shell's line numbers in its
		// errors are the command's.
		return []string{"-c", "exec 2>&1; " + command}
	}
	// The try/catch turns a terminating error into exit 1 and keeps a
	// native command's own exit status (a bare -Command flattens both).
	script := psPrologue + "try{" + command + "}catch{$_|Out-String|Write-Error;exit 1};exit $LASTEXITCODE"
	args := []string{"-NoProfile", "-NonInteractive", "-ExecutionPolicy", "Bypass", "-NoLogo"}
	if len(script) > psArgLimit {
		return append(args, "-EncodedCommand", encodePS(script))
	}
	return append(args, "-Command", script)
}

func encodePS(s string) string {
	units := utf16.Encode([]rune(s))
	b := make([]byte, 0, 2*len(units))
	for _, u := range units {
		b = append(b, byte(u), byte(u>>8))
	}
	return base64.StdEncoding.EncodeToString(b)
}

// chains reports whether the shell parses && and ||: every POSIX shell and
// PowerShell 7 do, Windows PowerShell 5.1 does not.
func (s shell) chains() bool {
	if s.kind != powerShell {
		return true
	}
	base := strings.ToLower(filepath.Base(strings.ReplaceAll(s.path, `\`, "/")))
	return base == "pwsh" || base == "pwsh.exe"
}

// check refuses, before anything runs, what the shell would misread: &&
// or || outside quotes under Windows PowerShell 5.1 (the real host's text).
func (s shell) check(command string) error {
	if s.chains() || (!unquoted(command, "&&") && !unquoted(command, "||")) {
		return nil
	}
	return errors.New("this shell is Windows PowerShell, which does not parse '&&' or '||'. " +
		"Sequence with ';' (both run regardless of the first's result), use 'if ($?) { ... }' for " +
		"conditional chaining, or issue the commands as separate calls")
}

// unquoted reports whether seq appears in s outside single or double quotes.
func unquoted(s, seq string) bool {
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case strings.HasPrefix(s[i:], seq):
			return true
		}
	}
	return false
}

func (s shell) description() string {
	d := "Run a shell command in the workspace root and return its combined stdout/stderr " +
		"(the first and last 32 KiB when it prints more)."
	if s.kind != powerShell {
		return d + toolSteer
	}
	name, chaining := "Windows PowerShell 5.1", "';' runs both regardless; 'if ($?) { ... }' is conditional. '&&' and '||' are NOT parsed."
	if s.chains() {
		name, chaining = "PowerShell 7 (pwsh)", "'&&' and '||' are parsed for conditional chaining; ';' runs both regardless."
	}
	return d + " NOTE: bash is not available on this host — commands run under " + name + ", so write PowerShell, not bash:\n" +
		"  - chaining: " + chaining + "\n" +
		"  - redirect/vars: $null not /dev/null; $env:VAR not $VAR; '2>$null' drops stderr.\n" +
		"  - file ops: Get-ChildItem (ls), Get-Content (cat), Remove-Item -Recurse -Force (rm -rf), Copy-Item (cp), Select-String (grep).\n" +
		"  - no head/tail/which/touch: use Select-Object -First/-Last N, (Get-Command x).Source, New-Item." + toolSteer
}

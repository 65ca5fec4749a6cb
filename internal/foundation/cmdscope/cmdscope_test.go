package cmdscope_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/foundation/cmdscope"
)

func TestAnalyzeKinds(t *testing.T) {
	type want struct {
		kind       cmdscope.Kind
		program    string
		subcommand string
	}
	once := want{kind: cmdscope.Once}
	cases := []struct {
		cmd  string
		want want
	}{
		// Single simple commands a rule covers.
		{"echo hi", want{cmdscope.Program, "echo", ""}},
		{"  ls -la  ", want{cmdscope.Program, "ls", ""}},
		{`echo 'a b' "c d" e\ f`, want{cmdscope.Program, "echo", ""}},
		{"go test ./...", want{cmdscope.Program, "go", "test"}},
		{"go run x.go", want{cmdscope.Program, "go", "run"}},
		{"git status --short", want{cmdscope.Program, "git", "status"}},
		{"git -C sub --no-pager log -1", want{cmdscope.Program, "git", "log"}},
		{"git add *.go", want{cmdscope.Program, "git", "add"}},
		{"grep -rn x *.go", want{cmdscope.Program, "grep", ""}},
		{"find . -name '*.go'", want{cmdscope.Program, "find", ""}},
		{"sed -n 's/a/b/p' f", want{cmdscope.Program, "sed", ""}},
		{"sed -e '1,/x/d' -e 's|a|b|g' f", want{cmdscope.Program, "sed", ""}},
		{"tar -czf out.tgz dir", want{cmdscope.Program, "tar", ""}},
		{"rsync -av a/ b/", want{cmdscope.Program, "rsync", ""}},
		{"npm install", want{cmdscope.Program, "npm", "install"}},
		{"/usr/bin/env", once},
		// Wrappers beyond the common ones: each runs the program it is given.
		{"numactl --interleave=all touch pwn", once},
		{"xvfb-run touch pwn", once},
		{"setpriv --reuid=1 touch pwn", once},
		{"ccache touch pwn", once},
		{"wine cmd /c x", once},
		{"forfiles /c \"cmd /c x\"", once},
		{"crontab jobs.txt", once},
		{"at -f job now", once},
		// Clients with a shell escape run what they read: the exact line only.
		{"sqlite3 db.sqlite", want{cmdscope.Exact, "sqlite3", ""}},
		{"psql -c 'select 1'", want{cmdscope.Exact, "psql", ""}},
		// Operators, expansions and other shell syntax: never provable.
		{"echo x; touch pwn", once},
		{"echo x && touch pwn", once},
		{"echo x | sh", once},
		{"echo $(touch pwn)", once},
		{"echo `touch pwn`", once},
		{"echo $HOME", once},
		{`echo "$HOME"`, once},
		{"echo > f", once},
		{"cat <<EOF", once},
		{"echo x\ntouch pwn", once},
		{"echo x\ttouch", once},
		{"echo x\rtouch", once},
		{"echo \x00", once},
		{"echo \x1b[2J", once},
		{"echo 'unbalanced", once},
		{`echo "unbalanced`, once},
		{`echo \`, once},
		{"echo hi # ; touch pwn", once},
		{"", once},
		{"   ", once},
		{"'' x", once},
		{"*ouch pwn", once},
		{"{touch,pwn}", once},
		{"~/bin/x", once},
		{"if true", once},
		{"! touch pwn", once},
		// Assignments.
		{"LANG=C echo hi", once},
		{"LANG=C touch PWN", once},
		{"A='b c' echo", once},
		{"A=\"b c\" echo", once},
		{`A\=b x`, want{cmdscope.Program, "A=b", ""}},
		{"'A=b' x", want{cmdscope.Program, "A=b", ""}},
		// Wrappers.
		{"env touch PWN", once},
		{"env", once},
		{"nice -n 5 touch PWN", once},
		{"nohup touch PWN", once},
		{"timeout 5 touch PWN", once},
		{"sudo touch PWN", once},
		{"xargs touch", once},
		{"exec touch PWN", once},
		{"command touch PWN", once},
		{". ./x", once},
		{"source x", once},
		{"eval 'touch PWN'", once},
		{`sh -c "touch PWN"`, once},
		{"bash -c 'touch PWN'", once},
		{"/bin/sh x.sh", once},
		{"busybox touch PWN", once},
		{"npx cowsay", once},
		{"pnpm dlx x", once},
		{"npm exec x", once},
		{"uv run x", once},
		{"xdg-open x", once},
		{"ssh host touch PWN", once},
		{"trap 'touch PWN' EXIT", once},
		// Run-a-program options.
		{"find . -exec touch PWN {} +", once},
		{"find . -execdir touch PWN +", once},
		{"find . -delete", once},
		{"find . -fprint out", once},
		{"find . -name {-exec,touch}", once},
		{"git -c alias.x='!touch PWN' x", once},
		{"git --config-env=core.pager=X log", once},
		{"git --exec-path=/tmp log", once},
		{"git --git-dir=/tmp/evil status", once},
		{"git x", once},
		{"git st", once},
		{"git rebase -x 'touch PWN' main", once},
		{"git rebase --exec='touch PWN' main", once},
		{"git clone --upload-pack='touch PWN' u", once},
		{"git clone --upl='touch PWN' u", once},
		{"git clone --template=/tmp/t u", once},
		{"git push --receive-pack=x", once},
		{"git grep -O x", once},
		{"git submodule foreach touch PWN", once},
		{"git difftool -x 'touch PWN'", once},
		{"git clone {--upload-pack=x,u}", once},
		{"go test -exec 'touch PWN' ./...", once},
		{"go test --exec='touch PWN' ./...", once},
		{"go build -toolexec=x .", once},
		{"go vet -vettool=x .", once},
		{"cargo --config x build", once},
		{"tar --to-command='touch PWN' -xf a.tar", once},
		{"tar --to-com='touch PWN' -xf a.tar", once},
		{"tar -I 'touch PWN' -xf a.tar", once},
		{"tar xIf prog a.tar", once},
		{"tar --checkpoint-action=exec=x -cf a.tar .", once},
		{"tar -cf a.tar -F x .", once},
		{"tar -cf a.tar *", once},
		{"rsync -e 'touch PWN' a b:", once},
		{"rsync -avze x a b:", once},
		{"rsync --rsh=x a b:", once},
		{"zip -T a.zip x", once},
		{"zip -TT 'touch PWN' a.zip x", once},
		{"zip --unzip-command=x a.zip x", once},
		{"scp -o ProxyCommand=x a b:", once},
		{"sed e f", once},
		{"sed '1e touch PWN' f", once},
		{"sed 's/a/touch PWN/e' f", once},
		{"sed 's/a/b/w out' f", once},
		{"sed -n 'w out' f", once},
		{"sed -f script f", once},
		{"sed -ne x f", once},
		{"sed '1!W out' f", once},
		{"sed -- 's/a/b/e' f", once},
		{"sed --expr='s/a/b/e' f", once},
		{"sed --expr 's/a/b/e' f", once},
		{"sed --fi=x f", once},
		{"find -- . -exec touch PWN +", once},
		{"find . -- -exec touch PWN +", once},
		{"go env -w GOFLAGS=-toolexec=x", once},
		{"npm config set script-shell x", want{cmdscope.Exact, "npm", ""}},
		{"sed -- 's/a/b/' f", want{cmdscope.Program, "sed", ""}},
		{"sed --expression='s/a/b/' f", want{cmdscope.Program, "sed", ""}},
		// Exact only.
		{"python3 -c 'print(1)'", want{cmdscope.Exact, "python3", ""}},
		{"perl -e 1", want{cmdscope.Exact, "perl", ""}},
		{"node -e 1", want{cmdscope.Exact, "node", ""}},
		{"ruby x.rb", want{cmdscope.Exact, "ruby", ""}},
		{"php -r 1", want{cmdscope.Exact, "php", ""}},
		{"awk '{print $1}' f", want{cmdscope.Exact, "awk", ""}},
		{"make test", want{cmdscope.Exact, "make", ""}},
		{"less f", want{cmdscope.Exact, "less", ""}},
		{"vi f", want{cmdscope.Exact, "vi", ""}},
		{"npm run build", want{cmdscope.Exact, "npm", ""}},
		{"npm --version", want{cmdscope.Exact, "npm", ""}},
		{"git --version", want{cmdscope.Exact, "git", ""}},
		{"git config core.pager x", want{cmdscope.Exact, "git", ""}},
		{"git", want{cmdscope.Exact, "git", ""}},
	}
	for _, c := range cases {
		a := cmdscope.Analyze(c.cmd)
		if a.Kind != c.want.kind || c.want.kind != cmdscope.Once && (a.Program != c.want.program || a.Subcommand != c.want.subcommand) {
			t.Errorf("Analyze(%q) = kind %d %q %q (%s), want kind %d %q %q", c.cmd, a.Kind, a.Program, a.Subcommand, a.Reason,
				c.want.kind, c.want.program, c.want.subcommand)
		}
		if a.Kind != cmdscope.Program && a.Reason == "" {
			t.Errorf("Analyze(%q) is kind %d with no reason", c.cmd, a.Kind)
		}
	}
}

// The Windows spellings of the wrappers are the same wrappers: sh may see
// them (cmd.exe under wine, a WSL path), and a rule must never cover them.
func TestAnalyzeWindowsForms(t *testing.T) {
	for _, cmd := range []string{
		"cmd /c touch PWN",
		"cmd.exe /C touch PWN",
		"CMD /C touch PWN",
		"Cmd.Exe /k touch PWN",
		`C:\Windows\System32\cmd.exe /c touch PWN`,
		`'C:\Windows\System32\cmd.exe' /c touch PWN`,
		`"C:\Program Files\PowerShell\7\pwsh.exe" -c x`,
		"powershell -Command touch",
		"powershell.exe -EncodedCommand dABvAHUAYwBoAA==",
		"PowerShell -c x",
		"pwsh -c x",
		"pwsh.exe -Command x",
		"Start-Process x",
		"start x",
		"wsl touch PWN",
		"wsl.exe -e touch PWN",
		"ENV touch PWN",
		"/usr/bin/env touch PWN",
		"NPX.cmd x",
		"bash.exe -c x",
		`C:\Git\bin\bash.exe -c x`,
		"rundll32 x,y",
		"FIND.exe . -exec x +",
		"GIT.EXE -c a=b x",
		"git.exe x",
	} {
		if a := cmdscope.Analyze(cmd); a.Kind != cmdscope.Once {
			t.Errorf("Analyze(%q) = kind %d (%q): a Windows form of a wrapper must be asked every time", cmd, a.Kind, a.Program)
		}
	}
	for _, c := range []struct{ cmd, sub string }{
		{"git.exe status", "status"},
		{`C:\Git\cmd\git.exe status`, "status"},
		{"GO.EXE test ./...", "test"},
	} {
		if a := cmdscope.Analyze(c.cmd); a.Kind != cmdscope.Program || a.Subcommand != c.sub {
			t.Errorf("Analyze(%q) = kind %d sub %q, want a program with subcommand %q", c.cmd, a.Kind, a.Subcommand, c.sub)
		}
	}
	for _, cmd := range []string{"python.exe -c x", `C:\Python312\python.exe x.py`, "NODE.EXE -e 1"} {
		if a := cmdscope.Analyze(cmd); a.Kind != cmdscope.Exact {
			t.Errorf("Analyze(%q) = kind %d, want exact only (an interpreter)", cmd, a.Kind)
		}
	}
}

func TestScopeCovers(t *testing.T) {
	cases := []struct {
		approved string
		cmd      string
		covered  bool
	}{
		{"echo hi", "echo there", true},
		{"echo hi", "echo", true},
		{"echo hi", "echo x; touch PWN", false},
		{"echo hi", "touch PWN", false},
		{"echo hi", "LANG=C echo hi", false},
		{"ls", "'ls' -la", true},
		{"go test ./...", "go test -run X ./x", true},
		{"go test ./...", "go run x.go", false},
		{"go test ./...", "go test -exec 'touch PWN' .", false},
		{"git status", "git status --short", true},
		{"git status", "git -C sub status", true},
		{"git status", "git push", false},
		{"git status", "git -c alias.x='!touch PWN' x", false},
		{"git log -1", "git log --format=%H", true},
		{"find . -name x", "find . -exec touch PWN {} +", false},
		{"find . -name x", "find /etc -type f", true},
		{"python3 -c 'print(1)'", "python3 -c 'print(1)'", true},
		{"python3 -c 'print(1)'", "  python3 -c 'print(1)' ", true},
		{"python3 -c 'print(1)'", "python3 -c 'import os'", false},
		{"make test", "make test", true},
		{"make test", "make install", false},
		{"git --version", "git --version", true},
		{"git --version", "git status", false},
		{"git --version", "git -c alias.x='!touch PWN' x", false},
	}
	for _, c := range cases {
		s, ok := cmdscope.Analyze(c.approved).Scope()
		if !ok {
			t.Fatalf("%q has no scope", c.approved)
		}
		if got := s.Covers(c.cmd); got != c.covered {
			t.Errorf("an approval of %q (%s) covers %q: %v, want %v", c.approved, s, c.cmd, got, c.covered)
		}
	}
	for _, cmd := range []string{"LANG=C echo hi", "env echo", `sh -c "echo"`, "nice echo", "find . -exec true +"} {
		if _, ok := cmdscope.Analyze(cmd).Scope(); ok {
			t.Errorf("%q has a scope; no approval may cover it", cmd)
		}
	}
}

// Prefixes: a scope's prefix reads back as the same scope, and a prefix
// written before scopes (the first word of the approved line) keeps
// covering that program's proven commands and nothing more.
func TestPrefixRoundTrip(t *testing.T) {
	for _, s := range []cmdscope.Scope{
		{Program: "git", Subcommand: "status"},
		{Program: "ls"},
		{Program: "/opt/my tools/x", Subcommand: "it's"},
	} {
		if got := cmdscope.ParsePrefix(s.Prefix()); got != s {
			t.Errorf("ParsePrefix(%q) = %+v, want %+v", s.Prefix(), got, s)
		}
	}
	legacy := cmdscope.ParsePrefix("git")
	if !legacy.Covers("git push") || legacy.Covers("git -c alias.x='!touch PWN' x") || legacy.Covers("git --version") {
		t.Errorf("a legacy git prefix: %+v", legacy)
	}
	for _, p := range []string{"", "LANG=C", "a b c", "$x", "'x"} {
		s := cmdscope.ParsePrefix(p)
		for _, cmd := range []string{"LANG=C echo hi", "echo hi", "a b c", "x"} {
			if s.Covers(cmd) && p != "" && !strings.HasPrefix(cmd, p) {
				t.Errorf("prefix %q covers %q", p, cmd)
			}
		}
		if p == "LANG=C" && s.Covers("LANG=C touch PWN") {
			t.Errorf("the legacy prefix LANG=C covers an assignment")
		}
	}
}

func TestJoinReparses(t *testing.T) {
	for _, words := range [][]string{
		{"echo", "a b", "it's", `back\slash`, `"q"`, "*", "$x", "A=b", ""},
	} {
		a := cmdscope.Analyze(cmdscope.Join(words))
		if !slices.Equal(a.Words, words) {
			t.Errorf("Join(%q) parses as %q", words, a.Words)
		}
	}
}

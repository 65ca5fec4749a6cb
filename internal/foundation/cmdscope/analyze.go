// Package cmdscope owns what a run_command approval covers. It parses a
// command line the way POSIX sh -c will run it and decides the widest
// scope an approval of that line may have. The rule:
//
// A "session" or "always" approval covers one program P (the program word
// as written, after quote removal) and, when P takes subcommands (git, go,
// npm, cargo, docker, kubectl, pip, …), the subcommand approved: approving
// `go test ./...` covers `go test …`, not `go run x.go`. A later command is
// covered only when the parser proves it is a single simple command of P
// (and that subcommand) with no assignment, no wrapper and no option that
// makes P run another program. Anything else is asked again.
//
// What the parser proves: the line is words separated by spaces, with
// '…', "…" and backslash escapes, and nothing else. It refuses (Once)
// operators and redirections (; & | < > ( )), $ and backtick expansion
// and substitution (here-docs need <<, so they are refused with it), a
// comment, tabs, newlines, CR, NUL and every other control character,
// unbalanced quotes, a lone trailing backslash, and glob, brace or tilde
// expansion in the program or subcommand word (anywhere, for programs
// whose options are checked: a glob could expand to -exec).
//
// Three scopes, from narrow to wide:
//   - Once: no approval covers the line. Leading assignments (LANG=C cmd);
//     reserved words; wrappers that run another program: env, nice, nohup,
//     timeout, sudo, doas, su, runuser, pkexec, sg, newgrp, xargs, parallel,
//     time, stdbuf, setsid, chroot, ionice, taskset, chrt, flock, watch,
//     strace, ltrace, nsenter, unshare, busybox, toybox, script, expect,
//     screen, tmux, gdb, lldb, valgrind, perf, hyperfine, entr, faketime,
//     fakeroot, proxychains, torsocks, firejail, bwrap, sandbox-exec,
//     caffeinate, cpulimit, catchsegv, systemd-run, run-parts, ssh,
//     dbus-launch, numactl, setpriv, cgexec, capsh, prlimit, setarch,
//     linux32, linux64, arch, xvfb-run, dbus-run-session, chpst, softlimit,
//     unbuffer, rlwrap, nsjail, systemd-nspawn, machinectl, lxc-attach,
//     sshpass, retry, watchexec, nodemon, concurrently, chronic, ifne, sem,
//     flatpak-spawn, ccache, distcc, icecc, trickle, torify, tsocks,
//     eatmydata, tini, dumb-init, gosu, su-exec, daemonize,
//     start-stop-daemon, sudoedit, wine, wine64, mono, taskpolicy; the
//     schedulers crontab, at, batch, launchctl, schtasks (they run a
//     command later); the builtins exec, command, builtin, eval, source, .,
//     trap, fc, every shell (sh, bash, dash, zsh, ksh, mksh, ash, fish,
//     csh, tcsh, yash, posh, cmd, powershell, pwsh), Windows launchers
//     (start, Start-Process, Invoke-Expression, iex, Invoke-Command, icm,
//     Invoke-Item, ii, wsl, cscript, wscript, mshta, rundll32, regsvr32,
//     msiexec, explorer, forfiles, wmic, runas, pcalua, conhost, winpty,
//     cygstart), the shells elvish, nu, xonsh, rc, es, run-a-package tools
//     (npx, bunx, pnpx, uvx, npm exec/x, pnpm dlx/exec, yarn dlx/exec, uv
//     run/tool, pipx run, poetry run, pdm run, conda run, bundle exec, nix
//     run/shell/develop, dotnet exec, gh extension) and openers (xdg-open,
//     open, gio, kde-open, gnome-open). Also a program with an option that
//     runs a program or writes files: find -exec, -execdir, -ok, -okdir,
//     -delete, -fprint, -fprint0, -fprintf, -fls; git -c, --config-env,
//     --exec-path, --git-dir, --work-tree and any global option but a few
//     flags and -C; git aliases (any subcommand that is not a built-in
//     command); git filter-branch, bisect, submodule, difftool, mergetool,
//     instaweb, send-email, credential, gui, citool, daemon, for-each-repo,
//     maintenance; git rebase --exec/-x, clone --upload-pack/-u/--template/
//     --config/-c, init --template, fetch/pull --upload-pack,
//     ls-remote --upload-pack/-u, archive --exec/--remote, push and
//     send-pack --receive-pack/--exec, fetch-pack --upload-pack/--exec,
//     grep --open-files-in-pager/-O; go -exec, -toolexec, -vettool and -w
//     (go env -w writes GOFLAGS later go commands obey); cargo
//     --config; tar --to-command, --use-compress-program, -I,
//     --checkpoint-action, --info-script, --new-volume-script, -F,
//     --rsh-command, --rmt-command; rsync -e/--rsh/--rsync-path; zip
//     -T/--test/-TT/--unzip-command; scp and sftp -S/-o/-F; sed's e, w and W
//     commands, the s///e and s///w flags and -f script files.
//   - Exact: only this exact line is covered. Interpreters run code the
//     line does not show (python, perl, ruby, node, deno, bun, php, lua,
//     java, osascript, awk and its kin, jq, octave, m4, dc, gnuplot,
//     pandoc, ansible, msbuild, …), clients with a shell escape in what
//     they read (sqlite3 .shell, psql and mysql \!, mail ~!, ftp !); build
//     runners run a file's
//     recipes (make, ninja, just, rake, cmake, mvn, gradle, npm run/test/
//     start, pnpm and yarn run/test/start, go generate, go tool); pagers and
//     editors run what is typed at them (less, more, man, vi, vim, emacs,
//     nano, ed); git config writes config later git commands obey
//     (core.fsmonitor, core.pager), and so do npm, pnpm, yarn and pip
//     config (npm's script-shell); a subcommand program whose first
//     argument is an option (`npm --version`), where the subcommand cannot
//     be proven.
//   - Program: P with its subcommand, as above.
//
// Windows forms are recognised as the same programs: names compare in
// lower case, by their last path element (/ or \, whether sh would have
// kept the backslash or not) and without .exe, .com, .cmd, .bat or .ps1,
// so `CMD /C`, `cmd.exe /c`, `C:\Windows\System32\cmd.exe` and
// `pwsh.exe -c` are all the cmd and pwsh wrappers.
//
// What a rule cannot see: a covered program reads files and its
// configuration, and a program that writes files (an approved cp, a
// write_file approval) can change what another approved program does (a
// Makefile, a test, .git/config). The scope limits which program runs,
// with what options; it does not make the program's inputs safe.
package cmdscope

import (
	"path"
	"strings"
)

// Kind is how wide an approval of a command may be.
type Kind uint8

// Kinds, narrowest first.
const (
	// Once: no approval covers the line; it is asked about every time.
	Once Kind = iota
	// Exact: an approval covers only this exact line.
	Exact
	// Program: an approval covers the program (and its subcommand) with any
	// arguments whose options the parser checked.
	Program
)

// Analysis is what a command line is, as far as approvals go.
type Analysis struct {
	// Line is the command as analysed (surrounding spaces trimmed).
	Line string
	// Words are the words sh will run, after quote removal; nil when the
	// line is not a single simple command the parser can prove.
	Words []string
	// Program is the program word; Subcommand the subcommand a rule of
	// this Kind Program covers ("" when the program takes none).
	Program    string
	Subcommand string
	Kind       Kind
	// Reason says, for Once and Exact, why an approval cannot be wider,
	// as a phrase completing "`<line>` …, so …" ("sets variables").
	Reason string
}

// Analyze parses a command line as sh -c will and says what an approval
// of it may cover.
func Analyze(cmd string) Analysis {
	a := Analysis{Line: strings.Trim(cmd, " ")}
	ws, err := split(a.Line)
	if err != nil {
		a.Reason = err.Error()
		return a
	}
	if len(ws) == 0 {
		a.Reason = "names no program"
		return a
	}
	for _, w := range ws {
		a.Words = append(a.Words, w.text)
	}
	if ws[0].assign {
		a.Reason = "sets variables"
		return a
	}
	a.Program = ws[0].text
	names := []string{name(ws[0].text), name(ws[0].raw)}
	switch {
	case reserved[ws[0].text]:
		a.Reason = "starts with the shell word " + quoteWord(ws[0].text) + ", not a program"
		return a
	case ws[0].expands:
		a.Reason = "has a program name the shell expands (a glob, brace or ~)"
		return a
	case ws[0].text == "":
		a.Reason = "names an empty program"
		return a
	}
	for _, n := range names {
		if wrappers[n] {
			a.Reason = "runs " + n + ", which runs whatever it is given"
			return a
		}
	}
	for _, n := range names {
		if why := optionRuns(n, ws[1:]); why != "" {
			a.Reason = why
			return a
		}
	}
	for _, n := range names {
		if interpreters[n] {
			a.Kind = Exact
			a.Reason = "runs " + n + ", which runs code or commands the line does not show"
			return a
		}
	}
	for _, n := range names {
		if subcommanders[n] {
			return subcommand(a, n, ws[1:])
		}
	}
	a.Kind = Program
	return a
}

// subcommand scopes a program that takes subcommands.
func subcommand(a Analysis, prog string, args []word) Analysis {
	if prog == "git" {
		return gitScope(a, args)
	}
	if len(args) == 0 || strings.HasPrefix(args[0].text, "-") || args[0].expands {
		a.Kind = Exact
		a.Reason = "names no " + prog + " subcommand first, so only this line can be approved"
		return a
	}
	sub := args[0].text
	if once, ok := runSubcommands[prog][sub]; ok {
		if once {
			a.Reason = "runs " + prog + " " + sub + ", which runs whatever it is given"
			return a
		}
		a.Kind = Exact
		a.Reason = "runs " + prog + " " + sub + ", which runs scripts the line does not show"
		return a
	}
	a.Kind, a.Subcommand = Program, sub
	return a
}

// gitScope: git's global options come first (only a few flags and -C are
// allowed), then a built-in command; anything else may be an alias.
func gitScope(a Analysis, args []word) Analysis {
	i := 0
	for ; i < len(args) && strings.HasPrefix(args[i].text, "-"); i++ {
		w := args[i].text
		switch {
		case w == "-C":
			i++
			continue
		case gitGlobalFlags[w]:
			continue
		case w == "--version" || w == "--help" || w == "-v" || w == "-h":
			a.Kind = Exact
			a.Reason = "names no git command, so only this line can be approved"
			return a
		}
		a.Reason = "uses git's " + quoteWord(w) + " option, which can make git run another program"
		return a
	}
	if i >= len(args) {
		a.Kind = Exact
		a.Reason = "names no git command, so only this line can be approved"
		return a
	}
	sub := args[i]
	if sub.expands || !gitCommands[sub.text] {
		a.Reason = "runs git " + quoteWord(sub.text) + ", not a built-in git command: an alias can run anything"
		return a
	}
	if once, ok := gitRun[sub.text]; ok {
		if once {
			a.Reason = "runs git " + sub.text + ", which runs other programs"
			return a
		}
		a.Kind = Exact
		a.Reason = "runs git " + sub.text + ", which can change what later git commands run"
		return a
	}
	if o, ok := gitRunOptions[sub.text]; ok {
		for _, w := range args[i+1:] {
			if w.expands {
				return once(a, "has an argument the shell expands (a glob, brace or ~), which could become an option of git "+sub.text)
			}
		}
		if w := findOption(args[i+1:], o.long, o.short); w != "" {
			a.Reason = "uses git " + sub.text + "'s " + quoteWord(w) + " option, which runs another program"
			return a
		}
	}
	a.Kind, a.Subcommand = Program, sub.text
	return a
}

func once(a Analysis, why string) Analysis {
	a.Kind, a.Reason = Once, why
	return a
}

// optionRuns says why a program's arguments make it run a program or
// write files of their choosing, or "".
func optionRuns(prog string, args []word) string {
	o, checked := runOptions[prog]
	if prog == "sed" {
		checked = true
	}
	if !checked {
		return ""
	}
	for _, w := range args {
		if w.expands {
			return "has an argument the shell expands (a glob, brace or ~), which could become an option of " + prog
		}
	}
	if prog == "sed" {
		return sedRuns(args)
	}
	if prog == "tar" && len(args) > 0 && !strings.HasPrefix(args[0].text, "-") && strings.ContainsAny(args[0].text, o.short) {
		// tar's old style: the first word is a cluster of letters (xIf).
		return "uses tar's " + quoteWord(args[0].text) + " option, which runs another program"
	}
	if w := findOption(args, o.long, o.short); w != "" {
		return "uses " + prog + "'s " + quoteWord(w) + " option, which runs another program or writes files"
	}
	return ""
}

// findOption returns the first argument that is one of long (or an
// abbreviation of one: GNU tools and git accept unambiguous prefixes; a
// one-dash long name as find writes them) or a short cluster holding a
// letter of short. Arguments after "--" are checked too: find reads its
// expression after one, and an operand named like an option is rare
// enough to ask about.
func findOption(args []word, long []string, short string) string {
	for _, a := range args {
		w := a.text
		if !strings.HasPrefix(w, "-") || w == "-" || w == "--" {
			continue
		}
		n, _, _ := strings.Cut(w, "=")
		for _, l := range long {
			// Go's flags and find's tests have one dash; Go takes two too.
			if n == l || n == "-"+l || strings.HasPrefix(l, "--") && len(n) > 3 && strings.HasPrefix(l, n) {
				return w
			}
		}
		if !strings.HasPrefix(w, "--") && short != "" && strings.ContainsAny(w[1:], short) {
			return w
		}
	}
	return ""
}

// name is a program word as the tables name it: its last path element (/
// or \), lower case, without a Windows executable extension.
func name(w string) string {
	if i := strings.LastIndexAny(w, `/\`); i >= 0 {
		w = w[i+1:]
	}
	w = strings.ToLower(w)
	switch path.Ext(w) {
	case ".exe", ".com", ".cmd", ".bat", ".ps1":
		w = strings.TrimSuffix(w, path.Ext(w))
	}
	return w
}

func quoteWord(w string) string {
	if r := []rune(w); len(r) > 40 {
		w = string(r[:40]) + "…"
	}
	return "'" + w + "'"
}

package cmdscope

// The tables below name programs by their normalised name (see name): the
// last path element, lower case, without .exe/.com/.cmd/.bat/.ps1.

// wrappers run another program (or code) they are given, so approving one
// would approve everything: no rule covers them.
var wrappers = set(
	// Unix: run a command under some condition or identity.
	"env", "nice", "nohup", "timeout", "sudo", "doas", "su", "runuser", "pkexec", "sg", "newgrp",
	"xargs", "parallel", "time", "stdbuf", "setsid", "chroot", "ionice", "taskset", "chrt", "flock",
	"watch", "strace", "ltrace", "nsenter", "unshare", "busybox", "toybox", "script", "expect",
	"screen", "tmux", "gdb", "lldb", "valgrind", "perf", "hyperfine", "entr", "faketime", "fakeroot",
	"proxychains", "proxychains4", "torsocks", "firejail", "bwrap", "sandbox-exec", "caffeinate",
	"cpulimit", "catchsegv", "systemd-run", "run-parts", "ssh", "dbus-launch",
	"numactl", "setpriv", "cgexec", "capsh", "prlimit", "setarch", "linux32", "linux64", "arch",
	"xvfb-run", "dbus-run-session", "chpst", "softlimit", "unbuffer", "rlwrap", "nsjail",
	"systemd-nspawn", "machinectl", "lxc-attach", "sshpass", "retry", "watchexec", "nodemon",
	"concurrently", "chronic", "ifne", "sem", "flatpak-spawn", "ccache", "distcc", "icecc", "trickle",
	"torify", "tsocks", "eatmydata", "tini", "dumb-init", "gosu", "su-exec", "daemonize",
	"start-stop-daemon", "sudoedit", "wine", "wine64", "mono", "taskpolicy",
	// Schedulers run a command later, outside this call.
	"crontab", "at", "batch", "launchctl", "schtasks",
	// Shell builtins that run text or another program, or run code on a
	// signal or exit.
	"exec", "command", "builtin", "eval", "source", ".", "trap", "fc",
	// Shells run whatever they are given.
	"sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "fish", "csh", "tcsh", "yash", "posh",
	"cmd", "powershell", "pwsh", "start", "start-process", "invoke-expression", "iex", "wsl", "wslhost",
	"cscript", "wscript", "mshta", "rundll32", "regsvr32", "msiexec", "explorer",
	"forfiles", "wmic", "runas", "pcalua", "conhost", "winpty", "cygstart", "invoke-command", "icm",
	"invoke-item", "ii", "elvish", "nu", "xonsh", "rc", "es",
	// Run a package fetched by name, or open a file with whatever handles it.
	"npx", "bunx", "pnpx", "uvx", "xdg-open", "open", "gio", "kde-open", "gnome-open",
)

// interpreters run code (a script, a string, a project's build file) the
// command line does not show: an approval covers only the exact line seen.
var interpreters = set(
	"python", "python2", "python3", "py", "pypy", "pypy3", "perl", "ruby", "node", "nodejs", "deno", "bun",
	"php", "lua", "luajit", "tclsh", "wish", "rscript", "r", "julia", "java", "jshell", "groovy", "scala",
	"osascript", "awk", "gawk", "mawk", "nawk", "jq", "octave", "m4", "dc", "gnuplot", "pandoc",
	"ansible", "ansible-playbook", "msbuild",
	// Clients with a shell escape (\!, .shell, ~!) in what they read.
	"sqlite3", "psql", "mysql", "mariadb", "mail", "mailx", "ftp",
	// Build runners run the recipes of a file in the workspace.
	"make", "gmake", "nmake", "ninja", "just", "rake", "cmake", "meson", "scons", "ant", "mvn", "gradle", "gradlew",
	// Pagers and editors run commands typed at them (!cmd, :!cmd).
	"less", "more", "most", "man", "vi", "vim", "nvim", "view", "ex", "ed", "emacs", "nano", "pico",
)

// subcommanders take a subcommand as their first argument: a rule covers
// the program with the subcommand approved (`go test` does not cover
// `go run`). Their first argument must be the subcommand, else only the
// exact line is covered (their global options may take values, so the
// subcommand is not provable after one); git is parsed further.
var subcommanders = set(
	"git", "go", "npm", "pnpm", "yarn", "cargo", "rustup", "docker", "podman", "kubectl", "helm",
	"pip", "pip3", "uv", "pipx", "poetry", "pdm", "conda", "gh", "apt", "apt-get", "dnf", "yum", "brew",
	"dotnet", "terraform", "systemctl", "gem", "bundle", "composer", "nix", "swift", "zig",
)

// runSubcommands are subcommands that run another program or a script the
// line does not show: npm run builds from package.json as make does.
// Values: true — no rule covers them; false — only the exact line.
var runSubcommands = map[string]map[string]bool{
	"npm":    {"config": false, "set": false, "exec": true, "x": true, "run": false, "run-script": false, "test": false, "t": false, "start": false, "restart": false, "stop": false, "explore": true},
	"pnpm":   {"config": false, "dlx": true, "exec": true, "run": false, "test": false, "start": false},
	"yarn":   {"config": false, "dlx": true, "exec": true, "run": false, "test": false, "start": false, "node": true},
	"uv":     {"run": true, "tool": true},
	"pipx":   {"run": true},
	"poetry": {"run": true, "shell": true},
	"pdm":    {"run": true},
	"conda":  {"run": true},
	"bundle": {"exec": true},
	"nix":    {"run": true, "shell": true, "develop": true},
	"gh":     {"alias": false, "extension": true, "ext": true},
	"go":     {"generate": false, "tool": false},
	"pip":    {"config": false},
	"pip3":   {"config": false},
	"dotnet": {"exec": true},
}

// runOptions are options that make a program run another program, write
// files of its choosing or load code: a command using one is covered by no
// rule. Long options also match their unambiguous GNU-style abbreviations;
// a short letter matches inside a cluster (-avze).
var runOptions = map[string]struct {
	long  []string
	short string
}{
	"find":  {long: []string{"-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint", "-fprint0", "-fprintf", "-fls"}},
	"tar":   {long: []string{"--to-command", "--use-compress-program", "--checkpoint-action", "--info-script", "--new-volume-script", "--rsh-command", "--rmt-command"}, short: "IF"},
	"rsync": {long: []string{"--rsh", "--rsync-path"}, short: "e"},
	"zip":   {long: []string{"--test", "--unzip-command"}, short: "T"},
	"scp":   {long: nil, short: "SoF"},
	"sftp":  {long: nil, short: "SoF"},
	// go env -w writes GOFLAGS (a -toolexec) that later go commands obey.
	"go":    {long: []string{"-exec", "-toolexec", "-vettool", "-w"}},
	"cargo": {long: []string{"--config"}},
}

// gitCommands are git's built-in commands; any other subcommand is an
// alias, which may be "!anything": no rule covers it.
var gitCommands = set(
	"add", "am", "annotate", "apply", "archive", "backfill", "blame", "branch", "bugreport", "bundle", "cat-file",
	"check-attr", "check-ignore", "check-mailmap", "check-ref-format", "checkout", "checkout-index", "cherry",
	"cherry-pick", "clean", "clone", "commit", "commit-graph", "commit-tree", "count-objects", "describe", "diff",
	"diff-files", "diff-index", "diff-tree", "fetch", "for-each-ref", "format-patch", "fsck", "gc", "grep",
	"hash-object", "help", "init", "interpret-trailers", "log", "ls-files", "ls-remote", "ls-tree", "merge",
	"merge-base", "merge-file", "merge-tree", "mktag", "mktree", "mv", "name-rev", "notes", "prune", "pull",
	"push", "range-diff", "read-tree", "rebase", "reflog", "remote", "repack", "replace", "replay", "rerere",
	"reset", "restore", "rev-list", "rev-parse", "revert", "rm", "shortlog", "show", "show-branch", "show-ref",
	"sparse-checkout", "stash", "status", "switch", "symbolic-ref", "tag", "update-index", "update-ref", "var",
	"verify-commit", "verify-pack", "verify-tag", "version", "whatchanged", "worktree", "write-tree",
	// Listed so they are not taken for aliases; gitRun rules on them.
	"config", "filter-branch", "bisect", "submodule", "difftool", "mergetool", "instaweb", "send-email",
	"credential", "gui", "citool", "daemon", "for-each-repo", "maintenance", "fetch-pack", "send-pack",
)

// gitRun: git subcommands that run programs the line names or that config
// names (true: no rule covers them), or that write config other git
// commands obey, such as core.fsmonitor or core.pager (false: only the
// exact line).
var gitRun = map[string]bool{
	"filter-branch": true, "bisect": true, "submodule": true, "difftool": true, "mergetool": true,
	"instaweb": true, "send-email": true, "credential": true, "gui": true, "citool": true, "daemon": true,
	"for-each-repo": true, "maintenance": true, "config": false, "help": false,
}

// gitRunOptions are options of git subcommands that run a program or
// install hooks (clone --template).
var gitRunOptions = map[string]struct {
	long  []string
	short string
}{
	"rebase":     {long: []string{"--exec"}, short: "x"},
	"clone":      {long: []string{"--upload-pack", "--template", "--config"}, short: "uc"},
	"init":       {long: []string{"--template"}},
	"fetch":      {long: []string{"--upload-pack"}},
	"pull":       {long: []string{"--upload-pack"}},
	"ls-remote":  {long: []string{"--upload-pack"}, short: "u"},
	"archive":    {long: []string{"--exec", "--remote"}},
	"push":       {long: []string{"--receive-pack", "--exec"}},
	"fetch-pack": {long: []string{"--upload-pack", "--exec"}},
	"send-pack":  {long: []string{"--receive-pack", "--exec"}},
	"grep":       {long: []string{"--open-files-in-pager"}, short: "O"},
	"worktree":   {long: nil},
}

// gitGlobalFlags are git's global options that take no value; -C takes a
// directory. Any other global option (-c, --config-env, --exec-path,
// --git-dir, --work-tree, …) is refused: each can make git run a program.
var gitGlobalFlags = set(
	"--no-pager", "-p", "--paginate", "-P", "--bare", "--no-replace-objects", "--literal-pathspecs",
	"--glob-pathspecs", "--noglob-pathspecs", "--icase-pathspecs", "--no-optional-locks", "--no-lazy-fetch",
	"--no-advice",
)

// reserved are sh's reserved words (and bash's): in program position they
// start a compound command, not a program.
var reserved = set("if", "then", "else", "elif", "fi", "case", "esac", "for", "while", "until", "do", "done",
	"{", "}", "!", "[[", "]]", "function", "select", "coproc", "in")

func set(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

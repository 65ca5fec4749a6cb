package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/reasonix/reasonix-desktop/internal/foundation/proc"
	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
)

// The kill test (issue 39, "nothing lost even when the app is killed"):
// the real binary, `chat --headless --repl --json` with the example
// plugins and the echo model streaming slowly, is SIGKILLed at random
// moments of a turn — before its message shows, before the first streamed
// byte, mid-reply, just after the end — and relaunched against the same
// data dir. After each relaunch the files are read raw
// (chats39_kill_files_test.go): every message the host showed is in its
// chat, a reply cut short is a failed note marked interrupted whose text is
// a prefix of the echo's reply and at most ageLimit behind the stream, every
// file under sessions/ parses, no turn checkpoint is left (.turns/<id>.json),
// a chat begun by the killed launch exists, and no plugin process of the
// killed app lives 2 s after the kill.

// killPhase is when a kill lands in the turn it cuts.
type killPhase string

const (
	phaseStart     killPhase = "after turn_started" // the message may not be shown yet
	phaseFirstByte killPhase = "before the first streamed byte"
	phaseMid       killPhase = "mid-stream"
	phaseEnd       killPhase = "just after the end"
)

// killSize is one run's shape.
type killSize struct {
	kills    int
	delay    time.Duration // between the echo model's chunks (one word each)
	maxWords int           // the longest message a kill cuts
	// ageLimit is how far behind the stream an interrupted note's text may
	// be: the core checkpoints at least every second; the rest is slack for
	// a busy machine (the test stamps chunks when it reads them).
	ageLimit time.Duration
	// mcp adds an MCP server over stdio (server-everything on node): one
	// more kind of process that must die with the app. About 1 s more a
	// launch, so only the soak has it.
	mcp bool
}

// killEvent is one line of `chat --json` (docs/chat-events.schema.json),
// stamped when the test read it.
type killEvent struct {
	at        time.Time
	Kind      string `json:"kind"`
	SessionID string `json:"sessionId"`
	Text      string `json:"text"`
	Error     string `json:"error"`
	Result    *struct {
		Sessions []struct {
			ID string `json:"id"`
		} `json:"sessions"`
	} `json:"result"`
}

// sentMsg is one message a launch sent.
type sentMsg struct {
	kill    int
	phase   killPhase // the kill's, for the report
	session string    // from its user_message event
	text    string
	newChat bool // the chat was begun by the killed launch
	shown   bool // its user_message came before the kill: it was sent
	started bool // turn_started came before the kill
	usage   bool // the reply was complete on the stream
	done    bool // turn_done came before the kill: the reply must be saved
	cut     bool // the turn the kill cut
	texts   []stampedLine
	killed  time.Time
	failed  bool // a check failed: the final pass does not count it again
}

func (m *sentMsg) reply() string { return "Echo: " + m.text }

func (m *sentMsg) String() string {
	s := fmt.Sprintf("kill %d (%s", m.kill, m.phase)
	if m.cut && len(m.texts) > 0 {
		s += fmt.Sprintf(", %d chunks streamed, %.2f s into the reply", len(m.texts), m.killed.Sub(m.texts[0].at).Seconds())
	}
	chat := m.session
	if len(chat) > 8 {
		chat = chat[:8]
	}
	if m.newChat {
		chat += ", begun by the killed launch"
	}
	return s + fmt.Sprintf("), chat %s, message %q", chat, truncate(m.text, 40))
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// killReport is what a kill test found: counts, then each failure said.
type killReport struct {
	kills                           int
	byPhase                         map[killPhase]int
	sent, newChats                  int
	lost, unmarked, badText, stale  int
	incomplete, unreadable          int
	checkpoints, survivors, missing int
	temps, launchFailures           int
	maxLag                          time.Duration
	failures                        []string
	took                            time.Duration
}

// failMsg records a failure of m's under counter.
func (k *killRun) failMsg(m *sentMsg, counter *int, format string, args ...any) {
	m.failed = true
	*counter++
	k.rep.fail(format, args...)
}

func (r *killReport) fail(format string, args ...any) {
	r.failures = append(r.failures, fmt.Sprintf(format, args...))
}

func (r *killReport) String() string {
	return fmt.Sprintf("%d kills in %s (%d after turn_started, %d before the first byte, %d mid-stream, %d just after the end), "+
		"%d messages sent, %d chats begun by a killed launch: %d messages lost, %d cut replies not marked interrupted, "+
		"%d partial texts not the reply's prefix, %d older than the limit (largest lag %s), %d completed replies not saved, "+
		"%d unreadable files, %d checkpoints left after relaunch, %d new chats missing, %d plugin processes alive 2 s after a kill, "+
		"%d launches that never started a turn, %d temp files left",
		r.kills, r.took.Round(time.Second), r.byPhase[phaseStart], r.byPhase[phaseFirstByte], r.byPhase[phaseMid], r.byPhase[phaseEnd],
		r.sent, r.newChats, r.lost, r.unmarked, r.badText, r.stale, r.maxLag.Round(time.Millisecond), r.incomplete,
		r.unreadable, r.checkpoints, r.missing, r.survivors, r.launchFailures, r.temps)
}

func (r *killReport) bad() int {
	return r.lost + r.unmarked + r.badText + r.stale + r.incomplete + r.unreadable + r.checkpoints + r.missing + r.survivors
}

// killRun is the state of one kill test.
type killRun struct {
	t     *testing.T
	h     *host
	size  killSize
	rng   *rand.Rand
	rep   *killReport
	chats []string   // chats holding a sent message
	all   []*sentMsg // every message sent, for the final pass
	// seenFiles are the files already reported (unreadable, a checkpoint
	// left): counted once, not at every relaunch after.
	seenFiles map[string]bool
}

// killModel is the example echo model.
const killModel = "plugin/echo-provider/echo/echo-1"

func runKillTest(t *testing.T, size killSize) *killReport {
	start := time.Now()
	h := newHost(t)
	h.installPlugins("echo-provider", "policy-guard", "hello-surfaces")
	bin, err := os.ReadFile(testutil.Binary(t, "examples/xdev-deny-rm"))
	if err != nil {
		t.Fatal(err)
	}
	h.installExtension("xdev-deny-rm", bin) // an xdev extension: one more kind of plugin process
	if size.mcp {
		t.Setenv("REASONIX_MCP_HANDSHAKE_TIMEOUT", "60s")
		node, srv := testutil.Node(t), testutil.MCPServer(t, "server-everything")
		if r := h.run("", "mcp", "add", "ev", "--", node, srv, "stdio"); r.code != 0 {
			t.Fatal(r.stderr)
		}
	}
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	k := &killRun{t: t, h: h, size: size, rng: rand.New(rand.NewPCG(39, seed)),
		rep: &killReport{byPhase: map[killPhase]int{}}, seenFiles: map[string]bool{}}
	for i := 1; k.rep.kills < size.kills; i++ {
		if k.rep.launchFailures > 5 {
			k.rep.fail("gave up: %d launches never started a turn", k.rep.launchFailures)
			break
		}
		k.cycle(i)
	}
	// Last, every message again: a later launch must not have lost an
	// earlier one (a compaction, a rewrite of the file).
	if files := k.relaunch(0); files != nil {
		for _, m := range k.all {
			if !m.failed {
				k.checkMessage(files, m, "at the end: ")
			}
		}
	}
	k.rep.took = time.Since(start)
	return k.rep
}

// cycle is one launch: zero or one whole turn, then a turn the kill cuts
// at a random moment, then the checks after a relaunch.
func (k *killRun) cycle(i int) {
	t, rng := k.t, k.rng
	session := ""
	if len(k.chats) > 0 && rng.IntN(3) > 0 {
		session = k.chats[rng.IntN(len(k.chats))]
	}
	args := []string{"chat", "--headless", "--repl", "--json", "--non-interactive", "--model", killModel}
	if session != "" {
		args = append(args, "--session", session)
	}
	cmd := k.h.command(args...)
	cmd.Env = append(cmd.Env, fmt.Sprintf("ECHO_PROVIDER_DELAY_MS=%d", k.size.delay.Milliseconds()))
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr lockedBuffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	events := make(chan killEvent, 4096)
	exited := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 1<<20), 1<<22)
		for sc.Scan() {
			e := killEvent{at: time.Now()}
			if json.Unmarshal(sc.Bytes(), &e) == nil {
				events <- e
			}
		}
		_, _ = io.Copy(io.Discard, stdout)
		close(events)
		_ = cmd.Wait()
		close(exited)
	}()

	phase := []killPhase{phaseStart, phaseFirstByte, phaseFirstByte, phaseMid, phaseMid, phaseMid, phaseMid, phaseMid, phaseMid, phaseEnd, phaseEnd}[rng.IntN(11)]
	var msgs []*sentMsg
	cur := (*sentMsg)(nil)
	chatID := session
	handle := func(e killEvent) {
		if e.Kind == "turn_failed" || (e.Kind == "error" && e.Error != "") {
			k.rep.fail("kill %d: a turn failed before the kill: %s %s", i, e.Kind, e.Error)
		}
		if cur == nil {
			return
		}
		switch e.Kind {
		case "turn_started":
			cur.started = true
		case "user_message":
			cur.shown = true
			cur.session = e.SessionID
			chatID = e.SessionID
		case "text":
			cur.texts = append(cur.texts, stampedLine{e.at, e.Text})
		case "usage":
			cur.usage = true
		case "turn_done":
			cur.done = true
		}
	}
	// next reads events until match or the launch ends; false when it
	// ended, or nothing came for long (a hung launch is killed as well).
	next := func(match func(killEvent) bool) bool {
		timeout := time.After(soakHungAfter)
		for {
			select {
			case e, ok := <-events:
				if !ok {
					return false
				}
				handle(e)
				if match(e) {
					return true
				}
			case <-timeout:
				return false
			}
		}
	}
	send := func(words int) *sentMsg {
		parts := make([]string, words)
		for w := range parts {
			parts[w] = fmt.Sprintf("k%dm%dw%d", i, len(msgs)+1, w+1)
		}
		m := &sentMsg{kill: i, phase: phase, session: session, text: strings.Join(parts, " "), newChat: session == ""}
		msgs = append(msgs, m)
		cur = m
		_, _ = io.WriteString(stdin, m.text+"\n")
		return m
	}
	kind := func(k string) func(killEvent) bool { return func(e killEvent) bool { return e.Kind == k } }

	ok := true
	if rng.IntN(2) == 0 { // a whole turn first
		send(3)
		ok = next(kind("turn_done"))
	}
	var cut *sentMsg
	if ok {
		// Most replies are short (a kill is cheap); one in four is the
		// longest, killed mid-stream in its last third, past the
		// checkpoint's second.
		long := rng.IntN(4) == 0
		words := 6 + rng.IntN(10)
		if long {
			words = k.size.maxWords
		}
		cut = send(words)
		cut.cut = true
		switch phase {
		case phaseStart:
			ok = next(kind("turn_started"))
		case phaseFirstByte:
			ok = next(kind("user_message"))
		case phaseMid:
			want := 1 + rng.IntN(words) // chunks: "Echo: " and one a word
			if long {
				want = words - rng.IntN(words/3)
			}
			ok = next(func(e killEvent) bool { return e.Kind == "text" && len(cur.texts) >= want })
		case phaseEnd:
			ok = next(kind("turn_done"))
		}
	}
	pid := cmd.Process.Pid
	procs := pluginProcs(pid)
	token := watchdogTokenOf(procs)
	watchdog := childrenWithArg(pid, proc.WatchdogCommand)
	if ok {
		// The random moment within the phase is the test's input, not a
		// wait: up to one chunk's gap after the event that opened it.
		time.Sleep(time.Duration(rng.Int64N(int64(k.size.delay))))
	}
	killedAt := time.Now()
	_ = syscall.Kill(pid, syscall.SIGKILL)
	select {
	case <-exited:
	case <-time.After(soakHungAfter):
		// A plugin holding the killed host's stdout keeps the read open.
		k.rep.fail("kill %d: the killed host's output did not end within %s", i, soakHungAfter)
		_ = stdout.Close()
		<-exited
	}
	// What the host wrote before it died is still in the pipe: read it, so
	// a message it showed counts as sent even if the test read it late.
	for e := range events {
		handle(e)
	}
	if !ok || cut == nil || !cut.started {
		k.rep.launchFailures++
		k.rep.fail("kill %d: the launch never started the turn to cut (phase %s); stderr:\n%s", i, phase, tail(stderr.String(), 800))
	} else {
		k.rep.kills++
		k.rep.byPhase[phase]++
	}
	for _, m := range msgs {
		m.killed = killedAt
		m.session = chatID
	}

	k.survivors(i, phase, procs, token, watchdog, killedAt)

	var sent []*sentMsg
	for _, m := range msgs {
		if m.shown { // a message the host never showed was not sent
			sent = append(sent, m)
		}
	}
	k.rep.sent += len(sent)
	k.all = append(k.all, sent...)
	if session == "" && len(sent) > 0 {
		k.rep.newChats++
	}
	if files := k.relaunch(i); files != nil {
		for _, m := range sent {
			k.checkMessage(files, m, "")
		}
	}
}

// survivors counts what of the killed app lives 2 s after the kill: its
// plugins' groups, every process carrying its watchdog mark (a descendant
// that left its group), and the watchdog itself; then kills them.
func (k *killRun) survivors(i int, phase killPhase, procs map[int]string, token string, watchdog []int, killedAt time.Time) {
	left := waitGone(procs, time.Until(killedAt.Add(2*time.Second)))
	if token != "" {
		left = append(left, procsWithEnv(proc.TokenVar+"="+token)...)
	}
	left = append(left, alive(watchdog)...)
	left = uniq(left)
	if len(left) > 0 {
		k.rep.survivors += len(left)
		desc := describeProcs(left)
		// Slow or stuck: how much longer they live says which.
		later := "gone by then"
		if still := waitGoneOf(left, 8*time.Second); len(still) > 0 {
			later = "still alive: " + describeProcs(still)
		}
		k.rep.fail("kill %d (%s): %d processes alive 2 s after the kill: %s; 10 s after the kill %s", i, phase, len(left), desc, later)
		for _, p := range left {
			_ = syscall.Kill(p, syscall.SIGKILL)
		}
	}
}

// relaunch starts the app again on the same data dir (the store folds in
// what a kill left), asks it for the chat list and reads the files. The
// chats the list must hold are every chat with a sent message.
func (k *killRun) relaunch(i int) *dataFiles {
	r := k.h.run("", "chat", "--headless", "--json", "--non-interactive", "--prompt", "/sessions")
	if r.code != 0 {
		k.rep.fail("kill %d: the relaunch failed (%d): %s", i, r.code, tail(r.stderr, 800))
		return nil
	}
	listed := map[string]bool{}
	for _, line := range strings.Split(r.stdout, "\n") {
		var e killEvent
		if json.Unmarshal([]byte(line), &e) == nil && e.Kind == "sessions" && e.Result != nil {
			for _, s := range e.Result.Sessions {
				listed[s.ID] = true
			}
		}
	}
	files, err := readDataFiles(filepath.Join(k.h.data, "sessions"))
	if err != nil {
		k.t.Fatal(err)
	}
	for _, u := range files.unreadable {
		if !k.seenFiles[u] {
			k.seenFiles[u] = true
			k.rep.unreadable++
			k.rep.fail("kill %d: unreadable file after the relaunch: %s", i, u)
		}
	}
	for _, c := range files.checkpoints {
		if !k.seenFiles[c] {
			k.seenFiles[c] = true
			k.rep.checkpoints++
			k.rep.fail("kill %d: checkpoint %s survived the relaunch", i, c)
		}
	}
	k.rep.temps = len(files.temps)
	// The next launches continue chats that have a file (one that lost
	// its file was reported; --session would refuse it).
	k.chats = k.chats[:0]
	for id := range files.sessions {
		k.chats = append(k.chats, id)
	}
	slices.Sort(k.chats)
	// Every chat the user sent a message in (this launch's too) is listed.
	seen := map[string]bool{}
	for _, m := range k.all {
		if m.shown && !seen[m.session] {
			seen[m.session] = true
			if !listed[m.session] && !k.seenFiles["list "+m.session] {
				k.seenFiles["list "+m.session] = true
				k.rep.missing++
				k.rep.fail("%s: the relaunched app does not list the chat", m)
			}
		}
	}
	return files
}

// checkMessage checks one sent message against the files.
func (k *killRun) checkMessage(files *dataFiles, m *sentMsg, when string) {
	rep := k.rep
	s := files.sessions[m.session]
	if s == nil {
		what := "its chat has no session file"
		if m.newChat {
			what = "the chat begun by the killed launch has no session file"
		}
		k.failMsg(m, &rep.lost, "%s%s: lost: %s", when, m, what)
		return
	}
	u := s.userIndex(m.text)
	note, marked := s.interruptedFor(m.text)
	if u < 0 && !(marked && strings.Contains(note.Input, m.text)) {
		k.failMsg(m, &rep.lost, "%s%s: lost: neither a user message in \"messages\" nor an interrupted note's \"input\" (%d messages, %d notes)",
			when, m, len(s.Messages), len(s.Notes))
		return
	}
	if m.done {
		if got := s.replyAfter(u); u < 0 || got != m.reply() {
			k.failMsg(m, &rep.incomplete, "%s%s: its turn ended before the kill but the saved reply is %q", when, m, truncate(got, 60))
		}
		return
	}
	if !m.cut {
		return
	}
	if m.usage && u >= 0 && s.replyAfter(u) == m.reply() {
		return // the reply was complete and saved before turn_done was emitted
	}
	if !marked {
		k.failMsg(m, &rep.unmarked, "%s%s: the cut turn has no failed note marked interrupted (notes of the turn: %s)", when, m, noteKinds(s, u))
		return
	}
	if !strings.HasPrefix(m.reply(), note.Text) {
		k.failMsg(m, &rep.badText, "%s%s: the interrupted note's text %q is not a prefix of the reply %q", when, m, truncate(note.Text, 60), truncate(m.reply(), 60))
		return
	}
	// How far behind the stream the saved text is: the first chunk it
	// lacks had been read by the test this long before the kill.
	saved, sofar := strings.TrimRight(note.Text, " "), ""
	for _, c := range m.texts {
		sofar += c.text
		if len(strings.TrimRight(sofar, " ")) > len(saved) {
			lag := m.killed.Sub(c.at)
			if lag > rep.maxLag {
				rep.maxLag = lag
			}
			if lag > k.size.ageLimit {
				k.failMsg(m, &rep.stale, "%s%s: the interrupted note's text (%d of %d characters) lacks a chunk streamed %.2f s before the kill",
					when, m, len(note.Text), len(m.reply()), lag.Seconds())
			}
			break
		}
	}
}

func noteKinds(s *rawSession, u int) string {
	if u < 0 {
		return "the message is not in messages"
	}
	var kinds []string
	for _, n := range s.turnNotes(u) {
		k := n.Kind
		if n.End != nil {
			k += "/" + n.End.Outcome
		}
		kinds = append(kinds, k)
	}
	if len(kinds) == 0 {
		return "none"
	}
	return strings.Join(kinds, ", ")
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}

func checkKillTest(t *testing.T, rep *killReport) {
	t.Helper()
	t.Log(rep)
	for i, f := range rep.failures {
		if i == 40 {
			t.Logf("… and %d more", len(rep.failures)-40)
			break
		}
		t.Log(f)
	}
	if rep.bad() > 0 || rep.kills == 0 {
		t.Fatalf("kill test failed: %s", rep)
	}
}

// killsFromEnv is REASONIX_KILLS when it is a number, else n.
func killsFromEnv(n int) int {
	if v, err := strconv.Atoi(os.Getenv("REASONIX_KILLS")); err == nil && v > 0 {
		return v
	}
	return n
}

// TestKillHeadless is the kill test in `make test`: 30 kills (REASONIX_KILLS
// for more), about a minute on a busy 2-core machine.
func TestKillHeadless(t *testing.T) {
	if testing.Short() {
		t.Skip("about a minute of killed launches")
	}
	checkKillTest(t, runKillTest(t, killSize{kills: killsFromEnv(30), delay: 30 * time.Millisecond, maxWords: 50, ageLimit: 1500 * time.Millisecond}))
}

// TestKillHeadlessSoak is the full size (REASONIX_KILL_SOAK=1): 200 kills by
// default, longer replies (the longest 3 s of streaming), the checkpoint's age
// held to 1.25 s, and an MCP server beside the plugins.
func TestKillHeadlessSoak(t *testing.T) {
	if os.Getenv("REASONIX_KILL_SOAK") == "" {
		t.Skip("the full kill soak runs with REASONIX_KILL_SOAK=1")
	}
	checkKillTest(t, runKillTest(t, killSize{kills: killsFromEnv(200), delay: 50 * time.Millisecond, maxWords: 60, ageLimit: 1250 * time.Millisecond, mcp: true}))
}

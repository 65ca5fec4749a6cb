package chat

import (
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"fyne.io/fyne/v2"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/core/tools/todo"
	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/uikit"
	"github.com/reasonix/reasonix-desktop/internal/plugins/providers"
	"github.com/reasonix/reasonix-desktop/protocol"
)

type itemKind int

const (
	itemUser itemKind = iota
	itemAssistant
	itemTool
	itemNotice
)

// Approval is a tool call waiting for the user. The core goroutine that
// asked blocks on ch; the card's buttons answer once.
type Approval struct {
	req  agent.ApprovalRequest
	ch   chan agent.Approval
	once sync.Once
}

// Answer answers the approval; only the first answer counts (any goroutine).
func (a *Approval) Answer(x agent.Approval) {
	a.once.Do(func() { a.ch <- x })
}

// Transcript is the chat view. Core goroutines write to the item model
// under mu and kick the throttle; the UI goroutine syncs its rows from the
// model at most once per uikit.FrameInterval and the virtual list shows the rows
// in view.
type Transcript struct {
	d         *env
	th        *uikit.Throttle
	frames    atomic.Int64 // rendered syncs (benchmark, --stats)
	syncNanos atomic.Int64 // time spent rendering (benchmark, --stats)
	maxNanos  atomic.Int64 // the slowest sync
	clock     frameClock
	liveRows  atomic.Int64 // rows with widgets after the last frame

	mu    sync.Mutex
	epoch uint64 // bumped by reset
	turn  uint64 // bumped by every turn start; new items carry it
	items []*item
	open  *item // the assistant message deltas go to; nil starts a new one
	// touched are the indexes of items changed since the last frame.
	touched []int
	// versions of the last answer (Regenerate's); total 0: none.
	versions versions
	// pendingImages label the images of the next user message (ExpectImages).
	pendingImages []string
	// todos is the chat's todo list (todos.go), todosRev bumped per change.
	todos    []todo.Item
	todosRev uint64

	view *transcriptView // UI goroutine only
}

func newTranscript(d *env) *Transcript {
	t := &Transcript{d: d}
	d.transcript = t
	t.th = uikit.NewThrottle(d.b, uikit.FrameInterval, t.sync)
	t.view = newTranscriptView(t)
	return t
}

// Object is the transcript's canvas object (UI goroutine).
func (t *Transcript) Object() fyne.CanvasObject { return t.view.obj }

// --- model side: any goroutine ---

func (t *Transcript) add(it *item) {
	it.turn, it.index = t.turn, len(t.items)
	t.items = append(t.items, it)
	it.rev++
}

// touch records a change of an item (mu held): the next frame updates only
// the items touched since the last one, however long the session.
func (t *Transcript) touch(it *item) {
	it.rev++
	t.touched = append(t.touched, it.index)
}

// AddUser adds the user's message.
func (t *Transcript) AddUser(text string) {
	t.mu.Lock()
	it := &item{kind: itemUser, images: t.pendingImages}
	t.pendingImages = nil
	it.text.WriteString(text)
	t.add(it)
	t.open = nil
	t.versions = versions{} // a new question: its answer has no versions yet
	t.mu.Unlock()
	t.d.b.Post(func() { t.view.list.jumpToEnd() }) // the user's own message is always shown
	t.th.Kick()
}

// AppendDelta adds streamed text or reasoning to the open assistant message.
func (t *Transcript) AppendDelta(s string, reasoning bool) {
	t.mu.Lock()
	it := t.openMessage()
	it.clean = false // streamed: redacted whole at each snapshot
	if reasoning {
		it.reasoning.WriteString(s)
	} else {
		it.text.WriteString(s)
	}
	t.touch(it)
	t.mu.Unlock()
	t.th.Kick()
}

// openMessage is the assistant message deltas go to (mu held).
func (t *Transcript) openMessage() *item {
	if t.open == nil {
		t.open = &item{kind: itemAssistant}
		t.add(t.open)
	}
	return t.open
}

// ToolCall creates or updates a tool card. Text after a card starts a new
// message, so the transcript reads in order.
func (t *Transcript) ToolCall(c agent.ToolCall) {
	t.mu.Lock()
	it := t.findCall(c.ID)
	if it == nil {
		it = &item{kind: itemTool}
		t.add(it)
	}
	it.setCall(c)
	t.touch(it)
	t.open = nil
	t.mu.Unlock()
	t.th.Kick()
}

// findCall finds the current turn's card for a call id. Ids repeat across
// turns (the echo model always says call_1; providers that send none get
// call_<index>), so a card is keyed by (turn, call) and an earlier turn's
// card is never reused.
func (t *Transcript) findCall(id string) *item {
	for i := len(t.items) - 1; i >= 0; i-- {
		it := t.items[i]
		if it.turn != t.turn {
			return nil
		}
		if it.kind == itemTool && it.call != nil && it.call.ID == id {
			return it
		}
	}
	return nil
}

// lastInTurn is the current turn's last assistant message (mu held).
func (t *Transcript) lastInTurn() *item {
	for i := len(t.items) - 1; i >= 0 && t.items[i].turn == t.turn; i-- {
		if t.items[i].kind == itemAssistant {
			return t.items[i]
		}
	}
	return nil
}

// EndMessage closes the open assistant message (turn boundaries).
func (t *Transcript) EndMessage() {
	t.mu.Lock()
	t.open = nil
	t.mu.Unlock()
}

// BeginTurn starts a new turn: tool cards from now on are new cards.
func (t *Transcript) BeginTurn() {
	t.mu.Lock()
	t.open = nil
	t.turn++
	t.mu.Unlock()
}

// SetUsage records a model call's token use on the message it produced
// (any goroutine); its cost is read from the price table at display.
func (t *Transcript) SetUsage(u protocol.ProviderUsage) { t.SetUsageCost(u, nil) }

// SetUsageCost records a model call's token use and its cost as the core
// priced it (agent.Event.Cost of the EventUsage; nil when it said none) on
// the message it produced (any goroutine). The footer shows the cost in
// the host's currency (CurrencyHost), priced again when that differs.
func (t *Transcript) SetUsageCost(u protocol.ProviderUsage, c *agent.Cost) {
	var cost *agent.Cost
	if c != nil {
		cc := *c
		cost = &cc
	}
	at := agent.Now()
	t.mu.Lock()
	it := t.open
	if it == nil {
		it = t.lastInTurn()
	}
	if it == nil { // usage before any text: the reply is still to come
		it = t.openMessage()
	}
	it.setStatus(func(s *msgStatus) { s.usage, s.cost, s.model, s.at = &u, cost, "", at })
	t.touch(it)
	t.mu.Unlock()
	t.th.Kick()
}

// Stopped marks the turn's reply "Stopped": its partial text stays. A turn
// stopped before any reply gets a quiet notice instead.
func (t *Transcript) Stopped() {
	t.mu.Lock()
	t.markStopped()
	t.open = nil
	t.mu.Unlock()
	t.th.Kick()
}

// markStopped marks the turn's last reply stopped, or adds a "Stopped."
// notice when it had none (mu held).
func (t *Transcript) markStopped() {
	if it := t.lastInTurn(); it != nil {
		it.setStatus(func(s *msgStatus) { s.stopped = true })
		t.touch(it)
		return
	}
	it := &item{kind: itemNotice, level: uikit.NoticeInfo}
	it.text.WriteString(i18n.T("Stopped."))
	it.setStatus(func(s *msgStatus) { s.stopped = true })
	t.add(it)
}

// Failed shows why a turn failed, with a Retry that resends its message.
func (t *Transcript) Failed(reason string) {
	t.mu.Lock()
	it := &item{kind: itemNotice, level: uikit.NoticeError}
	it.text.WriteString(reason)
	retry := t.lastUserText()
	it.setStatus(func(s *msgStatus) { s.retry = retry })
	t.add(it)
	t.open = nil
	t.mu.Unlock()
	t.th.Kick()
}

// lastUserText is the latest user message (mu held).
func (t *Transcript) lastUserText() string {
	for i := len(t.items) - 1; i >= 0; i-- {
		if t.items[i].kind == itemUser {
			return t.items[i].text.String()
		}
	}
	return ""
}

// LastUser is the latest user message (any goroutine).
func (t *Transcript) LastUser() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.lastUserText()
}

// AddNotice adds a notice to the conversation.
func (t *Transcript) AddNotice(text string, level uikit.NoticeLevel) {
	t.mu.Lock()
	it := &item{kind: itemNotice, level: level}
	it.text.WriteString(text)
	t.add(it)
	t.open = nil
	t.mu.Unlock()
	t.th.Kick()
}

// SetApproval shows approval buttons on the call's card (creating the card
// when the core asked before announcing it).
func (t *Transcript) SetApproval(a *Approval) {
	t.mu.Lock()
	it := t.findCall(a.req.CallID)
	if it == nil {
		it = &item{kind: itemTool, call: &agent.ToolCall{ID: a.req.CallID, Name: a.req.Tool,
			Arguments: a.req.Arguments, State: agent.ToolPending}}
		t.add(it)
	}
	it.approval = a
	t.touch(it)
	t.mu.Unlock()
	// The card asking is the newest row: bring it (its diff and its
	// buttons) into view even when the user had scrolled up to read.
	t.d.b.Post(func() { t.view.list.jumpToEnd() })
	t.th.Kick()
}

// ClearApproval takes an answered approval off its card.
func (t *Transcript) ClearApproval(a *Approval) {
	t.mu.Lock()
	for i := len(t.items) - 1; i >= 0; i-- {
		if it := t.items[i]; it.approval == a {
			it.approval = nil
			t.touch(it)
		}
	}
	t.mu.Unlock()
	t.th.Kick()
}

// PendingApproval is the newest approval still waiting, nil for none (any
// goroutine).
func (t *Transcript) PendingApproval() *Approval {
	t.mu.Lock()
	defer t.mu.Unlock()
	for i := len(t.items) - 1; i >= 0 && t.items[i].turn == t.turn; i-- {
		if a := t.items[i].approval; a != nil {
			return a
		}
	}
	return nil
}

// replace empties the transcript and loads msgs and notes in one step
// (another session was opened).
func (t *Transcript) replace(msgs []protocol.ProviderMessage, notes []agent.Note, vs versions) {
	t.mu.Lock()
	t.epoch++
	t.items, t.open, t.touched = nil, nil, nil
	t.load(msgs, notes)
	t.versions = vs
	t.mu.Unlock()
	t.th.Kick()
}

// loadHistory fills an empty transcript from a saved session.
func (t *Transcript) loadHistory(msgs []protocol.ProviderMessage, notes []agent.Note, vs versions) {
	t.mu.Lock()
	if len(t.items) == 0 {
		t.load(msgs, notes)
		t.versions = vs
	}
	t.mu.Unlock()
	t.th.Kick()
}

// history is the state of a load: the current turn's cards by call id,
// and the cards a note settled (their result is the note's, not the tool
// message's).
type history struct {
	calls   map[string]*item
	settled map[*item]bool
}

// load builds the items of saved messages and the notes between them (mu
// held), as the live transcript showed them. It only builds the model: no
// widget exists for a row until it scrolls into view.
func (t *Transcript) load(msgs []protocol.ProviderMessage, notes []agent.Note) {
	h := &history{calls: map[string]*item{}, settled: map[*item]bool{}}
	notes = agent.SortedNotes(notes)
	next := 0
	flush := func(after int) {
		for ; next < len(notes) && notes[next].After <= after; next++ {
			t.loadNote(h, notes[next])
		}
	}
	flush(0)
	for i, m := range msgs {
		switch m.Role {
		case protocol.RoleUser:
			t.turn++ // each saved turn keeps its own cards
			clear(h.calls)
			it := &item{kind: itemUser, images: imageChipLabels(m.Images)}
			it.text.WriteString(m.Content)
			t.add(it)
		case protocol.RoleAssistant:
			if m.Content != "" || m.ReasoningContent != "" {
				it := &item{kind: itemAssistant}
				it.text.WriteString(m.Content)
				it.reasoning.WriteString(m.ReasoningContent)
				it.cleanText()
				t.add(it)
			}
			for _, c := range m.ToolCalls {
				it := &item{kind: itemTool, call: &agent.ToolCall{ID: c.ID, Name: c.Name, Arguments: c.Arguments, State: agent.ToolDone}}
				h.calls[c.ID] = it
				t.add(it)
			}
		case protocol.RoleTool:
			if it := h.calls[m.ToolCallID]; it != nil && !h.settled[it] {
				c := it.toolCall()
				c.Result = m.Content
				it.setCall(c)
			}
		}
		flush(i + 1)
	}
	flush(int(^uint(0) >> 1)) // notes past the end (a file edited by hand)
}

// loadNote adds what a note records (mu held), as the live events did.
func (t *Transcript) loadNote(h *history, n agent.Note) {
	if n.Input != "" { // a message whose turn ended before it was recorded
		t.turn++
		clear(h.calls)
		it := &item{kind: itemUser}
		it.text.WriteString(n.Input)
		t.add(it)
	}
	switch n.Kind {
	case agent.NoteStopped:
		t.addPartial(n)
		t.open = nil
		t.markStopped()
	case agent.NoteFailed:
		if n.End != nil && n.End.Outcome == agent.TurnInterrupted {
			t.loadInterrupted(n)
			return
		}
		it := &item{kind: itemNotice, level: uikit.NoticeError}
		it.text.WriteString(DescribeFailure(n.Model, "", n.Error))
		retry := t.lastUserText()
		it.setStatus(func(s *msgStatus) { s.retry = retry })
		t.add(it)
	case agent.NoteBlocked, agent.NoteDenied, agent.NoteToolFailed:
		if n.Call == nil {
			return
		}
		it := h.calls[n.Call.ID]
		if it == nil {
			it = &item{kind: itemTool}
			h.calls[n.Call.ID] = it
			t.add(it)
		}
		it.setCall(*n.Call)
		h.settled[it] = true
	case agent.NoteUsage:
		if n.Usage == nil {
			return
		}
		u := *n.Usage
		it := t.lastInTurn()
		if it == nil {
			it = &item{kind: itemAssistant}
			t.add(it)
		}
		it.setStatus(func(s *msgStatus) { s.usage, s.cost, s.model, s.at = &u, n.Cost, n.Model, n.At })
	case agent.NoteNotice:
		it := &item{kind: itemNotice, level: uikit.NoticeInfo}
		it.text.WriteString(n.Text)
		t.add(it)
	}
}

// addPartial adds the reply a note kept (a stopped or interrupted turn's
// partial text), nil when it kept none (mu held).
func (t *Transcript) addPartial(n agent.Note) *item {
	if n.Text == "" && n.Reasoning == "" {
		return nil
	}
	it := &item{kind: itemAssistant}
	it.text.WriteString(n.Text)
	it.reasoning.WriteString(n.Reasoning)
	it.cleanText()
	t.add(it)
	return it
}

// loadInterrupted shows a turn the app's end cut short (a kill, a crash):
// not a failure of the model's, so no error. Its partial reply reads as a
// reply, its footer says why it stops there and offers Retry; with no
// reply yet, a quiet notice says it, with Retry (mu held).
func (t *Transcript) loadInterrupted(n agent.Note) {
	retry := t.lastUserText()
	mark := func(s *msgStatus) { s.interrupted, s.retry = true, retry }
	t.open = nil
	if it := t.addPartial(n); it != nil {
		it.setStatus(mark)
		return
	}
	it := &item{kind: itemNotice, level: uikit.NoticeInfo}
	it.text.WriteString(InterruptedText())
	it.setStatus(mark)
	t.add(it)
}

// InterruptedText is what marks a reply the app's end cut short.
func InterruptedText() string {
	return i18n.T("Interrupted — the app closed before this reply finished")
}

// DescribeFailure is how a failed turn reads in the transcript: the
// plugin and model it failed in (displayName, when known, names the
// model) and the reason.
func DescribeFailure(model, displayName, reason string) string {
	// Words first ("the server rejected the API key (HTTP 401)"); the wire
	// codes ("provider_failed (-32000)") are for a bug report, after them.
	words, codes := providers.Explain(errors.New(reason))
	if codes != "" {
		words += "\n" + i18n.T("Details: %s", codes)
	}
	if id, err := providers.ParseModelID(model); err == nil {
		name := id.Model
		if displayName != "" {
			name = displayName
		}
		return i18n.T("The turn failed in plugin %s (model %s): %s", id.Plugin, name, words)
	}
	return i18n.T("The turn failed: %s", words)
}

// --- view side: UI goroutine ---

// sync brings the rows up to date with the model and lets the list bind,
// measure and place the rows in view.
func (t *Transcript) sync() {
	start := time.Now()
	defer func() {
		d := int64(time.Since(start))
		t.syncNanos.Add(d)
		if d > t.maxNanos.Load() {
			t.maxNanos.Store(d)
		}
	}()
	t.view.sync()
	t.frames.Add(1)
	t.clock.frame(len(t.view.rows))
	t.liveRows.Store(int64(len(t.view.list.live)))
}

package desktop

import (
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/internal/host/agent"
	"github.com/reasonix/reasonix-desktop/protocol"
)

// frameInterval is the render budget of the transcript, the panel and the
// status bar: changes are buffered and rendered at most this often (60 Hz,
// one frame every 16.7 ms).
const frameInterval = time.Second / 60

type itemKind int

const (
	itemUser itemKind = iota
	itemAssistant
	itemTool
	itemNotice
)

type noticeLevel int

const (
	noticeInfo noticeLevel = iota
	noticeWarn
	noticeError
)

// item is one transcript entry in the model the core's goroutines write to.
type item struct {
	kind      itemKind
	text      strings.Builder
	reasoning strings.Builder
	call      agent.ToolCall
	approval  *approval
	level     noticeLevel
	turn      uint64 // the turn the item belongs to (tool cards are keyed by turn and call)
	rev       uint64 // bumped on every change
}

// itemSnap is an item as the UI goroutine renders it.
type itemSnap struct {
	kind            itemKind
	text, reasoning string
	call            agent.ToolCall
	approval        *approval
	level           noticeLevel
}

func (it *item) snap() itemSnap {
	return itemSnap{kind: it.kind, text: it.text.String(), reasoning: it.reasoning.String(),
		call: it.call, approval: it.approval, level: it.level}
}

// approval is a tool call waiting for the user. The core goroutine that
// asked blocks on ch; the card's buttons answer once.
type approval struct {
	req  agent.ApprovalRequest
	ch   chan agent.Approval
	once sync.Once
}

func (a *approval) answer(x agent.Approval) {
	a.once.Do(func() { a.ch <- x })
}

// transcript is the chat view. Core goroutines write to the item model
// under mu and kick the throttle; the UI goroutine syncs the widgets from
// the model at most once per frameInterval.
type transcript struct {
	d         *UI
	th        *throttle
	frames    atomic.Int64 // rendered syncs (benchmark, tests)
	syncNanos atomic.Int64 // time spent rendering (benchmark)

	mu    sync.Mutex
	epoch uint64 // bumped by reset
	turn  uint64 // bumped by every turn start; new items carry it
	items []*item
	open  *item // the assistant message deltas go to; nil starts a new one

	// UI goroutine only.
	viewEpoch   uint64
	views       []itemView
	revs        []uint64
	box         *fyne.Container
	scroll      *container.Scroll
	placeholder fyne.CanvasObject
}

type itemView interface {
	object() fyne.CanvasObject
	update(s itemSnap)
}

func newTranscript(d *UI) *transcript {
	t := &transcript{d: d}
	t.th = newThrottle(d.b, frameInterval, t.sync)
	hint := widget.NewLabel("Pick a model in the toolbar, then say hello.\n" +
		"Ctrl+Enter sends · Ctrl+K opens the command palette.")
	hint.Alignment = fyne.TextAlignCenter
	hint.Importance = widget.LowImportance
	t.placeholder = container.NewCenter(hint)
	t.box = container.NewVBox(t.placeholder)
	t.scroll = container.NewVScroll(container.NewPadded(t.box))
	return t
}

func (t *transcript) object() fyne.CanvasObject { return t.scroll }

// --- model side: any goroutine ---

func (t *transcript) add(it *item) {
	it.turn = t.turn
	t.items = append(t.items, it)
	it.rev++
}

func (t *transcript) addUser(text string) {
	t.mu.Lock()
	it := &item{kind: itemUser}
	it.text.WriteString(text)
	t.add(it)
	t.open = nil
	t.mu.Unlock()
	t.th.kick()
}

// appendDelta adds streamed text or reasoning to the open assistant message.
func (t *transcript) appendDelta(s string, reasoning bool) {
	t.mu.Lock()
	it := t.open
	if it == nil {
		it = &item{kind: itemAssistant}
		t.add(it)
		t.open = it
	}
	if reasoning {
		it.reasoning.WriteString(s)
	} else {
		it.text.WriteString(s)
	}
	it.rev++
	t.mu.Unlock()
	t.th.kick()
}

// toolCall creates or updates a tool card. Text after a card starts a new
// message, so the transcript reads in order.
func (t *transcript) toolCall(c agent.ToolCall) {
	t.mu.Lock()
	it := t.findCall(c.ID)
	if it == nil {
		it = &item{kind: itemTool}
		t.add(it)
	}
	it.call = c
	it.rev++
	t.open = nil
	t.mu.Unlock()
	t.th.kick()
}

// findCall finds the current turn's card for a call id. Ids repeat across
// turns (the echo model always says call_1; providers that send none get
// call_<index>), so a card is keyed by (turn, call) and an earlier turn's
// card is never reused.
func (t *transcript) findCall(id string) *item {
	for i := len(t.items) - 1; i >= 0; i-- {
		it := t.items[i]
		if it.turn != t.turn {
			return nil
		}
		if it.kind == itemTool && it.call.ID == id {
			return it
		}
	}
	return nil
}

// endMessage closes the open assistant message (turn boundaries).
func (t *transcript) endMessage() {
	t.mu.Lock()
	t.open = nil
	t.mu.Unlock()
}

// beginTurn starts a new turn: tool cards from now on are new cards.
func (t *transcript) beginTurn() {
	t.mu.Lock()
	t.open = nil
	t.turn++
	t.mu.Unlock()
}

func (t *transcript) addNotice(text string, level noticeLevel) {
	t.mu.Lock()
	it := &item{kind: itemNotice, level: level}
	it.text.WriteString(text)
	t.add(it)
	t.open = nil
	t.mu.Unlock()
	t.th.kick()
}

// setApproval shows approval buttons on the call's card (creating the card
// when the core asked before announcing it).
func (t *transcript) setApproval(a *approval) {
	t.mu.Lock()
	it := t.findCall(a.req.CallID)
	if it == nil {
		it = &item{kind: itemTool, call: agent.ToolCall{ID: a.req.CallID, Name: a.req.Tool,
			Arguments: a.req.Arguments, State: agent.ToolPending}}
		t.add(it)
	}
	it.approval = a
	it.rev++
	t.mu.Unlock()
	t.th.kick()
}

func (t *transcript) clearApproval(a *approval) {
	t.mu.Lock()
	for _, it := range t.items {
		if it.approval == a {
			it.approval = nil
			it.rev++
		}
	}
	t.mu.Unlock()
	t.th.kick()
}

// reset empties the transcript (new or loaded session).
func (t *transcript) reset() {
	t.mu.Lock()
	t.epoch++
	t.items, t.open = nil, nil
	t.mu.Unlock()
	t.th.kick()
}

// loadHistory fills an empty transcript from saved messages.
func (t *transcript) loadHistory(msgs []protocol.ProviderMessage) {
	t.mu.Lock()
	if len(t.items) > 0 {
		t.mu.Unlock()
		return
	}
	calls := map[string]*item{}
	for _, m := range msgs {
		switch m.Role {
		case protocol.RoleUser:
			t.turn++ // each saved turn keeps its own cards
			clear(calls)
			it := &item{kind: itemUser}
			it.text.WriteString(m.Content)
			t.add(it)
		case protocol.RoleAssistant:
			if m.Content != "" || m.ReasoningContent != "" {
				it := &item{kind: itemAssistant}
				it.text.WriteString(m.Content)
				it.reasoning.WriteString(m.ReasoningContent)
				t.add(it)
			}
			for _, c := range m.ToolCalls {
				it := &item{kind: itemTool, call: agent.ToolCall{ID: c.ID, Name: c.Name, Arguments: c.Arguments, State: agent.ToolDone}}
				calls[c.ID] = it
				t.add(it)
			}
		case protocol.RoleTool:
			if it := calls[m.ToolCallID]; it != nil {
				it.call.Result = m.Content
			}
		}
	}
	t.mu.Unlock()
	t.th.kick()
}

// --- view side: UI goroutine ---

// sync brings the widgets up to date with the model: new items get a view,
// changed items are re-rendered (a message's markdown is re-parsed whole).
func (t *transcript) sync() {
	start := time.Now()
	defer func() { t.syncNanos.Add(int64(time.Since(start))) }()
	type change struct {
		i    int
		snap itemSnap
		rev  uint64
	}
	t.mu.Lock()
	epoch := t.epoch
	fresh := epoch != t.viewEpoch
	var changes []change
	for i, it := range t.items {
		if fresh || i >= len(t.revs) || t.revs[i] != it.rev {
			changes = append(changes, change{i, it.snap(), it.rev})
		}
	}
	count := len(t.items)
	t.mu.Unlock()

	if fresh {
		t.views, t.revs, t.viewEpoch = nil, nil, epoch
		t.box.Objects = nil
	}
	follow := t.atBottom()
	for _, c := range changes {
		if c.i >= len(t.views) {
			v := t.newView(c.snap.kind)
			t.views = append(t.views, v)
			t.revs = append(t.revs, 0)
			t.box.Add(v.object())
		}
		t.views[c.i].update(c.snap)
		t.revs[c.i] = c.rev
	}
	if count == 0 && len(t.box.Objects) == 0 {
		t.box.Add(t.placeholder)
	} else if count > 0 && len(t.box.Objects) > count {
		t.box.Remove(t.placeholder)
	}
	if fresh || len(changes) > 0 {
		// Re-lay out without re-rendering: a Refresh of the box or the
		// scroller would re-render every message.
		fitScroll(t.scroll)
		t.box.Layout.Layout(t.box.Objects, t.box.Size())
		if follow {
			t.scroll.ScrollToBottom()
		}
	}
	t.frames.Add(1)
}

// fitScroll sizes a vertical scroller's content to its new minimum (a
// container's own Refresh or Add lays out only itself, not its parents).
func fitScroll(s *container.Scroll) {
	min, view := s.Content.MinSize(), s.Size()
	s.Content.Resize(fyne.NewSize(max(min.Width, view.Width), max(min.Height, view.Height)))
}

// atBottom reports whether the user is reading the end of the transcript
// (then new content keeps it scrolled to the end).
func (t *transcript) atBottom() bool {
	content := t.scroll.Content.MinSize().Height
	return t.scroll.Offset.Y+t.scroll.Size().Height >= content-40
}

func (t *transcript) newView(k itemKind) itemView {
	switch k {
	case itemUser:
		return newUserView(t.d)
	case itemTool:
		return newToolView(t.d)
	case itemNotice:
		return newNoticeView()
	}
	return newAssistantView(t.d)
}

package chat

import (
	"strings"
	"time"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/uikit"
	"github.com/reasonix/reasonix-desktop/protocol"
)

// The transcript's model: its items, and the snapshots of them the UI
// goroutine renders.

// item is one transcript entry in the model the core's goroutines write to.
// A chat may hold 50,000 of them: an item is plain data, its text the
// session's own strings (not copies), its rarely set parts behind pointers.
// What call and status point to is never changed in place: the UI's
// snapshots share it without the lock (setCall, setStatus copy).
type item struct {
	kind      itemKind
	text      textBuf
	reasoning textBuf
	call      *agent.ToolCall // a tool card's call, nil for other kinds
	approval  *Approval
	level     uikit.NoticeLevel
	status    *msgStatus // nil: nothing said
	turn      uint64     // the turn the item belongs to (tool cards are keyed by turn and call)
	index     int        // its place in the transcript
	rev       uint64     // bumped on every change
	images    []string   // a user message's image chips (attachchips.go)
	// clean: the text was redacted once already (a saved message, which
	// never grows); a streamed one is redacted whole at every snapshot.
	clean bool
}

// textBuf is a message's text: a saved one is the session's string as it
// is; one that streams in grows in a builder (the first append copies).
type textBuf struct {
	s string
	b *strings.Builder
}

func (t *textBuf) String() string { return t.s }

func (t *textBuf) Len() int { return len(t.s) }

func (t *textBuf) Reset() { t.s, t.b = "", nil }

// WriteString appends x: the first write of an empty text keeps x itself.
func (t *textBuf) WriteString(x string) {
	switch {
	case x == "":
		return
	case t.s == "" && t.b == nil:
		t.s = x
		return
	case t.b == nil:
		t.b = &strings.Builder{}
		t.b.WriteString(t.s)
	}
	t.b.WriteString(x)
	t.s = t.b.String() // shares the builder's bytes, which later writes never change
}

// noCall and noStatus are what a snapshot shows for an item without a call
// or a status (read only).
var (
	noCall   agent.ToolCall
	noStatus msgStatus
)

// setCall gives the item a copy of c (mu held).
func (it *item) setCall(c agent.ToolCall) { it.call = &c }

// toolCall is the item's call (a zero one when it has none; mu held).
func (it *item) toolCall() agent.ToolCall {
	if it.call == nil {
		return agent.ToolCall{}
	}
	return *it.call
}

// setStatus changes a copy of the item's status (mu held).
func (it *item) setStatus(change func(*msgStatus)) {
	var s msgStatus
	if it.status != nil {
		s = *it.status
	}
	change(&s)
	it.status = &s
}

// msgStatus is what a message says beside its text: how its turn ended,
// its token use, what Retry resends.
type msgStatus struct {
	stopped bool
	// interrupted: the app ended while the reply streamed (a kill); the
	// reply is what was saved of it, retry its question.
	interrupted bool
	usage       *protocol.ProviderUsage
	retry       string // a failed turn's user text (a notice's Retry button)
	// cost is the reply's cost as the core priced it when its usage came
	// (nil: not told); model and at are what it is priced at again when
	// the user wants another currency ("" model: the current one).
	cost  *agent.Cost
	model string
	at    time.Time
}

// itemSnap is an item as the UI goroutine renders it. Its call and status
// are never nil (noCall, noStatus) and never written through.
type itemSnap struct {
	kind            itemKind
	text, reasoning string
	call            *agent.ToolCall
	approval        *Approval
	level           uikit.NoticeLevel
	status          *msgStatus
	images          []string
}

func (it *item) snap() itemSnap {
	text, reasoning := it.text.String(), it.reasoning.String()
	if it.kind == itemAssistant && !it.clean {
		// The model's words come from a provider plugin: redacted whole at
		// every render, so a secret split over two stream chunks is masked
		// like one sent in one piece.
		text, reasoning = redact.String(text), redact.String(reasoning)
	}
	s := itemSnap{kind: it.kind, text: text, reasoning: reasoning,
		call: it.call, approval: it.approval, level: it.level, status: it.status, images: it.images}
	if s.call == nil {
		s.call = &noCall
	}
	if s.status == nil {
		s.status = &noStatus
	}
	return s
}

// cleanText redacts a saved assistant message's text once, when it is
// loaded (mu held): its snapshots then share the session's strings.
func (it *item) cleanText() {
	if it.kind == itemAssistant {
		it.text.s, it.reasoning.s = redact.String(it.text.s), redact.String(it.reasoning.s)
		it.clean = true
	}
}

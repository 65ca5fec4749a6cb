package agent

import (
	"context"
	"errors"
	"strings"

	"github.com/reasonix/reasonix-desktop/protocol"
)

// CompactionGuidance asks the model for the summary that replaces history.
const CompactionGuidance = "Summarise the conversation so far for your own later use: the user's goals, " +
	"decisions made, files touched and open questions. Be concise and factual."

// compactAt is the share of the context window that triggers compaction.
const compactAt = 0.8

// estimateTokens is a cheap, deliberately rough estimate: four characters
// a token.
func estimateTokens(system string, ms []protocol.ProviderMessage) int64 {
	n := len(system)
	for _, m := range ms {
		n += len(m.Content) + len(m.ReasoningContent)
		for _, c := range m.ToolCalls {
			n += len(c.Name) + len(c.Arguments)
		}
	}
	return int64(n / 4)
}

// Compaction is what a compaction changed: what the model is sent, never
// what the user wrote and read. The saved messages stay whole (and the
// chat's title with them); the model is sent the summary in place of the
// first Upto messages (Session.ForModel).
type Compaction struct {
	// Upto is how many leading messages the summary stands for.
	Upto int `json:"upto"`
	// Summary is the model's summary of them (or the compaction owner's).
	Summary string `json:"summary"`
}

// ForModel is the history as the model is sent it: after a compaction, the
// summary and its acknowledgement in place of the messages it summarised.
func (s *Session) ForModel() []protocol.ProviderMessage {
	k := s.Compacted
	if k == nil || k.Upto <= 0 || k.Upto > len(s.Messages) {
		return s.Messages
	}
	out := make([]protocol.ProviderMessage, 0, len(s.Messages)-k.Upto+2)
	out = append(out, protocol.ProviderMessage{Role: protocol.RoleUser, Content: summaryPrefix + k.Summary},
		protocol.ProviderMessage{Role: protocol.RoleAssistant, Content: "Understood."})
	return append(out, s.Messages[k.Upto:]...)
}

// forgetCompactionFrom drops a compaction that summarised message i or
// later, once the messages from i on are gone (a rewind, a regenerate).
func (s *Session) forgetCompactionFrom(i int) {
	if s.Compacted != nil && s.Compacted.Upto > i {
		s.Compacted = nil
	}
}

// maybeCompact summarises older history when the prompt estimate passes
// 80 % of the model's context window: compaction.prepare, a summary by the
// model, compaction.complete (where the compaction slot owner may replace
// the summary). The current turn's messages are kept as they are, and so
// are the saved ones: only what the next requests send changes.
func (c *Core) maybeCompact(ctx context.Context, ts *turnState, system string) error {
	window := ts.info.ContextWindow
	s := c.Session()
	history := s.ForModel()
	if window <= 0 || float64(estimateTokens(system, history)) <= compactAt*float64(window) {
		return nil
	}
	offset := 0 // history's index i is message i+offset
	if len(history) != len(s.Messages) {
		offset = s.Compacted.Upto - 2
	}
	keepFrom := len(history) - 1
	for keepFrom > 0 && history[keepFrom].Role != protocol.RoleUser {
		keepFrom--
	}
	older := history[:keepFrom]
	if len(older) == 0 {
		return nil // only the current turn: nothing to compact
	}
	var prep protocol.CompactionPreparePayload
	_, err := c.run(ctx, ts, protocol.HookCompactionPrepare, &protocol.CompactionPreparePayload{Messages: older, Guidance: c.pkgPreCompact(ctx, CompactionGuidance)}, &prep)
	var blocked *BlockedError
	if errors.As(err, &blocked) {
		c.notice("compaction skipped: " + blocked.Error())
		return nil
	}
	if err != nil {
		return err
	}
	cp := ts.cp
	ts.cp = nil // the summary streaming is not the reply
	defer func() { ts.cp = cp }()
	msgs := append([]protocol.ProviderMessage{}, prep.Messages...)
	msgs = append(msgs, protocol.ProviderMessage{Role: protocol.RoleUser, Content: prep.Guidance})
	summary, err := c.stream(ctx, ts, protocol.ProviderRequest{Messages: msgs, Tools: []protocol.ProviderToolSchema{}}, func(Event) {})
	if err != nil {
		return err
	}
	text := strings.TrimSpace(summary.Text)
	if text == "" {
		text = "(the model returned an empty summary)"
	}
	var done protocol.CompactionCompletePayload
	if _, err := c.run(ctx, ts, protocol.HookCompactionComplete, &protocol.CompactionCompletePayload{Summary: text}, &done); err != nil {
		if errors.As(err, &blocked) {
			c.notice("compaction discarded: " + blocked.Error())
			return nil
		}
		return err
	}
	c.mu.Lock()
	c.session.Compacted = &Compaction{Upto: keepFrom + offset, Summary: done.Summary}
	c.mu.Unlock()
	c.addNote(Note{Kind: NoteNotice, Text: CompactedNotice})
	c.fe.Emit(Event{Kind: EventCompacted, Text: done.Summary})
	return nil
}

// CompactedNotice is the transcript's notice of a compaction (saved as a
// NoteNotice, so a reopened chat shows it too).
const CompactedNotice = "Earlier conversation was compacted to fit the model's context window."

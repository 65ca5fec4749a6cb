package mcp

import (
	"context"
	"fmt"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// The bounds on a server's elicitations. A server may ask the user
// something while a tool call runs (elicitation/create); nothing in the
// protocol stops it asking again the moment it is answered, so one call
// could keep the user answering forms for ever. Beyond the bounds the
// host declines without asking and says so once.
const (
	// ElicitPerCall is how many elicitations one tool call may ask.
	ElicitPerCall = 3
	// ElicitPerMinute is how many elicitations one server may ask in any
	// minute, in calls or out of them.
	ElicitPerMinute = 10
)

// elicitWindow is the span ElicitPerMinute counts over.
const elicitWindow = time.Minute

// elicitGate counts one server's elicitations. One a call's result asks
// for (the protocol's multi-round-trip way) is fulfilled within the call,
// whose context names it, and is charged to it. One the server sends as a
// request of its own (older protocol versions) names no call: it is
// charged to the oldest call in flight that has some of its allowance
// left; with one call at a time (the agent's way) that is the call itself,
// and with several the total never exceeds ElicitPerCall times the calls
// in flight.
type elicitGate struct {
	perCall, perMinute int

	mu       sync.Mutex
	recent   []time.Time // elicitations asked in the last window, oldest first
	calls    []*callElicits
	noticeAt time.Time // when a decline outside any call was last reported
}

// callElicits is one call's share: how many it asked and how many were
// declined, and why.
type callElicits struct {
	asked, declined int
	why             string
}

func newElicitGate(perCall, perMinute int) *elicitGate {
	if perCall <= 0 {
		perCall = ElicitPerCall
	}
	if perMinute <= 0 {
		perMinute = ElicitPerMinute
	}
	return &elicitGate{perCall: perCall, perMinute: perMinute}
}

// begin registers a call in flight; end takes it off.
func (g *elicitGate) begin() *callElicits {
	c := &callElicits{}
	g.mu.Lock()
	g.calls = append(g.calls, c)
	g.mu.Unlock()
	return c
}

func (g *elicitGate) end(c *callElicits) (declined int, why string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	for i, o := range g.calls {
		if o == c {
			g.calls = append(g.calls[:i], g.calls[i+1:]...)
			break
		}
	}
	return c.declined, c.why
}

// callKey carries a call's *callElicits in the context of the call, which
// an elicitation fulfilled within the call is handled with.
type callKey struct{}

// admit reports whether one more elicitation, at now, may be asked; own
// is the call it was asked within, when known. When it may not, notice is
// true for the first decline outside any call in a window (a call's
// declines are reported when it ends).
func (g *elicitGate) admit(now time.Time, own *callElicits) (ok, notice bool, why string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	cut := 0
	for cut < len(g.recent) && now.Sub(g.recent[cut]) >= elicitWindow {
		cut++
	}
	g.recent = g.recent[cut:]
	var call *callElicits
	for _, c := range g.calls {
		if c.asked < g.perCall && (own == nil || c == own) {
			call = c
			break
		}
	}
	switch {
	case own != nil && call == nil:
		why = fmt.Sprintf("at most %d per tool call", g.perCall)
		call = own
	case len(g.calls) > 0 && call == nil:
		why = fmt.Sprintf("at most %d per tool call", g.perCall)
		call = g.calls[0]
	case len(g.recent) >= g.perMinute:
		why = fmt.Sprintf("at most %d per minute", g.perMinute)
	default:
		g.recent = append(g.recent, now)
		if call != nil {
			call.asked++
		}
		return true, false, ""
	}
	if call != nil {
		call.declined++
		if call.why == "" {
			call.why = why
		}
		return false, false, why
	}
	if g.noticeAt.IsZero() || now.Sub(g.noticeAt) >= elicitWindow {
		g.noticeAt = now
		return false, true, why
	}
	return false, false, why
}

// declinedNotice is the line a call's result ends with when some of its
// elicitations were declined unasked.
func declinedNotice(server string, n int, why string) string {
	return fmt.Sprintf("[reasonix-desktop declined %d elicitation request(s) from MCP server %s without asking the user: %s]", n, server, why)
}

func (s *server) elicit(ctx context.Context, req *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
	own, _ := ctx.Value(callKey{}).(*callElicits)
	ok, notice, why := s.elicits.admit(time.Now(), own)
	if !ok {
		if notice {
			msg := fmt.Sprintf("MCP server %s asks too often: its elicitations are declined without asking (%s)", s.cfg.Name, why)
			s.m.log.Warn("mcp elicitations declined", "server", s.cfg.Name, "why", why)
			if s.m.opts.Notice != nil {
				s.m.opts.Notice(msg)
			}
		}
		return &sdk.ElicitResult{Action: "decline"}, nil
	}
	if s.m.opts.Elicit == nil {
		return &sdk.ElicitResult{Action: "decline"}, nil
	}
	res, err := s.m.opts.Elicit.Elicit(ctx, s.cfg.Name, req.Params)
	if err != nil {
		return nil, fmt.Errorf("elicitation for mcp server %s: %w", s.cfg.Name, err)
	}
	if res != nil && res.Action == "accept" && res.Content == nil {
		// Accepted with nothing filled in: the SDK completes a non-nil
		// content with the schema's defaults (SEP-1034), and leaves a nil
		// one as it is, so the server would get none of them.
		res.Content = map[string]any{}
	}
	return res, nil
}

// Command reasonixpeer is a conformance peer written the way a plugin author
// using the real Reasonix host would see the wire: plain bufio + encoding/json,
// no sdk/ and no protocol/ of this project, its own payload structs taken from
// the Reasonix host's dispatch DTOs, decoded with unknown fields rejected.
//
// It answers the handshake, every extension/intercept and extension/event,
// pages externalized payloads through host/content/read, and logs one line
// per thing it saw to PEER_LOG:
//
//	recv <frame>                    every frame, exactly as read (PEER_RECORD=1)
//	ok intercept|event <point>      a payload that decoded into the real shape
//	bad intercept|event <point> <why>
//
// Environment:
//
//	PEER_LOG        the log file (appended)
//	PEER_SUBSCRIBE  comma-separated points to subscribe to
//	PEER_REPLACES   comma-separated slots to own
//	PEER_REPLACE    JSON object point → replacement value to answer with
//	PEER_PROVIDER   "1": serve provider plugin/<name>/peer with model m1,
//	                streaming a fixed script (text, reasoning, tool call
//	                start, args deltas without toolCall, the call, usage)
//
// At tool.before it blocks every call of the tool named by PEER_BLOCK_TOOL
// (an MCP tool, say) and run_command calls whose command contains "rm -rf",
// reading the arguments from their text form, as a Reasonix policy plugin does.
package main

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// ---- the real host's payload DTOs (Reasonix dispatch package) ----

type message struct {
	Role               string     `json:"role,omitempty"`
	Content            string     `json:"content,omitempty"`
	ReasoningContent   string     `json:"reasoning_content,omitempty"`
	ReasoningSignature string     `json:"reasoning_signature,omitempty"`
	ToolCalls          []toolCall `json:"tool_calls,omitempty"`
	ToolCallID         string     `json:"tool_call_id,omitempty"`
	Name               string     `json:"name,omitempty"`
	Images             []string   `json:"images,omitempty"`
}

type toolCall struct {
	ID               string `json:"id"`
	Name             string `json:"name"`
	Arguments        string `json:"arguments"`
	ThoughtSignature string `json:"thought_signature,omitempty"`
}

type toolSchema struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters"`
}

type request struct {
	Messages       []message    `json:"messages"`
	Tools          []toolSchema `json:"tools"`
	Temperature    *float64     `json:"temperature,omitempty"`
	MaxTokens      int64        `json:"maxTokens"`
	ResponseFormat *struct {
		Type string `json:"type"`
	} `json:"responseFormat,omitempty"`
}

type usage struct {
	PromptTokens     int64  `json:"promptTokens"`
	CompletionTokens int64  `json:"completionTokens"`
	TotalTokens      int64  `json:"totalTokens"`
	ReasoningTokens  int64  `json:"reasoningTokens"`
	CacheHitTokens   int64  `json:"cacheHitTokens"`
	CacheMissTokens  int64  `json:"cacheMissTokens"`
	FinishReason     string `json:"finishReason,omitempty"`
}

type inputPayload struct {
	Text string `json:"text,omitempty"`
}
type agentStartPayload struct {
	Model     string `json:"model,omitempty"`
	ToolCount int    `json:"toolCount,omitempty"`
	SessionID string `json:"sessionId,omitempty"`
}
type systemPromptPayload struct {
	Prompt        string `json:"prompt,omitempty"`
	WorkspaceRoot string `json:"workspaceRoot,omitempty"`
}
type contextPayload struct {
	Messages []message `json:"messages,omitempty"`
}
type providerRequestPayload struct {
	Request request `json:"request"`
}
type providerResponsePayload struct {
	Text      string     `json:"text,omitempty"`
	Reasoning string     `json:"reasoning,omitempty"`
	Signature string     `json:"signature,omitempty"`
	Calls     []toolCall `json:"calls,omitempty"`
	Usage     *usage     `json:"usage,omitempty"`
}
type toolBeforePayload struct {
	Name      string `json:"name,omitempty"`
	Arguments string `json:"arguments,omitempty"`
}
type toolAfterPayload struct {
	Name      string `json:"name,omitempty"`
	Arguments string `json:"arguments,omitempty"`
	Result    string `json:"result,omitempty"`
	IsError   bool   `json:"isError,omitempty"`
}
type permissionPayload struct {
	Name         string `json:"name,omitempty"`
	Arguments    string `json:"arguments,omitempty"`
	ReadOnly     bool   `json:"readOnly,omitempty"`
	HostDecision string `json:"hostDecision,omitempty"`
}
type compactionPreparePayload struct {
	Messages []message `json:"messages,omitempty"`
	Guidance string    `json:"guidance,omitempty"`
}
type compactionCompletePayload struct {
	Summary string `json:"summary,omitempty"`
}
type sessionPayload struct {
	SessionPath string `json:"sessionPath,omitempty"`
	Phase       string `json:"phase,omitempty"`
}
type frontendPayload struct {
	Kind   string `json:"kind,omitempty"`
	Text   string `json:"text,omitempty"`
	Detail string `json:"detail,omitempty"`
}

// check decodes a payload strictly into its point's struct and applies the
// real host's field rules.
func check(point string, raw []byte) error {
	var v any
	var rule func() error
	switch point {
	case "input.receive":
		p := &inputPayload{}
		v, rule = p, func() error { return nonEmpty("text", p.Text) }
	case "agent.before_start":
		p := &agentStartPayload{}
		v, rule = p, func() error { return nonEmpty("sessionId", p.SessionID) }
	case "system_prompt.build":
		p := &systemPromptPayload{}
		v, rule = p, func() error { return nonEmpty("workspaceRoot", p.WorkspaceRoot) }
	case "context.prepare":
		p := &contextPayload{}
		v, rule = p, func() error { return present(p.Messages != nil, "messages") }
	case "provider.request":
		p := &providerRequestPayload{}
		v, rule = p, func() error {
			return present(p.Request.Messages != nil && p.Request.Tools != nil, "request.messages/tools")
		}
	case "provider.response":
		p := &providerResponsePayload{}
		v, rule = p, func() error {
			for _, c := range p.Calls {
				if c.ID == "" || c.Name == "" {
					return errors.New("a call without id or name")
				}
			}
			return nil
		}
	case "tool.before":
		p := &toolBeforePayload{}
		v, rule = p, func() error { return toolRule(p.Name, p.Arguments) }
	case "tool.after":
		p := &toolAfterPayload{}
		v, rule = p, func() error { return toolRule(p.Name, p.Arguments) }
	case "permission.decision":
		p := &permissionPayload{}
		v, rule = p, func() error {
			if p.HostDecision != "allow" && p.HostDecision != "deny" {
				return fmt.Errorf("hostDecision %q", p.HostDecision)
			}
			return toolRule(p.Name, p.Arguments)
		}
	case "compaction.prepare":
		p := &compactionPreparePayload{}
		v, rule = p, func() error { return present(p.Messages != nil, "messages") }
	case "compaction.complete":
		p := &compactionCompletePayload{}
		v, rule = p, func() error { return nonEmpty("summary", p.Summary) }
	case "session.start", "session.end", "session.load", "session.save", "session.rotate":
		p := &sessionPayload{}
		v, rule = p, func() error {
			if "session."+p.Phase != point {
				return fmt.Errorf("phase %q at %s", p.Phase, point)
			}
			return nil
		}
	case "frontend.event":
		p := &frontendPayload{}
		v, rule = p, func() error { return nonEmpty("kind", p.Kind) }
	default:
		return fmt.Errorf("unknown point %q", point)
	}
	if err := strictDecode(raw, v); err != nil {
		return err
	}
	return rule()
}

func strictDecode(raw []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return errors.New("trailing data")
	}
	return nil
}

func nonEmpty(field, s string) error {
	if s == "" {
		return fmt.Errorf("%s is empty", field)
	}
	return nil
}

func present(ok bool, what string) error {
	if !ok {
		return fmt.Errorf("%s missing", what)
	}
	return nil
}

func toolRule(name, args string) error {
	if name == "" {
		return errors.New("name is empty")
	}
	if args != "" {
		var obj map[string]any
		if err := json.Unmarshal([]byte(args), &obj); err != nil {
			return fmt.Errorf("arguments are not the text of a JSON object: %v", err)
		}
	}
	return nil
}

// ---- the connection ----

type frame struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   json.RawMessage `json:"error,omitempty"`
}

type externalized struct {
	JSONPointer string `json:"jsonPointer"`
	ContentRef  string `json:"contentRef"`
	TotalBytes  int64  `json:"totalBytes"`
	SHA256      string `json:"sha256"`
}

type peer struct {
	in      *bufio.Reader
	out     *os.File
	log     *os.File
	record  bool
	name    string
	nextID  int
	backlog [][]byte
	replace map[string]json.RawMessage
}

func main() {
	p := &peer{in: bufio.NewReaderSize(os.Stdin, 1<<20), out: os.Stdout, record: os.Getenv("PEER_RECORD") == "1",
		name: os.Getenv("REASONIX_PLUGIN_NAME"), replace: map[string]json.RawMessage{}}
	if path := os.Getenv("PEER_LOG"); path != "" {
		f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			fmt.Fprintln(os.Stderr, "reasonixpeer:", err)
			os.Exit(1)
		}
		p.log = f
	}
	if r := os.Getenv("PEER_REPLACE"); r != "" {
		if err := json.Unmarshal([]byte(r), &p.replace); err != nil {
			fmt.Fprintln(os.Stderr, "reasonixpeer: PEER_REPLACE:", err)
			os.Exit(1)
		}
	}
	for {
		line, err := p.next()
		if err != nil {
			return
		}
		if !p.handle(line) {
			return
		}
	}
}

// next returns the next frame: a stashed one first, else a fresh line.
func (p *peer) next() ([]byte, error) {
	if len(p.backlog) > 0 {
		l := p.backlog[0]
		p.backlog = p.backlog[1:]
		return l, nil
	}
	return p.read()
}

func (p *peer) read() ([]byte, error) {
	line, err := p.in.ReadBytes('\n')
	if err != nil {
		return nil, err
	}
	line = bytes.TrimSuffix(line, []byte("\n"))
	if p.record {
		p.logf("recv %s", line)
	}
	return line, nil
}

func (p *peer) logf(format string, args ...any) {
	if p.log != nil {
		fmt.Fprintf(p.log, format+"\n", args...)
	}
}

func (p *peer) write(v any) {
	b, _ := json.Marshal(v)
	p.out.Write(append(b, '\n'))
}

func (p *peer) answer(id json.RawMessage, result any) {
	p.write(map[string]any{"jsonrpc": "2.0", "id": id, "result": result})
}

func split(env string) []string {
	if env == "" {
		return []string{}
	}
	return strings.Split(env, ",")
}

// handle serves one frame; false ends the peer.
func (p *peer) handle(line []byte) bool {
	var f frame
	if err := json.Unmarshal(line, &f); err != nil {
		p.logf("bad frame %v", err)
		return true
	}
	switch f.Method {
	case "extension/initialize":
		result := map[string]any{"name": p.name, "version": "1.0.0", "protocolVersion": "2", "stateSchemaVersion": 0,
			"subscriptions": split(os.Getenv("PEER_SUBSCRIBE")), "replaces": split(os.Getenv("PEER_REPLACES"))}
		if os.Getenv("PEER_PROVIDER") == "1" {
			result["providers"] = []map[string]any{p.descriptor()}
		}
		p.answer(f.ID, result)
	case "extension/initialized":
	case "extension/intercept":
		p.intercept(f)
	case "extension/event":
		var ev struct {
			Event        string          `json:"event"`
			Payload      json.RawMessage `json:"payload"`
			Externalized []externalized  `json:"externalized"`
		}
		if err := strictDecode(f.Params, &ev); err != nil {
			p.logf("bad event ? %v", err)
			return true
		}
		p.verify("event", ev.Event, ev.Payload, ev.Externalized)
	case "extension/provider/catalog":
		p.answer(f.ID, map[string]any{"providers": []map[string]any{p.descriptor()}})
	case "extension/provider/stream/open":
		p.stream(f)
	case "extension/shutdown":
		p.answer(f.ID, map[string]any{"accepted": true})
		return false
	default:
		if len(f.ID) > 0 && f.Method != "" {
			p.write(map[string]any{"jsonrpc": "2.0", "id": f.ID, "error": map[string]any{"code": -32601, "message": "unknown method",
				"data": map[string]any{"reason": "unknown_method", "retryable": false}}})
		}
	}
	return true
}

func (p *peer) descriptor() map[string]any {
	return map[string]any{"ref": "plugin/" + p.name + "/peer", "model": "m1", "displayName": "Peer model",
		"contextWindow": 32768, "tools": true}
}

// verify resolves an externalized payload and checks the shape.
func (p *peer) verify(kind, point string, payload json.RawMessage, ext []externalized) (json.RawMessage, error) {
	if len(ext) > 0 {
		data, err := p.fetch(ext[0])
		if err != nil {
			p.logf("bad %s %s content read: %v", kind, point, err)
			return nil, err
		}
		payload = data
	}
	if err := check(point, payload); err != nil {
		p.logf("bad %s %s %v", kind, point, err)
		return nil, err
	}
	p.logf("ok %s %s", kind, point)
	return payload, nil
}

// fetch pages a content ref through host/content/read, stashing any other
// frame that arrives meanwhile.
func (p *peer) fetch(x externalized) ([]byte, error) {
	var data []byte
	offset := int64(0)
	for {
		p.nextID++
		id := p.nextID
		p.write(map[string]any{"jsonrpc": "2.0", "id": id, "method": "host/content/read",
			"params": map[string]any{"contentRef": x.ContentRef, "offset": offset}})
		var page struct {
			DataBase64 string `json:"dataBase64"`
			NextOffset *int64 `json:"nextOffset"`
			SHA256     string `json:"sha256"`
		}
		for {
			line, err := p.read()
			if err != nil {
				return nil, err
			}
			var f frame
			if json.Unmarshal(line, &f) == nil && f.Method == "" && string(f.ID) == fmt.Sprint(id) {
				if len(f.Error) > 0 {
					return nil, fmt.Errorf("host/content/read: %s", f.Error)
				}
				if err := json.Unmarshal(f.Result, &page); err != nil {
					return nil, err
				}
				break
			}
			p.backlog = append(p.backlog, line)
		}
		chunk, err := base64.StdEncoding.DecodeString(page.DataBase64)
		if err != nil {
			return nil, err
		}
		data = append(data, chunk...)
		if page.NextOffset == nil {
			sum := sha256.Sum256(data)
			if hex.EncodeToString(sum[:]) != x.SHA256 || int64(len(data)) != x.TotalBytes {
				return nil, errors.New("content does not match its descriptor")
			}
			return data, nil
		}
		offset = *page.NextOffset
	}
}

func (p *peer) intercept(f frame) {
	var params struct {
		Event         string          `json:"event"`
		Seq           int64           `json:"seq"`
		Payload       json.RawMessage `json:"payload"`
		TimeoutMillis int64           `json:"timeoutMillis"`
		Externalized  []externalized  `json:"externalized"`
	}
	if err := strictDecode(f.Params, &params); err != nil {
		p.logf("bad intercept ? %v", err)
		p.answer(f.ID, map[string]any{"decision": "continue"})
		return
	}
	payload, err := p.verify("intercept", params.Event, params.Payload, params.Externalized)
	if err != nil {
		// A Reasonix SDK plugin fails the call when its payload does not
		// decode: the host sees an error, never a silent continue.
		p.write(map[string]any{"jsonrpc": "2.0", "id": f.ID, "error": map[string]any{"code": -32602,
			"message": "payload does not decode: " + err.Error(), "data": map[string]any{"reason": "invalid_params", "retryable": false}}})
		return
	}
	if r, ok := p.replace[params.Event]; ok {
		p.answer(f.ID, map[string]any{"decision": "replace", "replacement": r})
		return
	}
	if params.Event == "tool.before" {
		var tb toolBeforePayload
		var args struct {
			Command string `json:"command"`
		}
		_ = strictDecode(payload, &tb)
		if tb.Name == "run_command" && json.Unmarshal([]byte(tb.Arguments), &args) == nil && strings.Contains(args.Command, "rm -rf") {
			p.answer(f.ID, map[string]any{"decision": "block", "reason": "reasonixpeer: rm -rf is not allowed"})
			return
		}
		if block := os.Getenv("PEER_BLOCK_TOOL"); block != "" && tb.Name == block {
			p.answer(f.ID, map[string]any{"decision": "block", "reason": "reasonixpeer: " + block + " is not allowed"})
			return
		}
	}
	p.answer(f.ID, map[string]any{"decision": "continue"})
}

// stream answers stream/open and plays the fixed script, ending with
// stream/end; a tool call is made only when the last user message asks for
// one with "call <tool> <json>".
func (p *peer) stream(f frame) {
	var open struct {
		StreamID string  `json:"streamId"`
		Request  request `json:"request"`
		SeqBase  int64   `json:"seqBase"`
	}
	if err := json.Unmarshal(f.Params, &open); err != nil {
		p.logf("bad stream/open %v", err)
		return
	}
	p.answer(f.ID, map[string]any{"accepted": true})
	seq := open.SeqBase
	send := func(chunk map[string]any) {
		p.write(map[string]any{"jsonrpc": "2.0", "method": "extension/provider/stream/chunk",
			"params": map[string]any{"streamId": open.StreamID, "seq": seq, "chunk": chunk}})
		seq++
	}
	send(map[string]any{"type": "reasoning", "text": "thinking"})
	send(map[string]any{"type": "text", "text": "peer says hi"})
	last := ""
	if n := len(open.Request.Messages); n > 0 && open.Request.Messages[n-1].Role == "user" {
		last = open.Request.Messages[n-1].Content
	}
	if rest, ok := strings.CutPrefix(last, "call "); ok {
		name, args, _ := strings.Cut(rest, " ")
		send(map[string]any{"type": "tool_call_start", "toolCall": map[string]any{"id": "c1", "name": name, "arguments": ""}})
		send(map[string]any{"type": "tool_call_args_delta", "text": args, "argChars": len(args)}) // no toolCall: progress
		send(map[string]any{"type": "tool_call", "toolCall": map[string]any{"id": "c1", "name": name, "arguments": args}})
	}
	send(map[string]any{"type": "usage", "usage": map[string]any{"promptTokens": 10, "completionTokens": 3, "totalTokens": 13,
		"reasoningTokens": 1, "cacheHitTokens": 0, "cacheMissTokens": 10}})
	send(map[string]any{"type": "done"})
	p.write(map[string]any{"jsonrpc": "2.0", "method": "extension/provider/stream/end",
		"params": map[string]any{"streamId": open.StreamID, "lastSeq": seq - 1}})
}

package ndjson

import (
	"encoding/json"
	"unicode/utf8"

	"github.com/reasonix/reasonix-desktop/protocol"
	"github.com/reasonix/reasonix-desktop/protocol/internal/jsonscan"
)

// frameKind classifies one inbound line.
type frameKind uint8

const (
	kindEmpty        frameKind = iota // only whitespace: ignored
	kindParseError                    // not JSON, or not a JSON object: -32700
	kindInvalid                       // valid JSON, bad envelope: -32600
	kindRequest                       // method + integer id
	kindNotification                  // method, no id
	kindResponse                      // result or error, integer id (or null id with error)
)

func (k frameKind) String() string {
	switch k {
	case kindEmpty:
		return "empty"
	case kindParseError, kindInvalid:
		return "invalid"
	case kindRequest:
		return "request"
	case kindNotification:
		return "notification"
	default:
		return "response"
	}
}

// idState tells an absent id from a null, an integer and anything else.
type idState uint8

const (
	idAbsent idState = iota
	idNull
	idValid
	idInvalid
)

// Envelope member bits, used to detect duplicates.
const (
	memJSONRPC = 1 << iota
	memID
	memMethod
	memParams
	memResult
	memError
)

// envelope is the shallow decoding of one inbound line. Raw fields alias the
// line; they are nil when the member is absent.
type envelope struct {
	kind    frameKind
	idState idState
	id      int64
	method  string // decoded method, when it is a string
	params  json.RawMessage
	result  json.RawMessage
	rpcErr  *protocol.Error // decoded error member of a response
	members uint8           // memXXX bits present
	problem string          // why a frame is a parse error or invalid
}

// hasMethod reports whether the frame carries a "method" member at all.
func (e *envelope) hasMethod() bool { return e.members&memMethod != 0 }

// answerID is the id an error answer to an invalid frame carries: the frame's
// id when it claims to be a request and its id is a valid integer, else null.
func (e *envelope) answerID() (int64, bool) {
	if e.hasMethod() && e.idState == idValid {
		return e.id, true
	}
	return 0, false
}

// parseEnvelope classifies line (one frame without its newline) and applies
// the envelope rules in the documented order. It never panics on any input.
func parseEnvelope(line []byte, e *envelope) {
	*e = envelope{}
	i := skipWS(line, 0)
	if i == len(line) {
		e.kind = kindEmpty
		return
	}
	if line[i] != '{' {
		e.kind = kindParseError
		if jsonscan.Valid(line) {
			e.problem = "frame is not a JSON object"
		} else {
			e.problem = syntaxProblem(line)
		}
		return
	}

	// One pass picks the members out and checks that the line is JSON.
	sc := jsonscan.Scanner{Data: line, Pos: i + 1, Depth: 1}
	var jsonrpc, id, method, errRaw []byte
	var dup string
	if sc.Peek() == '}' {
		sc.Pos++
	} else {
		for {
			if sc.Peek() != '"' {
				sc.Bad = true
				break
			}
			ks := sc.Pos
			sc.ScanString()
			key := line[ks:sc.Pos]
			if sc.Bad || !sc.Expect(':') {
				break
			}
			sc.WS()
			vs := sc.Pos
			sc.Skip()
			if sc.Bad {
				break
			}
			val := line[vs:sc.Pos]
			bit, name := memberOf(key)
			if bit != 0 {
				if e.members&bit != 0 && dup == "" {
					dup = name
				}
				e.members |= bit
				switch bit {
				case memJSONRPC:
					jsonrpc = val
				case memID:
					id = val
				case memMethod:
					method = val
				case memParams:
					e.params = val
				case memResult:
					e.result = val
				case memError:
					errRaw = val
				}
			}
			if c := sc.Peek(); c == ',' {
				sc.Pos++
				continue
			} else if c != '}' {
				sc.Bad = true
				break
			}
			sc.Pos++
			break
		}
	}
	if !sc.Bad {
		sc.WS()
		sc.Bad = sc.Pos != len(line)
	}
	if sc.Bad {
		*e = envelope{kind: kindParseError, problem: syntaxProblem(line)}
		return
	}

	if id != nil {
		switch {
		case string(id) == "null":
			e.idState = idNull
		default:
			if n, ok := jsonscan.ParseInt64(id); ok {
				e.id, e.idState = n, idValid
			} else {
				e.idState = idInvalid
			}
		}
	}
	if method != nil {
		if s, ok := rawString(method); ok {
			e.method = s
		}
	}

	invalid := func(msg string) { e.kind, e.problem = kindInvalid, msg }
	isResp := e.members&(memResult|memError) != 0
	var inner, innerOf string
	innerDup := false
	for _, m := range [...]struct {
		name string
		raw  []byte
	}{{"params", e.params}, {"result", e.result}, {"error", errRaw}} {
		if k, ok := jsonscan.DuplicateKey(m.raw); ok { // k: the repeated key's path
			inner, innerOf, innerDup = k, m.name, true
			break
		}
	}
	switch {
	case dup != "":
		invalid("duplicate member \"" + dup + "\"")
	case innerDup:
		invalid("duplicate member \"" + clip(inner) + "\" inside \"" + innerOf + "\"")
	case jsonrpc == nil:
		invalid("missing \"jsonrpc\" member")
	case string(jsonrpc) != `"2.0"` && !rawStringIs(jsonrpc, "2.0"):
		invalid("\"jsonrpc\" must be \"2.0\"")
	case e.idState == idInvalid:
		invalid("\"id\" must be an integer")
	case method != nil && isResp:
		invalid("a request cannot carry \"result\" or \"error\"")
	case e.result != nil && errRaw != nil:
		invalid("\"result\" and \"error\" are mutually exclusive")
	case method == nil && !isResp:
		invalid("frame has neither \"method\" nor \"result\"/\"error\"")
	case method != nil:
		switch {
		case e.params != nil && e.params[0] != '{':
			invalid("\"params\" must be a JSON object")
		case method[0] != '"' || e.method == "":
			invalid("\"method\" must be a non-empty string")
		case e.idState == idNull:
			invalid("\"id\" must be an integer")
		case e.idState == idValid:
			e.kind = kindRequest
		default:
			e.kind = kindNotification
		}
	default: // response
		switch {
		case e.idState == idAbsent:
			invalid("a response needs an \"id\"")
		case e.idState == idNull && errRaw == nil:
			invalid("\"id\" must be an integer")
		case errRaw != nil:
			pe, msg := decodeWireError(errRaw)
			if pe == nil {
				invalid(msg)
				return
			}
			e.rpcErr = pe
			e.kind = kindResponse
		default:
			e.kind = kindResponse
		}
	}
}

// syntaxProblem words why line is not JSON as encoding/json does.
func syntaxProblem(line []byte) string {
	var v json.RawMessage
	if err := json.Unmarshal(line, &v); err != nil {
		return err.Error()
	}
	return "invalid JSON"
}

// decodeWireError decodes the error member of a response: an object with an
// integer code and a string message. data is optional and decoded leniently
// (extra fields such as action are fine; undecodable data is dropped).
func decodeWireError(raw []byte) (*protocol.Error, string) {
	const bad = "\"error\" must be an object with an integer \"code\" and a string \"message\""
	if raw[0] != '{' {
		return nil, bad
	}
	var w struct {
		Code    json.RawMessage `json:"code"`
		Message *string         `json:"message"`
		Data    json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(raw, &w); err != nil || w.Code == nil || w.Message == nil {
		return nil, bad
	}
	code, ok := jsonscan.ParseInt64(w.Code)
	if !ok || code != int64(int(code)) {
		return nil, bad
	}
	pe := &protocol.Error{Code: int(code), Message: *w.Message}
	if len(w.Data) > 0 && w.Data[0] == '{' {
		var d protocol.ErrorData
		if err := json.Unmarshal(w.Data, &d); err == nil || d.Reason != "" {
			pe.Data = &d
		}
	}
	return pe, ""
}

// memberOf maps an object key (quoted, possibly escaped) to its member bit.
func memberOf(key []byte) (uint8, string) {
	k := key[1 : len(key)-1]
	for _, c := range k {
		if c == '\\' {
			s, ok := rawString(key)
			if !ok {
				return 0, ""
			}
			return memberName(s)
		}
	}
	return memberName(string(k))
}

func memberName(k string) (uint8, string) {
	switch k {
	case "jsonrpc":
		return memJSONRPC, "jsonrpc"
	case "id":
		return memID, "id"
	case "method":
		return memMethod, "method"
	case "params":
		return memParams, "params"
	case "result":
		return memResult, "result"
	case "error":
		return memError, "error"
	}
	return 0, ""
}

// rawString decodes a JSON string value. Plain ASCII without escapes takes a
// fast path; everything else goes through encoding/json.
func rawString(raw []byte) (string, bool) {
	if len(raw) < 2 || raw[0] != '"' {
		return "", false
	}
	body := raw[1 : len(raw)-1]
	for _, c := range body {
		if c == '\\' || c >= utf8.RuneSelf {
			var s string
			if err := json.Unmarshal(raw, &s); err != nil {
				return "", false
			}
			return s, true
		}
	}
	return string(body), true
}

func rawStringIs(raw []byte, want string) bool {
	s, ok := rawString(raw)
	return ok && s == want
}

func skipWS(b []byte, i int) int {
	for i < len(b) {
		switch b[i] {
		case ' ', '\t', '\r', '\n':
			i++
		default:
			return i
		}
	}
	return i
}

package main

import (
	"bufio"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"os"
	"strings"
	"time"
)

// rule is one scripted answer, from MISBEHAVE_DECIDE: a JSON object keyed by
// hook point ("*" for any) whose values are rules.
type rule struct {
	Decision    string          `json:"decision"`
	Reason      string          `json:"reason,omitempty"`
	Replacement json.RawMessage `json:"replacement,omitempty"`
	DelayMs     int             `json:"delayMs,omitempty"`
	// Echo replaces the payload with itself after rehydrating it: inline,
	// or (ByRef) as a descriptor naming the host's own content ref.
	Echo   bool `json:"echo,omitempty"`
	ByRef  bool `json:"byRef,omitempty"`
	LieSha bool `json:"lieSha,omitempty"`
	// FirstRef answers every by-reference echo with the first ref this
	// sidecar ever saw, which the host evicts after 64 newer objects.
	FirstRef bool `json:"firstRef,omitempty"`
}

var firstRef struct {
	ref, sum string
	size     int64
}

type interceptParams struct {
	Event        string          `json:"event"`
	Seq          int64           `json:"seq"`
	Payload      json.RawMessage `json:"payload"`
	Externalized []struct {
		JSONPointer string `json:"jsonPointer"`
		ContentRef  string `json:"contentRef"`
		TotalBytes  int64  `json:"totalBytes"`
		SHA256      string `json:"sha256"`
	} `json:"externalized"`
}

var nextID int64 = 1000

// decide answers one intercept according to MISBEHAVE_DECIDE.
func decide(in *bufio.Scanner, raw json.RawMessage) any {
	var p interceptParams
	json.Unmarshal(raw, &p)
	logEvent("intercept " + p.Event)
	rules := map[string]rule{}
	json.Unmarshal([]byte(os.Getenv("MISBEHAVE_DECIDE")), &rules)
	r, ok := rules[p.Event]
	if !ok {
		r, ok = rules["*"]
	}
	if !ok {
		return map[string]any{"decision": "continue"}
	}
	if r.DelayMs > 0 {
		time.Sleep(time.Duration(r.DelayMs) * time.Millisecond)
	}
	if !r.Echo {
		out := map[string]any{"decision": r.Decision}
		if r.Reason != "" {
			out["reason"] = r.Reason
		}
		if len(r.Replacement) > 0 {
			out["replacement"] = r.Replacement
		}
		return out
	}
	payload := p.Payload
	if len(p.Externalized) == 1 {
		d := p.Externalized[0]
		if r.FirstRef {
			if firstRef.ref == "" {
				firstRef.ref, firstRef.sum, firstRef.size = d.ContentRef, d.SHA256, d.TotalBytes
			}
			d.ContentRef, d.SHA256, d.TotalBytes = firstRef.ref, firstRef.sum, firstRef.size
		}
		if r.ByRef {
			sum := d.SHA256
			if r.LieSha {
				sum = strings.Repeat("0", 64)
			}
			return map[string]any{"decision": "replace", "replacement": nil, "externalized": []any{map[string]any{
				"jsonPointer": "/replacement", "contentRef": d.ContentRef, "totalBytes": d.TotalBytes, "sha256": sum}}}
		}
		payload = readContent(in, d.ContentRef)
		sum := sha256.Sum256(payload)
		if hex.EncodeToString(sum[:]) != d.SHA256 || int64(len(payload)) != d.TotalBytes {
			return map[string]any{"decision": "block", "reason": "content ref did not verify"}
		}
	}
	return map[string]any{"decision": "replace", "replacement": payload}
}

// readContent pages host/content/read synchronously: the host sends nothing
// else to this sidecar while an intercept is outstanding.
func readContent(in *bufio.Scanner, ref string) []byte {
	var data []byte
	for off := int64(0); ; {
		nextID++
		send(map[string]any{"jsonrpc": "2.0", "id": nextID, "method": "host/content/read",
			"params": map[string]any{"contentRef": ref, "offset": off}})
		for in.Scan() {
			var resp struct {
				ID     int64 `json:"id"`
				Result struct {
					DataBase64 string `json:"dataBase64"`
					NextOffset int64  `json:"nextOffset"`
				} `json:"result"`
			}
			if json.Unmarshal(in.Bytes(), &resp) == nil && resp.ID == nextID {
				b, _ := base64.StdEncoding.DecodeString(resp.Result.DataBase64)
				data = append(data, b...)
				off = resp.Result.NextOffset
				break
			}
		}
		if off == 0 {
			return data
		}
	}
}

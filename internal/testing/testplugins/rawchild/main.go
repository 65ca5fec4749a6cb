// Command rawchild is the raw baseline of the benchmarks: the same work as a
// sidecar, done with plain bufio + encoding/json and no framework, so a
// benchmark can report the host's cost as a ratio to it in the same run.
//
//	rawchild echo   answer every request line {"id":N,...} with a continue result
//	rawchild flood  on {"n":N,"size":S} write N stream-chunk notification lines, then {"done":true}
//	rawchild pager  on {"total":T} page T bytes from the parent in 256 KiB pages and send them back
package main

import (
	"bufio"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"strings"
)

type frame struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      *int64          `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
}

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 16<<20)
	out := bufio.NewWriter(os.Stdout)
	enc := json.NewEncoder(out)
	mode := ""
	if len(os.Args) > 1 {
		mode = os.Args[1]
	}
	for in.Scan() {
		switch mode {
		case "echo":
			var f frame
			if json.Unmarshal(in.Bytes(), &f) != nil || f.ID == nil {
				continue
			}
			enc.Encode(map[string]any{"jsonrpc": "2.0", "id": *f.ID, "result": map[string]string{"decision": "continue"}})
		case "flood":
			var req struct{ N, Size int }
			json.Unmarshal(in.Bytes(), &req)
			text := strings.Repeat("x", max(req.Size, 1))
			for i := 1; i <= req.N; i++ {
				enc.Encode(map[string]any{"jsonrpc": "2.0", "method": "extension/provider/stream/chunk",
					"params": map[string]any{"streamId": "es_raw", "seq": i, "chunk": map[string]any{"type": "text", "text": text}}})
			}
			enc.Encode(map[string]bool{"done": true})
		case "pager":
			var req struct{ Total int }
			json.Unmarshal(in.Bytes(), &req)
			var data []byte
			for off := 0; off < req.Total; {
				enc.Encode(map[string]int{"offset": off})
				out.Flush()
				if !in.Scan() {
					return
				}
				var page struct {
					Data string `json:"data"`
				}
				json.Unmarshal(in.Bytes(), &page)
				b, _ := base64.StdEncoding.DecodeString(page.Data)
				data = append(data, b...)
				off += len(b)
			}
			enc.Encode(map[string]json.RawMessage{"result": data})
		default:
			fmt.Fprintln(os.Stderr, "rawchild: unknown mode", mode)
			os.Exit(2)
		}
		out.Flush()
	}
}

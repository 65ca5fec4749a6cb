package main

import (
	"os"
	"strconv"
	"strings"
	"time"
)

func providerRef() string { return "plugin/" + os.Getenv("REASONIX_PLUGIN_NAME") + "/mock" }

// runStream plays MISBEHAVE_STREAM, a ';'-separated script:
//
//	c:1,3,2   text chunks with these seqs (text "t<seq>")
//	x:4       an error chunk at seq 4
//	end:3     stream/end with lastSeq 3 (end:3:err=MSG, end:3:int for interrupted)
//	sleep:MS  pause
//	exit:N    exit with status N
//	hang      stop here
func runStream(id string) {
	for _, op := range strings.Split(os.Getenv("MISBEHAVE_STREAM"), ";") {
		name, arg, _ := strings.Cut(op, ":")
		switch name {
		case "c":
			for _, n := range strings.Split(arg, ",") {
				seq, _ := strconv.Atoi(n)
				send(map[string]any{"jsonrpc": "2.0", "method": "extension/provider/stream/chunk", "params": map[string]any{
					"streamId": id, "seq": seq, "chunk": map[string]any{"type": "text", "text": "t" + n}}})
			}
		case "x":
			seq, _ := strconv.Atoi(arg)
			send(map[string]any{"jsonrpc": "2.0", "method": "extension/provider/stream/chunk", "params": map[string]any{
				"streamId": id, "seq": seq, "chunk": map[string]any{"type": "error",
					"error": map[string]any{"code": "provider_failed", "message": "upstream said no: key sk-abcdefghijklmnopqrstuvwxyz123456"}}}})
		case "end":
			parts := strings.Split(arg, ":")
			last, _ := strconv.Atoi(parts[0])
			params := map[string]any{"streamId": id, "lastSeq": last}
			for _, p := range parts[1:] {
				if msg, ok := strings.CutPrefix(p, "err="); ok {
					params["error"] = msg
				}
				if p == "int" {
					params["interrupted"] = true
				}
			}
			send(map[string]any{"jsonrpc": "2.0", "method": "extension/provider/stream/end", "params": params})
		case "sleep":
			ms, _ := strconv.Atoi(arg)
			time.Sleep(time.Duration(ms) * time.Millisecond)
		case "exit":
			code, _ := strconv.Atoi(arg)
			os.Exit(code)
		case "hang":
			return
		}
	}
}

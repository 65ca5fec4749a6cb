// Command gensession writes a long saved session for the desktop's
// real-window checks (scripts/xvfb-perf-check.sh, scripts/xvfb-e2e-input.sh): user questions, markdown
// replies with code and tables, tool calls with results. It prints the
// session id.
//
//	go run ./scripts/gensession -data-dir DIR -messages 5000 -model plugin/echo-provider/echo/echo-1
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/protocol"
)

func main() {
	dataDir := flag.String("data-dir", "", "the app's data directory")
	n := flag.Int("messages", 5000, "how many messages")
	model := flag.String("model", "", "the session's model id")
	workspace := flag.String("workspace", os.TempDir(), "the session's workspace root")
	question := flag.String("question", "how do I list the files of this project?", "the users' question (a word to find the session by in the sidebar's search)")
	flag.Parse()
	if *dataDir == "" {
		fmt.Fprintln(os.Stderr, "gensession: -data-dir is required")
		os.Exit(2)
	}
	st, err := agent.NewSessionStore(filepath.Join(*dataDir, "sessions"))
	if err != nil {
		fmt.Fprintln(os.Stderr, "gensession:", err)
		os.Exit(1)
	}
	s := agent.NewSession(*workspace)
	s.Model = *model
	s.Messages = messages(*n, *question)
	if err := st.Save(s); err != nil {
		fmt.Fprintln(os.Stderr, "gensession:", err)
		os.Exit(1)
	}
	fmt.Println(s.ID)
}

// messages is a conversation of n messages.
func messages(n int, question string) []protocol.ProviderMessage {
	var out []protocol.ProviderMessage
	for i := 0; len(out) < n; i++ {
		out = append(out, protocol.ProviderMessage{Role: protocol.RoleUser,
			Content: fmt.Sprintf("Question %d: %s", i, question)})
		switch i % 3 {
		case 0:
			out = append(out, protocol.ProviderMessage{Role: protocol.RoleAssistant, Content: fmt.Sprintf(
				"Answer %d. Use **list_dir**, then read what you need:\n\n"+
					"```go\nfor _, e := range entries {\n\tfmt.Println(e.Name()) // one per line\n}\n```\n\n"+
					"| file | lines |\n|---|---:|\n| main.go | 120 |\n| gui.go | 80 |\n", i)})
		case 1:
			id := fmt.Sprintf("call_%d", i)
			out = append(out,
				protocol.ProviderMessage{Role: protocol.RoleAssistant, ToolCalls: []protocol.ProviderToolCall{
					{ID: id, Name: "list_dir", Arguments: `{"path":"."}`}}},
				protocol.ProviderMessage{Role: protocol.RoleTool, ToolCallID: id,
					Content: strings.Repeat("internal/frontends/desktop/transcript.go\n", 30)})
		default:
			out = append(out, protocol.ProviderMessage{Role: protocol.RoleAssistant,
				ReasoningContent: "The user wants a longer explanation.",
				Content:          strings.Repeat("A longer paragraph of the reply, wrapping over a few lines of the window. ", 8)})
		}
	}
	return out[:n]
}

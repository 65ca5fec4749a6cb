package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
	"github.com/reasonix/reasonix-desktop/internal/foundation/termsafe"
	"github.com/reasonix/reasonix-desktop/internal/frontends/headless"
)

// sessionUsage is the session command's help in the language in use.
func sessionUsage() string {
	return i18n.T(`usage: reasonix-desktop session <command> [flags]

commands:
  list [--json]                            saved chats, pinned first, then by last message
  search [--json] [--limit N] TEXT         chats whose title or messages hold TEXT, with the line
  export [--format md|json] [-o FILE] ID   a chat as Markdown (default) or as its session file
  import FILE|-                            a chat exported as JSON; prints its id (a new one
                                           when the id is taken: nothing is overwritten)
  pin ID, unpin ID                         keep a chat on top of the list, or let it go
  cost [--currency CNY|USD] ID             what each reply and the whole chat cost, cache hits
                                           and misses priced apart, off-peak hours applied

ID may be the first characters of a chat's id when only one chat starts with them.
Every command takes --data-dir DIR.
`)
}

// sessionJSON is a chat as session list --json and search --json print it.
type sessionJSON struct {
	ID            string    `json:"id"`
	Title         string    `json:"title"`
	Model         string    `json:"model,omitempty"`
	Workspace     string    `json:"workspace"`
	Pinned        bool      `json:"pinned"`
	LastMessageAt time.Time `json:"lastMessageAt"`
	Updated       time.Time `json:"updated"`
	// MessageIndex and Snippet are search's: the message that matched
	// (-1: the title) and its line.
	MessageIndex *int   `json:"messageIndex,omitempty"`
	Snippet      string `json:"snippet,omitempty"`
}

func summaryJSON(s agent.Summary) sessionJSON {
	return sessionJSON{ID: s.ID, Title: s.Title, Model: s.Model, Workspace: s.Workspace, Pinned: s.Pinned,
		LastMessageAt: s.LastMessageAt, Updated: s.Updated}
}

// runSession is the session command: the saved chats through the same
// core functions the window's sidebar uses (agent.History), without
// starting a plugin.
func runSession(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		fmt.Fprint(stdout, sessionUsage())
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	sub := args[0]
	fs := flag.NewFlagSet("reasonix-desktop session "+sub, flag.ContinueOnError)
	fs.SetOutput(stderr)
	dataDir := fs.String("data-dir", "", i18n.T("data directory"))
	jsonOut := fs.Bool("json", false, i18n.T("print JSON (list, search)"))
	limit := fs.Int("limit", 50, i18n.T("at most this many chats (search; 0: all)"))
	format := fs.String("format", agent.ExportFormatMarkdown, i18n.T("md, markdown or json (export)"))
	output := fs.String("o", "", i18n.T("write to this file instead of standard output (export)"))
	currency := fs.String("currency", "", i18n.T("CNY or USD (cost; default: settings' currency, else the model's price list)"))
	if err := fs.Parse(args[1:]); err != nil {
		return 2
	}
	fail := func(err error) int {
		fmt.Fprintln(stderr, "reasonix-desktop session "+sub+":", safe(err.Error()))
		return 1
	}
	layout, err := agent.DataLayout(*dataDir)
	if err != nil {
		return fail(err)
	}
	h, err := agent.OpenHistory(layout)
	if err != nil {
		return fail(err)
	}
	rest := fs.Args()
	switch sub {
	case "list":
		if len(rest) != 0 {
			fmt.Fprint(stderr, sessionUsage())
			return 2
		}
		return printSessions(stdout, h.Sessions(), nil, false, *jsonOut)
	case "search":
		if len(rest) == 0 {
			fmt.Fprint(stderr, sessionUsage())
			return 2
		}
		hits := h.SearchSessionText(ctx, strings.Join(rest, " "), *limit)
		return printSessions(stdout, nil, hits, true, *jsonOut)
	case "export":
		if len(rest) != 1 {
			fmt.Fprint(stderr, sessionUsage())
			return 2
		}
		id, err := resolveSessionID(h, rest[0])
		if err != nil {
			return fail(err)
		}
		data, err := h.ExportSession(id, *format)
		if err != nil {
			return fail(err)
		}
		if *output == "" {
			_, err = stdout.Write(data)
		} else {
			err = os.WriteFile(*output, data, 0o600)
		}
		if err != nil {
			return fail(fmt.Errorf("%s: %w", i18n.T("write the export"), err))
		}
		return 0
	case "cost":
		if len(rest) != 1 {
			fmt.Fprint(stderr, sessionUsage())
			return 2
		}
		id, err := resolveSessionID(h, rest[0])
		if err != nil {
			return fail(err)
		}
		cur := strings.ToUpper(*currency)
		if cur == "" {
			cur = userSettings(layout).Currency
		}
		if err := sessionCost(layout, id, cur, stdout); err != nil {
			return fail(err)
		}
		return 0
	case "pin", "unpin":
		if len(rest) != 1 {
			fmt.Fprint(stderr, sessionUsage())
			return 2
		}
		id, err := resolveSessionID(h, rest[0])
		if err != nil {
			return fail(err)
		}
		if err := h.PinSession(id, sub == "pin"); err != nil {
			return fail(err)
		}
		return 0
	case "import":
		if len(rest) != 1 {
			fmt.Fprint(stderr, sessionUsage())
			return 2
		}
		var data []byte
		if rest[0] == "-" {
			data, err = io.ReadAll(stdin)
		} else {
			data, err = os.ReadFile(rest[0])
		}
		if err != nil {
			return fail(fmt.Errorf("%s: %w", i18n.T("read the chat to import"), err))
		}
		id, err := h.ImportSession(ctx, data)
		if err != nil {
			return fail(err)
		}
		fmt.Fprintln(stdout, id)
		return 0
	}
	fmt.Fprintf(stderr, "reasonix-desktop session: %s\n\n%s", i18n.T("unknown command %q", sub), sessionUsage())
	return 2
}

// resolveSessionID takes a full id, or the start of exactly one chat's.
func resolveSessionID(h *agent.History, arg string) (string, error) {
	var found []string
	for _, s := range h.Sessions() {
		if s.ID == arg {
			return arg, nil
		}
		if arg != "" && strings.HasPrefix(s.ID, arg) {
			found = append(found, s.ID)
		}
	}
	switch len(found) {
	case 0:
		return "", errors.New(i18n.T("no saved chat has the id %q (session list shows them)", arg))
	case 1:
		return found[0], nil
	}
	return "", errors.New(i18n.T("more than one chat's id starts with %s: %s", arg, strings.Join(found, ", ")))
}

// printSessions prints a listing (sums) or search hits (hits).
func printSessions(stdout io.Writer, sums []agent.Summary, hits []agent.SessionHit, search, jsonOut bool) int {
	rows := make([]sessionJSON, 0, len(sums)+len(hits))
	for _, s := range sums {
		rows = append(rows, summaryJSON(s))
	}
	for _, h := range hits {
		r := summaryJSON(h.Summary)
		i := h.MessageIndex
		r.MessageIndex, r.Snippet = &i, h.Snippet
		rows = append(rows, r)
	}
	if jsonOut {
		b, _ := json.MarshalIndent(rows, "", "  ")
		fmt.Fprintln(stdout, string(b))
		return 0
	}
	if len(rows) == 0 {
		if search {
			fmt.Fprintln(stdout, i18n.T("no chat matches"))
		} else {
			fmt.Fprintln(stdout, i18n.T("no saved chats"))
		}
		return 0
	}
	table := [][]string{{i18n.T("ID"), i18n.T("LAST MESSAGE"), i18n.T("TITLE")}}
	for _, r := range rows {
		title := termsafe.String(r.Title)
		if r.Pinned {
			title = i18n.T("[pinned] %s", title)
		}
		table = append(table, []string{r.ID, r.LastMessageAt.Local().Format("2006-01-02 15:04"), title})
		if r.MessageIndex != nil && *r.MessageIndex >= 0 {
			table = append(table, []string{"", "", "  " + termsafe.String(r.Snippet)})
		}
	}
	fmt.Fprint(stdout, headless.Columns(table))
	return 0
}

package headless

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/reasonix/reasonix-desktop/internal/host/agent"
	"github.com/reasonix/reasonix-desktop/internal/redact"
)

// xdev v1 renderers on a terminal (docs/xdev-v1-host-extensions.md §4.3):
// an /ext: command whose output is {"renderer": <name>, "data": …}, where
// <name> is a renderer an extension declared, is printed as its kind — a
// card as a title, text and key: value rows, a table as aligned columns, a
// tree indented — with the window's bounds. Any other output is printed as
// text.

// Bounds on what one output prints, as in the window.
const (
	maxRenderRows  = 200
	maxRenderNodes = 500
	maxRenderDepth = 8
)

type rendered struct {
	ext  string
	ref  agent.RendererRef
	data json.RawMessage
}

// findRenderer matches a command's output to a declared renderer: the
// extension owning the command first, then the others in order.
func findRenderer(exts []agent.ExtensionStatus, command, out string) (rendered, bool) {
	var env struct {
		Renderer string          `json:"renderer"`
		Data     json.RawMessage `json:"data"`
	}
	if json.Unmarshal([]byte(strings.TrimSpace(out)), &env) != nil || env.Renderer == "" || len(env.Data) == 0 {
		return rendered{}, false
	}
	owns := func(e agent.ExtensionStatus) bool { return slices.Contains(e.Capabilities, "command "+command) }
	exts = slices.Clone(exts)
	slices.SortStableFunc(exts, func(a, b agent.ExtensionStatus) int {
		switch {
		case owns(a) && !owns(b):
			return -1
		case owns(b) && !owns(a):
			return 1
		}
		return 0
	})
	for _, e := range exts {
		for _, r := range e.Renderers {
			if r.Name == env.Renderer {
				return rendered{ext: e.Name, ref: r, data: env.Data}, true
			}
		}
	}
	return rendered{}, false
}

type renderNode struct {
	Label    string       `json:"label"`
	Children []renderNode `json:"children"`
}

// renderText prints one output as its renderer's kind. Every string is
// redacted (the caller makes the whole terminal-safe).
func renderText(r rendered) (string, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "[xdev %s] %s (%s)\n", redact.String(r.ext), redact.String(r.ref.Name), r.ref.Kind)
	switch r.ref.Kind {
	case "card":
		var c struct {
			Title  string `json:"title"`
			Text   string `json:"text"`
			Fields []struct {
				Key   string `json:"key"`
				Value string `json:"value"`
			} `json:"fields"`
		}
		if err := json.Unmarshal(r.data, &c); err != nil {
			return "", fmt.Errorf("card data: %w", err)
		}
		if c.Title != "" {
			fmt.Fprintf(&b, "  %s\n", redact.String(c.Title))
		}
		if c.Text != "" {
			fmt.Fprintf(&b, "  %s\n", strings.ReplaceAll(redact.String(c.Text), "\n", "\n  "))
		}
		for _, f := range c.Fields {
			fmt.Fprintf(&b, "    %s: %s\n", redact.String(f.Key), redact.String(f.Value))
		}
	case "table":
		var t struct {
			Columns []string   `json:"columns"`
			Rows    [][]string `json:"rows"`
		}
		if err := json.Unmarshal(r.data, &t); err != nil {
			return "", fmt.Errorf("table data: %w", err)
		}
		tableText(&b, t.Columns, t.Rows)
	case "tree":
		var root renderNode
		if err := json.Unmarshal(r.data, &root); err != nil {
			return "", fmt.Errorf("tree data: %w", err)
		}
		count := 0
		treeText(&b, root, 0, &count)
		if count >= maxRenderNodes {
			fmt.Fprintf(&b, "  … (at most %d nodes shown)\n", maxRenderNodes)
		}
	default:
		return "", errors.New("renderer kind " + r.ref.Kind)
	}
	return b.String(), nil
}

func tableText(b *strings.Builder, columns []string, rows [][]string) {
	cut := 0
	if len(rows) > maxRenderRows {
		rows, cut = rows[:maxRenderRows], len(rows)-maxRenderRows
	}
	tw := tabwriter.NewWriter(b, 0, 4, 2, ' ', 0)
	line := func(cells []string) {
		out := make([]string, len(cells))
		for i, c := range cells {
			out[i] = strings.NewReplacer("\t", " ", "\n", " ").Replace(redact.String(c))
		}
		fmt.Fprintf(tw, "  %s\n", strings.Join(out, "\t"))
	}
	if len(columns) > 0 {
		line(columns)
	}
	for _, r := range rows {
		line(r)
	}
	tw.Flush()
	if len(columns) == 0 && len(rows) == 0 {
		b.WriteString("  (empty table)\n")
	}
	if cut > 0 {
		fmt.Fprintf(b, "  … %d more rows not shown\n", cut)
	}
}

func treeText(b *strings.Builder, n renderNode, depth int, count *int) {
	if *count >= maxRenderNodes {
		return
	}
	*count++
	fmt.Fprintf(b, "  %s%s\n", strings.Repeat("  ", depth), redact.String(n.Label))
	if depth+1 >= maxRenderDepth {
		return
	}
	for _, c := range n.Children {
		treeText(b, c, depth+1, count)
	}
}

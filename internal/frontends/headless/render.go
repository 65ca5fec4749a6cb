package headless

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
)

// xdev v1 renderers on a terminal (docs/xdev-v1-host-extensions.md §4.3):
// an /ext: command whose output agent.FindRenderer matches to a declared
// renderer is printed as its kind — a card as a title, text and key: value
// rows, a table as aligned columns, a tree indented — within the window's
// bounds (agent.MaxRender*). Any other output is printed as text.

// renderText prints one output as its renderer's kind. Every string is
// redacted (the caller makes the whole terminal-safe).
func renderText(r agent.Rendered) (string, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "[xdev %s] %s (%s)\n", redact.String(r.Extension), redact.String(r.Ref.Name), r.Ref.Kind)
	switch r.Ref.Kind {
	case "card":
		var c agent.RenderCard
		if err := json.Unmarshal(r.Data, &c); err != nil {
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
		var t agent.RenderTable
		if err := json.Unmarshal(r.Data, &t); err != nil {
			return "", fmt.Errorf("table data: %w", err)
		}
		tableText(&b, t.Columns, t.Rows)
	case "tree":
		var root agent.RenderNode
		if err := json.Unmarshal(r.Data, &root); err != nil {
			return "", fmt.Errorf("tree data: %w", err)
		}
		count := 0
		treeText(&b, root, 0, &count)
		if count >= agent.MaxRenderNodes {
			fmt.Fprintf(&b, "  %s\n", i18n.T("… (at most %d nodes shown)", agent.MaxRenderNodes))
		}
	default:
		return "", errors.New("renderer kind " + r.Ref.Kind)
	}
	return b.String(), nil
}

func tableText(b *strings.Builder, cols []string, rows [][]string) {
	cut := 0
	if len(rows) > agent.MaxRenderRows {
		rows, cut = rows[:agent.MaxRenderRows], len(rows)-agent.MaxRenderRows
	}
	var cells [][]string
	for _, r := range append([][]string{cols}, rows...) {
		if len(r) == 0 && len(cells) == 0 {
			continue // no header
		}
		red := make([]string, len(r))
		for i, c := range r {
			red[i] = redact.String(c)
		}
		cells = append(cells, red)
	}
	if len(cells) == 0 {
		b.WriteString("  " + i18n.T("(empty table)") + "\n")
	}
	for _, line := range strings.SplitAfter(Columns(cells), "\n") {
		if line != "" {
			b.WriteString("  " + line)
		}
	}
	if cut > 0 {
		fmt.Fprintf(b, "  %s\n", i18n.N("… %d more row not shown", "… %d more rows not shown", cut, cut))
	}
}

func treeText(b *strings.Builder, n agent.RenderNode, depth int, count *int) {
	if *count >= agent.MaxRenderNodes {
		return
	}
	*count++
	fmt.Fprintf(b, "  %s%s\n", strings.Repeat("  ", depth), redact.String(n.Label))
	if depth+1 >= agent.MaxRenderDepth {
		return
	}
	for _, c := range n.Children {
		treeText(b, c, depth+1, count)
	}
}

package desktop

import (
	"encoding/json"
	"fmt"
	"image/color"
	"sort"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/uikit"
)

// xdev v1 renderers in the surface panel (docs/xdev-v1-host-extensions.md
// §4.3): a command result that is {"renderer": <name>, "data": …}, where
// <name> is a renderer the extension declared, is drawn with native widgets
// (card, table, tree) in the panel under "xdev: <extension>"; the newest
// output of a renderer replaces its previous one. The shapes, the bounds
// and the matching are agent's (the terminal prints the same outputs).

// buildRendered draws one output as its renderer's kind (UI goroutine).
// Every string is redacted: it comes straight from an extension.
func buildRendered(ref agent.RendererRef, data json.RawMessage) (fyne.CanvasObject, error) {
	r := redact.String
	var body fyne.CanvasObject
	switch ref.Kind {
	case "card":
		var c agent.RenderCard
		if err := json.Unmarshal(data, &c); err != nil {
			return nil, fmt.Errorf("card data: %w", err)
		}
		box := container.NewVBox()
		if c.Title != "" {
			box.Add(widget.NewLabelWithStyle(r(c.Title), fyne.TextAlignLeading, fyne.TextStyle{Bold: true}))
		}
		if c.Text != "" {
			t := widget.NewLabel(r(c.Text))
			t.Wrapping = fyne.TextWrapWord
			box.Add(t)
		}
		if len(c.Fields) > 0 {
			grid := container.New(layout.NewFormLayout())
			for _, f := range c.Fields {
				k := widget.NewLabel(r(f.Key))
				k.Importance = widget.LowImportance
				v := widget.NewLabel(r(f.Value))
				v.Wrapping = fyne.TextWrapWord
				grid.Add(k)
				grid.Add(v)
			}
			box.Add(grid)
		}
		body = box
	case "table":
		var t agent.RenderTable
		if err := json.Unmarshal(data, &t); err != nil {
			return nil, fmt.Errorf("table data: %w", err)
		}
		body = renderedTable(t)
	case "tree":
		var root agent.RenderNode
		if err := json.Unmarshal(data, &root); err != nil {
			return nil, fmt.Errorf("tree data: %w", err)
		}
		body = renderedTree(root)
	default:
		return nil, fmt.Errorf("renderer kind %q", ref.Kind)
	}
	title := uikit.Caption(r(ref.Name) + " · " + ref.Kind)
	return uikit.PanelBox(theme.ColorNameInputBackground, 0, container.NewVBox(title, body)), nil
}

// renderedTable is a grid of labels, a header row in bold; at most
// agent.MaxRenderRows rows.
func renderedTable(t agent.RenderTable) fyne.CanvasObject {
	cols := len(t.Columns)
	for _, row := range t.Rows {
		cols = max(cols, len(row))
	}
	if cols == 0 {
		return widget.NewLabel(i18n.T("(empty table)"))
	}
	grid := container.NewGridWithColumns(cols)
	for i := 0; i < cols; i++ {
		h := ""
		if i < len(t.Columns) {
			h = t.Columns[i]
		}
		l := widget.NewLabel(redact.String(h))
		l.TextStyle.Bold = true
		grid.Add(l)
	}
	rows := t.Rows
	cut := len(rows) > agent.MaxRenderRows
	if cut {
		rows = rows[:agent.MaxRenderRows]
	}
	for _, row := range rows {
		for i := 0; i < cols; i++ {
			cell := ""
			if i < len(row) {
				cell = row[i]
			}
			l := widget.NewLabel(redact.String(cell))
			l.Truncation = fyne.TextTruncateEllipsis
			grid.Add(l)
		}
	}
	if !cut {
		return grid
	}
	return container.NewVBox(grid, hint(i18n.N("%d more row not shown", "%d more rows not shown", len(t.Rows)-agent.MaxRenderRows, len(t.Rows)-agent.MaxRenderRows)))
}

// renderedTree is a widget.Tree over the nodes (ids are their paths),
// first level open; at most agent.MaxRenderNodes nodes and agent.MaxRenderDepth levels.
func renderedTree(root agent.RenderNode) fyne.CanvasObject {
	children := map[string][]string{}
	labels := map[string]string{}
	count := 0
	var walk func(id string, n agent.RenderNode, depth int)
	walk = func(id string, n agent.RenderNode, depth int) {
		labels[id] = redact.String(n.Label)
		count++
		if depth >= agent.MaxRenderDepth {
			return
		}
		for i, c := range n.Children {
			if count >= agent.MaxRenderNodes {
				return
			}
			cid := fmt.Sprintf("%s/%d", id, i)
			children[id] = append(children[id], cid)
			walk(cid, c, depth+1)
		}
	}
	walk("r", root, 0)
	tree := widget.NewTree(
		func(id widget.TreeNodeID) []widget.TreeNodeID {
			if id == "" {
				return []string{"r"}
			}
			return children[id]
		},
		func(id widget.TreeNodeID) bool { return id == "" || len(children[id]) > 0 },
		func(bool) fyne.CanvasObject { return widget.NewLabel("") },
		func(id widget.TreeNodeID, _ bool, o fyne.CanvasObject) { o.(*widget.Label).SetText(labels[id]) })
	tree.OpenBranch("r")
	// A tree scrolls itself: give it the height of what is open at first.
	rows := 1 + len(children["r"])
	room := canvas.NewRectangle(color.Transparent)
	rowH := widget.NewLabel("x").MinSize().Height + theme.Padding() // i18n:keep (measures a row)
	room.SetMinSize(fyne.NewSize(0, float32(min(rows, 12))*rowH))
	return container.NewStack(room, tree)
}

// showRendered puts an extension renderer's output in the panel, replacing
// its previous output (UI goroutine).
func (p *surfacePanel) showRendered(ext, renderer string, obj fyne.CanvasObject) {
	if p.rendered == nil {
		p.rendered = map[string]fyne.CanvasObject{}
	}
	p.rendered[ext+"\x00"+renderer] = obj
	p.sync()
}

// renderedObjects lists the renderers' outputs under a header per
// extension, in name order.
func (p *surfacePanel) renderedObjects() []fyne.CanvasObject {
	keys := make([]string, 0, len(p.rendered))
	for k := range p.rendered {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var out []fyne.CanvasObject
	last := ""
	for _, k := range keys {
		ext, _, _ := strings.Cut(k, "\x00")
		if ext != last {
			out = append(out, p.header("xdev: "+ext, false))
			last = ext
		}
		out = append(out, p.rendered[k])
	}
	return out
}

// renderCommandOutput draws an extension command's output with its
// declared renderer, when it names one; it reports whether it did (any
// goroutine: the widgets are built on the UI goroutine).
func (d *UI) renderCommandOutput(c coreAPI, line, out string) bool {
	name, _, _ := strings.Cut(strings.TrimSpace(line), " ")
	if !strings.HasPrefix(name, "/ext:") {
		return false
	}
	r, ok := agent.FindRenderer(c.ExtensionStatus(), name, out)
	if !ok {
		return false
	}
	ext, ref := r.Extension, r.Ref
	d.b.Post(func() {
		obj, err := buildRendered(ref, r.Data)
		if err != nil {
			d.transcript.AddNotice(i18n.T("%s: %s could not draw its output: %s", line, redact.String(ref.Name), redact.String(err.Error())), uikit.NoticeWarn)
			return
		}
		d.panel.showRendered(ext, ref.Name, obj)
		d.transcript.AddNotice(i18n.T("%s: shown in the panel (%s)", line, redact.String(ref.Name)), uikit.NoticeInfo)
	})
	return true
}

// hint is a low-importance wrapped explanation.
func hint(text string) *widget.Label {
	l := widget.NewLabel(text)
	l.Importance = widget.LowImportance
	l.Wrapping = fyne.TextWrapWord
	return l
}

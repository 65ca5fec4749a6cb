package agent

import (
	"cmp"
	"encoding/json"
	"slices"
	"strings"
)

// xdev v1 renderers (docs/xdev-v1-host-extensions.md §4.3): an extension
// command's output {"renderer": <name>, "data": …}, where <name> is a
// renderer an extension declared, is drawn as that renderer's kind — by the
// desktop with widgets, by the terminal as text — within the same bounds.
// These are the shapes and the matching both front ends use.

// Bounds on what one rendered output shows: beyond them rows and nodes are
// cut, and the front end says so.
const (
	MaxRenderRows  = 200
	MaxRenderNodes = 500
	MaxRenderDepth = 8
)

// RenderCard is the data of a card renderer.
type RenderCard struct {
	Title  string `json:"title"`
	Text   string `json:"text"`
	Fields []struct {
		Key   string `json:"key"`
		Value string `json:"value"`
	} `json:"fields"`
}

// RenderTable is the data of a table renderer (strings).
type RenderTable struct {
	Columns []string   `json:"columns"`
	Rows    [][]string `json:"rows"`
}

// RenderNode is a tree renderer's data: a node and its children.
type RenderNode struct {
	Label    string       `json:"label"`
	Children []RenderNode `json:"children"`
}

// Rendered is a command output matched to a declared renderer.
type Rendered struct {
	Extension string
	Ref       RendererRef
	Data      json.RawMessage // as the extension sent it; not yet checked against Ref.Kind
}

// FindRenderer matches the output of command ("/ext:<name>") to a renderer
// one of exts declared: the extension owning the command first, then the
// others in order. Any other output is not rendered (ok false).
func FindRenderer(exts []ExtensionStatus, command, out string) (r Rendered, ok bool) {
	var env struct {
		Renderer string          `json:"renderer"`
		Data     json.RawMessage `json:"data"`
	}
	if json.Unmarshal([]byte(strings.TrimSpace(out)), &env) != nil || env.Renderer == "" || len(env.Data) == 0 {
		return Rendered{}, false
	}
	owns := func(e ExtensionStatus) bool { return slices.Contains(e.Capabilities, "command "+command) }
	exts = slices.Clone(exts)
	slices.SortStableFunc(exts, func(a, b ExtensionStatus) int { return cmp.Compare(b2i(!owns(a)), b2i(!owns(b))) })
	for _, e := range exts {
		for _, ref := range e.Renderers {
			if ref.Name == env.Renderer {
				return Rendered{Extension: e.Name, Ref: ref, Data: env.Data}, true
			}
		}
	}
	return Rendered{}, false
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

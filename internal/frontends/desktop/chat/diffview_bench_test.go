package chat

import (
	"testing"

	"fyne.io/fyne/v2/test"
)

// What a diff costs the UI goroutine to build: collapsed (what a card
// shows first) and expanded to the bound it builds (a 2,000-line rewrite).
func BenchmarkDiffViewCollapsed(b *testing.B) { benchDiffView(b, false) }
func BenchmarkDiffViewExpanded(b *testing.B)  { benchDiffView(b, true) }

func benchDiffView(b *testing.B, expanded bool) {
	test.NewTempApp(b)
	files := bigChange(1000) // 2,000 changed lines of Go
	v := newDiffView(nil, func(string) {}, func() {})
	for b.Loop() {
		v.own = diffBuilt{}
		v.set(files, expanded, nil)
		v.box.MinSize()
	}
}

package chat

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/markdown"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/uikit"
)

// docView shows an markdown.Doc: one widget per block. Showing the same doc again
// after it grew keeps the widgets of its finished parts untouched and
// reuses the tail's widgets for the re-parsed tail, so a streamed reply
// costs a frame only its tail.
type docView struct {
	d      *env
	box    *fyne.Container
	doc    *markdown.Doc
	rev    uint64
	parts  []*markdown.Part
	groups [][]*framedBlock // the widgets of each shown part
	joined []joinKind       // per box object: it continues the block above
}

func newDocView(d *env) *docView {
	v := &docView{d: d}
	v.box = container.New(&docLayout{v: v})
	return v
}

func (v *docView) show(doc *markdown.Doc) {
	if doc == v.doc && doc.Rev() == v.rev {
		return
	}
	var spare []*framedBlock // widgets of parts no longer shown, to reuse
	keep := 0
	if doc == v.doc {
		for keep < len(v.parts) && keep < len(doc.Parts()) && v.parts[keep] == doc.Parts()[keep] {
			keep++
		}
	}
	for _, g := range v.groups[keep:] {
		spare = append(spare, g...)
	}
	v.doc, v.rev = doc, doc.Rev()
	v.parts, v.groups = v.parts[:keep], v.groups[:keep]
	for _, p := range doc.Parts()[keep:] {
		g := make([]*framedBlock, 0, len(p.Blocks))
		for _, b := range p.Blocks {
			var w *framedBlock
			if len(spare) > 0 && spare[0].inner.kind() == blockKind(b) {
				w, spare = spare[0], spare[1:]
				w.set(b)
			} else {
				w = newFramedBlock(v.d, b)
			}
			g = append(g, w)
		}
		v.parts = append(v.parts, p)
		v.groups = append(v.groups, g)
	}
	old := v.box.Objects
	objs := old[:0]
	v.joined = v.joined[:0]
	var head *codeBox // a split code block's first box copies all of it
	var heads []*codeBox
	prevText := false // the object above is text
	for gi, g := range v.groups {
		for wi, w := range g {
			objs = append(objs, w.box)
			join := joinNone
			if cb, ok := w.inner.(*codeBox); ok {
				if cb.head.Visible() || head == nil {
					head, cb.conts = cb, cb.conts[:0]
					heads = append(heads, cb)
				} else {
					head.conts = append(head.conts, cb)
					join = joinCode
				}
			}
			_, text := w.inner.(*textBlock)
			if text && prevText && wi == 0 && v.parts[gi].Joined {
				join = joinText
			}
			prevText = text
			v.joined = append(v.joined, join)
		}
	}
	for _, h := range heads {
		split := len(h.conts) > 0
		h.setSplit(split)
		for _, c := range h.conts {
			c.setSplit(split)
		}
	}
	if len(old) > len(objs) {
		clear(old[len(objs):]) // no stale widgets kept alive by the backing array
	}
	v.box.Objects = objs
}

// richTexts are the RichText widgets shown (tests).
func (v *docView) richTexts() []*widget.RichText {
	var out []*widget.RichText
	for _, g := range v.groups {
		for _, w := range g {
			switch b := w.inner.(type) {
			case *textBlock:
				out = append(out, &b.rt.RichText)
			case *codeBox:
				out = append(out, &b.code.RichText)
			case *tableGrid:
				for _, r := range b.rows {
					for _, c := range r {
						out = append(out, &c.RichText)
					}
				}
			}
		}
	}
	return out
}

// plain is what the view shows as text (tests).
func (v *docView) plain() string {
	var s string
	for _, rt := range v.richTexts() {
		s += markdown.PlainText(rt.Segments)
	}
	return s
}

// cull shows only the blocks overlapping [lo, hi] (in the box's
// coordinates). A hidden block keeps its place: its frame stays visible
// with its frozen size, only the content inside is hidden, so the layout
// does not change.
func (v *docView) cull(lo, hi float32) {
	for _, g := range v.groups {
		for _, f := range g {
			y := f.box.Position().Y
			inner := f.inner.object()
			show := y+f.box.Size().Height >= lo && y <= hi
			if show != inner.Visible() {
				uikit.SetShown(inner, show)
			}
		}
	}
}

// culled counts the hidden blocks (tests).
func (v *docView) culled() (hidden, all int) {
	for _, g := range v.groups {
		for _, f := range g {
			all++
			if !f.inner.object().Visible() {
				hidden++
			}
		}
	}
	return hidden, all
}

// docLayout stacks the blocks like a VBox, with no gap before a box that
// continues a code block: the parts of a split block touch.
type docLayout struct{ v *docView }

// joinKind is how a block joins the one above it.
type joinKind uint8

const (
	joinNone joinKind = iota
	joinCode          // a code block's next box: touching
	joinText          // a paragraph's next piece: read as its next line
)

// gap is the space above object i, the first visible one having none. A
// paragraph split in pieces (markdown's soft limit) is drawn as one: the
// piece is pulled up over the two texts' paddings (a line's spacing stays),
// where the gap between blocks and both paddings showed a blank band.
func (l *docLayout) gap(i int, first bool) float32 {
	if first {
		return 0
	}
	if i < len(l.v.joined) {
		switch l.v.joined[i] {
		case joinCode:
			return 0
		case joinText:
			return -2 * theme.InnerPadding()
		}
	}
	return theme.Padding()
}

func (l *docLayout) MinSize(objs []fyne.CanvasObject) fyne.Size {
	var size fyne.Size
	first := true
	for i, o := range objs {
		if !o.Visible() {
			continue
		}
		m := o.MinSize()
		size.Width = max(size.Width, m.Width)
		size.Height += m.Height + l.gap(i, first)
		first = false
	}
	return size
}

func (l *docLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	y := float32(0)
	first := true
	for i, o := range objs {
		if !o.Visible() {
			continue
		}
		y += l.gap(i, first)
		first = false
		h := o.MinSize().Height
		o.Move(fyne.NewPos(0, y))
		o.Resize(fyne.NewSize(size.Width, h))
		y += h
	}
}

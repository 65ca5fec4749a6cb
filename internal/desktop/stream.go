package desktop

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"
)

// streamText renders a growing markdown text as a column of RichText
// widgets. Text before the last safe block boundary is split into finished
// parts, rendered once; each frame re-parses only the tail. Fyne lays a
// RichText out in time proportional to its text, so one RichText per reply
// would make every frame of a long streamed reply slower than the last.
type streamText struct {
	onLink linkHandler
	box    *fyne.Container
	parts  []*widget.RichText // the last one is the tail
	done   int                // bytes of the text in finished parts
	text   string             // the text last rendered
}

func newStreamText(onLink linkHandler) *streamText {
	return &streamText{onLink: onLink, box: container.NewVBox()}
}

func (s *streamText) object() fyne.CanvasObject { return s.box }

// set renders text (UI goroutine). Appended text only touches the tail.
func (s *streamText) set(text string) {
	if text == s.text {
		return
	}
	if !strings.HasPrefix(text, s.text[:s.done]) { // not an append: start over
		s.parts, s.done = nil, 0
		s.box.Objects = nil
	}
	for {
		b := nextBoundary(text, s.done)
		if b < 0 {
			break
		}
		tail := s.tail()
		s.render(tail, text[s.done:b])
		s.done = b
		// The finished part never changes again: freeze its size.
		s.box.Objects[len(s.box.Objects)-1] = container.New(&frozenLayout{}, tail)
		s.newTail()
	}
	s.render(s.tail(), text[s.done:])
	s.text = text
}

func (s *streamText) render(r *widget.RichText, md string) {
	r.Segments = renderMarkdown(md, s.onLink)
	r.Refresh()
}

func (s *streamText) tail() *widget.RichText {
	if len(s.parts) == 0 {
		s.newTail()
	}
	return s.parts[len(s.parts)-1]
}

func (s *streamText) newTail() {
	r := newRichText()
	s.parts = append(s.parts, r)
	s.box.Add(r)
}

// frozenLayout holds one object whose content never changes: its MinSize
// is computed once per width instead of on every layout pass (measuring a
// RichText walks all of its text).
type frozenLayout struct {
	width float32
	min   fyne.Size
	valid bool
}

func (l *frozenLayout) MinSize(objs []fyne.CanvasObject) fyne.Size {
	w := objs[0].Size().Width
	if !l.valid || w != l.width {
		l.min, l.width, l.valid = objs[0].MinSize(), w, true
	}
	return l.min
}

func (l *frozenLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	objs[0].Move(fyne.NewPos(0, 0))
	objs[0].Resize(size)
}

// plain is the rendered text (tests).
func (s *streamText) plain() string {
	var b strings.Builder
	for _, p := range s.parts {
		b.WriteString(plainText(p.Segments))
	}
	return b.String()
}

// nextBoundary finds the first safe split point after from: the start of a
// complete line that follows a blank line, outside any fenced code block,
// and that cannot continue the block before it (no indentation, not a list
// item — so lists, indented code and ordered numbering stay whole). It
// returns -1 when there is none yet. from must itself be a boundary.
func nextBoundary(text string, from int) int {
	var fence string // the open fence's marker ("```", "~~~~"…), "" outside
	blank := false
	for pos := from; pos < len(text); {
		end := strings.IndexByte(text[pos:], '\n')
		if end < 0 {
			return -1 // the line is not complete yet
		}
		line := text[pos : pos+end]
		next := pos + end + 1
		trimmed := strings.TrimLeft(line, " ")
		switch {
		case fence != "":
			if strings.HasPrefix(trimmed, fence) && strings.Trim(trimmed, fence[:1]) == "" {
				fence = ""
			}
		case strings.TrimSpace(line) == "":
			blank = true
			pos = next
			continue
		case blank && pos > from && startsBlock(line):
			return pos
		default:
			if m := fenceMarker(trimmed); m != "" && len(line)-len(trimmed) < 4 {
				fence = m
			}
		}
		blank = false
		pos = next
	}
	return -1
}

// startsBlock: a line at column 0 that is not a list item.
func startsBlock(line string) bool {
	if line[0] == ' ' || line[0] == '\t' {
		return false
	}
	if len(line) >= 2 && strings.ContainsRune("-*+", rune(line[0])) && (line[1] == ' ' || line[1] == '\t') {
		return false
	}
	i := 0
	for i < len(line) && i < 9 && line[i] >= '0' && line[i] <= '9' {
		i++
	}
	if i > 0 && i+1 < len(line) && (line[i] == '.' || line[i] == ')') && (line[i+1] == ' ' || line[i+1] == '\t') {
		return false
	}
	return true
}

// fenceMarker returns the opening fence of a fenced code block line.
func fenceMarker(s string) string {
	for _, c := range []byte{'`', '~'} {
		n := 0
		for n < len(s) && s[n] == c {
			n++
		}
		if n >= 3 {
			return s[:n]
		}
	}
	return ""
}

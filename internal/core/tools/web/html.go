package web

import (
	"bytes"
	"net/url"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
)

// dropped are elements whose content is never text for a reader: code,
// styling, navigation menus, embedded documents and widgets.
var dropped = map[string]bool{
	"script": true, "style": true, "nav": true, "noscript": true, "template": true,
	"svg": true, "math": true, "iframe": true, "object": true, "canvas": true, "select": true,
}

// blocks start and end on their own line.
var blocks = map[string]bool{
	"p": true, "div": true, "section": true, "article": true, "header": true, "footer": true,
	"main": true, "aside": true, "figure": true, "figcaption": true, "form": true, "fieldset": true,
	"details": true, "summary": true, "dl": true, "dt": true, "dd": true, "address": true,
	"table": true, "thead": true, "tbody": true, "tfoot": true, "caption": true, "body": true, "html": true,
}

// maxIndent bounds list nesting shown as indentation, so deeply nested
// lists cannot grow the text far beyond the page.
const maxIndent = 8

// HTMLToText reduces an HTML page to readable Markdown-ish text: headings
// as #, links as [text](url) resolved against base (nil: as written),
// lists as - and 1., pre as fenced blocks, code as `code`, quotes as >,
// table cells separated by |; script, style, nav and the like dropped;
// whitespace collapsed outside pre; control characters removed.
// It streams tokens (no tree, no recursion), so any input ends in time
// linear in its size, and the text is at most a few times the input.
func HTMLToText(page string, base *url.URL) string {
	w := &textWriter{base: base}
	z := html.NewTokenizer(strings.NewReader(page))
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			return w.result()
		case html.TextToken:
			if w.skip == 0 {
				w.text(string(z.Text()))
			}
		case html.StartTagToken, html.SelfClosingTagToken:
			name, hasAttr := z.TagName()
			tag := string(name)
			var attr string // a's href, img's alt: the only attributes shown
			for hasAttr && (tag == "a" || tag == "img") {
				var k, v []byte
				k, v, hasAttr = z.TagAttr()
				if key := string(k); attr == "" && ((key == "href" && tag == "a") || (key == "alt" && tag == "img")) {
					attr = string(v)
				}
			}
			if dropped[tag] {
				if tt == html.StartTagToken && !voidElement(tag) {
					w.skip++
				}
				continue
			}
			if w.skip == 0 {
				w.start(tag, attr, tt == html.SelfClosingTagToken)
			}
		case html.EndTagToken:
			name, _ := z.TagName()
			tag := string(name)
			if dropped[tag] {
				if w.skip > 0 {
					w.skip--
				}
				continue
			}
			if w.skip == 0 {
				w.end(tag)
			}
		}
	}
}

// headElement reports what may stand in a head.
func headElement(tag string) bool {
	switch tag {
	case "head", "title", "meta", "link", "base", "style", "script", "noscript", "template":
		return true
	}
	return false
}

func voidElement(tag string) bool {
	switch tag {
	case "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr":
		return true
	}
	return false
}

type list struct {
	ordered bool
	n       int
}

type link struct {
	href  string
	start int // len(b) after the '[' was written; -1 when no link is shown
}

type textWriter struct {
	b       []byte
	base    *url.URL
	skip    int
	pre     int
	lists   []list
	links   []link
	titled  bool
	inHead  bool
	inTitle bool
	space   bool // a space is owed before the next word
	opened  bool // a [ or ` was just written: no space after it
}

func (w *textWriter) last() byte {
	if len(w.b) == 0 {
		return '\n'
	}
	return w.b[len(w.b)-1]
}

func (w *textWriter) newline() {
	w.space = false
	if w.last() != '\n' {
		w.b = append(w.b, '\n')
	}
}

func (w *textWriter) blank() {
	w.newline()
	if len(w.b) > 0 && !bytes.HasSuffix(w.b, []byte("\n\n")) {
		w.b = append(w.b, '\n')
	}
}

func (w *textWriter) start(tag, attr string, selfClosing bool) {
	if w.inHead && !headElement(tag) {
		w.inHead = false // a body element ends the head: </head> is optional
	}
	switch tag {
	case "head":
		w.inHead = true
	case "title":
		if !w.titled {
			w.blank()
			w.b = append(w.b, "# "...)
			w.inTitle = true
		}
	case "h1", "h2", "h3", "h4", "h5", "h6":
		w.blank()
		w.b = append(w.b, strings.Repeat("#", int(tag[1]-'0'))...)
		w.b = append(w.b, ' ')
	case "ul", "ol", "menu":
		if len(w.lists) == 0 {
			w.blank()
		}
		if !selfClosing {
			w.lists = append(w.lists, list{ordered: tag == "ol"})
		}
	case "li":
		w.newline()
		depth := min(max(len(w.lists)-1, 0), maxIndent)
		w.b = append(w.b, strings.Repeat("  ", depth)...)
		if n := len(w.lists); n > 0 && w.lists[n-1].ordered {
			w.lists[n-1].n++
			w.b = strconv.AppendInt(w.b, int64(w.lists[n-1].n), 10)
			w.b = append(w.b, ". "...)
		} else {
			w.b = append(w.b, "- "...)
		}
	case "pre":
		w.blank()
		w.b = append(w.b, "```\n"...)
		if !selfClosing {
			w.pre++
		}
	case "code", "kbd", "samp":
		if w.pre == 0 && !selfClosing {
			w.word()
			w.b = append(w.b, '`')
			w.opened = true
		}
	case "blockquote":
		w.blank()
		w.b = append(w.b, "> "...)
	case "br":
		w.newline()
	case "hr":
		w.blank()
		w.b = append(w.b, "---"...)
		w.blank()
	case "tr":
		w.newline()
	case "td", "th":
		if w.last() != '\n' {
			w.b = append(w.b, " | "...)
			w.space = false
		}
	case "img":
		if alt := strings.TrimSpace(attr); alt != "" {
			w.text("[image: " + alt + "]")
		}
	case "a":
		if selfClosing {
			return
		}
		href := w.resolve(attr)
		l := link{href: href, start: -1}
		if href != "" {
			w.word()
			w.b = append(w.b, '[')
			w.opened = true
			l.start = len(w.b)
		}
		w.links = append(w.links, l)
	default:
		if blocks[tag] {
			w.newline()
		}
	}
}

func (w *textWriter) end(tag string) {
	switch tag {
	case "head":
		w.inHead = false
	case "title":
		if w.inTitle {
			w.titled, w.inTitle = true, false
			w.blank()
		}
	case "h1", "h2", "h3", "h4", "h5", "h6", "blockquote":
		w.blank()
	case "ul", "ol", "menu":
		if n := len(w.lists); n > 0 {
			w.lists = w.lists[:n-1]
		}
		if len(w.lists) == 0 {
			w.blank()
		}
	case "li", "tr":
		w.newline()
	case "pre":
		if w.pre > 0 {
			w.pre--
			w.newline()
			w.b = append(w.b, "```"...)
			w.blank()
		}
	case "code", "kbd", "samp":
		if w.pre == 0 {
			w.b = append(w.b, '`')
		}
	case "a":
		n := len(w.links)
		if n == 0 {
			return
		}
		l := w.links[n-1]
		w.links = w.links[:n-1]
		if l.start < 0 {
			return
		}
		if len(bytes.TrimSpace(w.b[l.start:])) == 0 {
			w.b = w.b[:l.start-1] // a link with no text: show nothing of it
			return
		}
		w.b = bytes.TrimRight(w.b, " ")
		w.b = append(w.b, "]("...)
		w.b = append(w.b, l.href...)
		w.b = append(w.b, ')')
	default:
		if blocks[tag] {
			w.newline()
		}
	}
}

// word writes the space owed before a new word, if any.
func (w *textWriter) word() {
	if w.opened {
		w.opened, w.space = false, false
		return
	}
	if w.space {
		if c := w.last(); c != ' ' && c != '\n' {
			w.b = append(w.b, ' ')
		}
		w.space = false
	}
}

func (w *textWriter) text(s string) {
	if w.inHead && !w.inTitle {
		if strings.TrimSpace(s) == "" {
			return // only the title of the head is text
		}
		w.inHead = false // text ends a head, as in a browser (</head> is optional)
	}
	s = dropControls(strings.ReplaceAll(s, "\u00a0", " "))
	if w.pre > 0 {
		w.b = append(w.b, s...)
		return
	}
	fields := strings.Fields(s)
	if len(fields) == 0 {
		if s != "" {
			w.space = true
		}
		return
	}
	if r, _ := utf8.DecodeRuneInString(s); unicode.IsSpace(r) {
		w.space = true
	}
	for i, f := range fields {
		if i > 0 {
			w.space = true
		}
		w.word()
		w.b = append(w.b, f...)
	}
	if r, _ := utf8.DecodeLastRuneInString(s); unicode.IsSpace(r) {
		w.space = true
	}
}

// resolve makes href absolute against the page; "" for what is not a
// place to go (javascript:, an anchor on the same page).
func (w *textWriter) resolve(href string) string {
	href = strings.TrimSpace(dropControls(href))
	if href == "" || strings.HasPrefix(href, "#") {
		return ""
	}
	u, err := url.Parse(href)
	if err != nil {
		return ""
	}
	if w.base != nil {
		u = w.base.ResolveReference(u)
	}
	switch u.Scheme {
	case "", "http", "https", "mailto", "ftp":
	default:
		return ""
	}
	return linkEscaper.Replace(u.String())
}

// linkEscaper escapes what would end a Markdown link early.
var linkEscaper = strings.NewReplacer(" ", "%20", "(", "%28", ")", "%29")

func (w *textWriter) result() string {
	lines := strings.Split(string(w.b), "\n")
	out := make([]string, 0, len(lines))
	blanks := 0
	for _, l := range lines {
		l = strings.TrimRight(l, " \t")
		if l == "" {
			blanks++
			if blanks > 1 {
				continue
			}
		} else {
			blanks = 0
		}
		out = append(out, l)
	}
	return strings.TrimSpace(strings.Join(out, "\n"))
}

// dropControls removes C0 and C1 controls but newline and tab, and makes
// the text valid UTF-8.
func dropControls(s string) string {
	clean := true
	for _, r := range s {
		if r == utf8.RuneError || (unicode.IsControl(r) && r != '\n' && r != '\t') {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for _, r := range strings.ToValidUTF8(strings.ReplaceAll(s, "\r\n", "\n"), "") {
		if r == '\r' {
			r = '\n'
		}
		if unicode.IsControl(r) && r != '\n' && r != '\t' {
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

package jsonscan

import (
	"encoding/json"
	"math"
	"strconv"
)

// inlineKeys is how many member names of one object a KeySet compares
// pairwise before a map takes over: wire objects are mostly small, and
// comparing a handful of byte ranges costs less than hashing them.
const inlineKeys = 8

// KeySet is the set of member names seen in one object of one input. The
// zero value is empty and ready; it is used by one goroutine at a time.
// Plain names are kept as offsets into the input (a small set costs 72
// bytes of stack and no allocation); a name with escapes, or a ninth name,
// moves the set to a map.
type KeySet struct {
	small [inlineKeys][2]uint32 // start and end of each plain quoted name
	n     int
	many  map[string]struct{}
}

// Add records the quoted name data[start:end] (quotes included; plain as
// ScanString reported it) and reports whether the object already had it.
// Names compare decoded: "a" and "\u0061" are one name. data must be the
// same input for every Add to one set.
func (k *KeySet) Add(data []byte, start, end int, plain bool) (dup bool) {
	key := data[start:end]
	if k.many == nil && plain && uint64(end) <= math.MaxUint32 {
		for _, r := range k.small[:k.n] {
			if string(data[r[0]:r[1]]) == string(key) {
				return true
			}
		}
		if k.n < inlineKeys {
			k.small[k.n] = [2]uint32{uint32(start), uint32(end)}
			k.n++
			return false
		}
	}
	if k.many == nil {
		k.many = make(map[string]struct{}, 4*inlineKeys)
		for _, r := range k.small[:k.n] {
			k.many[string(data[r[0]:r[1]])] = struct{}{}
		}
	}
	if !plain {
		key = decodedName(key)
	}
	if _, seen := k.many[string(key)]; seen {
		return true
	}
	k.many[string(key)] = struct{}{}
	return false
}

// decodedName is a quoted name with its escapes resolved (and invalid UTF-8
// replaced), quoted again, as encoding/json would see it.
func decodedName(key []byte) []byte {
	var s string
	if json.Unmarshal(key, &s) != nil {
		return key // not reached for scanned input
	}
	return []byte(`"` + s + `"`)
}

// DuplicateKey reports the first member, in document order, whose name its
// object already had, anywhere inside data, and where it is: a path such as
// "runtime.env.A" or "fields[2].key" (keys joined by dots, array items as
// [i]; the repeated key is its last step). data should be one valid JSON value: on anything else the answer
// is only "no duplicate found so far", never a panic.
//
// A value without a repeat costs one pass without allocation (objects over
// eight members aside); only a repeat pays for building its path. It is
// safe for concurrent use.
func DuplicateKey(data []byte) (path string, found bool) {
	hasObject := false
	for _, b := range data {
		if b == '{' {
			hasObject = true
			break
		}
	}
	if !hasObject {
		return "", false
	}
	s := Scanner{Data: data}
	s.SkipUnique()
	if !s.Dup {
		return "", false
	}
	p := pathScan{Scanner: Scanner{Data: data}, wantDup: true}
	p.value()
	return p.path, p.dup
}

// ErrorPath is where data stops being JSON: the path (as DuplicateKey's) of the
// innermost member or item whose value was being read, or of the object or
// array between whose members the syntax broke; empty for the top level or
// valid data. Only an error path pays for it.
func ErrorPath(data []byte) string {
	p := pathScan{Scanner: Scanner{Data: data}}
	p.value()
	return p.path
}

// step is one step of a path: an object key or an array index.
type step struct {
	key   []byte // quoted as scanned; nil for an array item
	plain bool
	index int
}

// renderPath names a location as the strict decoder does (see AppendKey;
// array items as [i]): "a.b[2].c", "[0].x", "env[\"A B\"]".
func renderPath(steps []step) string {
	var b []byte
	for _, st := range steps {
		if st.key == nil {
			b = append(b, '[')
			b = strconv.AppendInt(b, int64(st.index), 10)
			b = append(b, ']')
			continue
		}
		name := st.key
		if !st.plain {
			name = decodedName(name)
		}
		b = AppendKey(b, string(name[1:len(name)-1]))
	}
	return string(b)
}

// AppendKey appends an object key to the path in b: after a dot when the
// key is a plain name ([A-Za-z_][A-Za-z0-9_-]*; no dot at the start of a
// path), else as a quoted string in brackets (env["A B"], [""]), so that a
// path always reads back to one location.
func AppendKey(b []byte, key string) []byte {
	plain := key != ""
	for i := 0; i < len(key) && plain; i++ {
		c := key[i]
		plain = c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || i > 0 && (c == '-' || '0' <= c && c <= '9')
	}
	if !plain {
		b = append(b, '[')
		b = strconv.AppendQuote(b, key)
		return append(b, ']')
	}
	if len(b) > 0 {
		b = append(b, '.')
	}
	return append(b, key...)
}

// pathScan walks data keeping the path of the value it is in, to name the
// first repeated member (with wantDup) or where the syntax breaks.
type pathScan struct {
	Scanner
	wantDup  bool
	steps    []step
	path     string
	dup      bool
	recorded bool // path holds where the syntax broke
}

// bad records the current path when the syntax has just broken.
func (p *pathScan) bad() bool {
	if p.Bad && !p.recorded && !p.dup {
		p.path, p.recorded = renderPath(p.steps), true
	}
	return p.Bad
}

func (p *pathScan) value() {
	switch p.Peek() {
	case '{':
		p.object()
	case '[':
		p.array()
	default:
		p.Skip()
		p.bad()
	}
}

func (p *pathScan) array() {
	if !p.open(']') {
		return
	}
	for i := 0; ; i++ {
		if !p.member(step{index: i}) {
			return
		}
	}
}

func (p *pathScan) object() {
	if !p.open('}') {
		return
	}
	var keys KeySet
	for {
		if p.Peek() != '"' {
			p.Bad = true
			p.bad()
			return
		}
		ks := p.Pos
		plain := p.ScanString()
		if p.bad() {
			return
		}
		key := p.Data[ks:p.Pos]
		if p.wantDup && keys.Add(p.Data, ks, p.Pos, plain) {
			p.path, p.dup = renderPath(append(p.steps, step{key: key, plain: plain})), true
			return
		}
		if !p.Expect(':') {
			p.bad()
			return
		}
		if !p.member(step{key: key, plain: plain}) {
			return
		}
	}
}

// open enters the object or array at Pos; false when it is empty (and
// consumed) or the syntax broke.
func (p *pathScan) open(end byte) bool {
	p.Pos++
	p.Push()
	if p.bad() {
		return false
	}
	if p.Peek() == end {
		p.Pos++
		p.Depth--
		return false
	}
	return true
}

// member walks the value of one member or item at st, then consumes the
// comma after it (true: another follows) or the end of its container.
func (p *pathScan) member(st step) bool {
	p.steps = append(p.steps, st)
	p.value()
	p.steps = p.steps[:len(p.steps)-1]
	if p.dup || p.Bad {
		return false
	}
	end := byte('}')
	if st.key == nil {
		end = ']'
	}
	more := p.More(end)
	p.bad()
	return more
}

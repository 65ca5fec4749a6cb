package jsonscan

import (
	"encoding/json"
	"strconv"
)

// inlineKeys is how many member names of one object a KeySet compares
// pairwise before a map takes over: wire objects are mostly small, and
// comparing a handful of byte slices costs less than hashing them.
const inlineKeys = 8

// KeySet is the set of member names seen in one object. The zero value is
// empty and ready; it is used by one goroutine at a time.
type KeySet struct {
	small [inlineKeys][]byte
	n     int
	many  map[string]struct{}
}

// Add records the quoted name key (as scanned, quotes included; plain as
// ScanString reported it) and reports whether the object already had it.
// Names compare decoded: "a" and "\u0061" are one name.
func (k *KeySet) Add(key []byte, plain bool) (dup bool) {
	if !plain {
		key = decodedName(key)
	}
	if k.many == nil {
		for _, seen := range k.small[:k.n] {
			if string(seen) == string(key) {
				return true
			}
		}
		if k.n < inlineKeys {
			k.small[k.n] = key
			k.n++
			return false
		}
		k.many = make(map[string]struct{}, 4*inlineKeys)
		for _, seen := range k.small {
			k.many[string(seen)] = struct{}{}
		}
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
// [i]; empty never, the repeated key is its last step). data should be one
// valid JSON value: on anything else the answer is only "no duplicate
// found so far", never a panic.
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
	p := pathScan{Scanner: Scanner{Data: data}}
	p.value("")
	return p.path, p.found
}

// pathScan finds the first repeat again, this time tracking the path.
type pathScan struct {
	Scanner
	path  string
	found bool
}

func (p *pathScan) value(path string) {
	switch p.Peek() {
	case '{':
		p.object(path)
	case '[':
		p.Pos++
		if p.Peek() == ']' {
			p.Pos++
			return
		}
		for i := 0; !p.found && !p.Bad; i++ {
			p.value(path + "[" + strconv.Itoa(i) + "]")
			if p.found || p.Bad {
				return
			}
			if p.Peek() != ',' {
				p.Pos++ // ']'
				return
			}
			p.Pos++
		}
	default:
		p.Skip()
	}
}

func (p *pathScan) object(path string) {
	p.Pos++ // '{'
	if p.Peek() == '}' {
		p.Pos++
		return
	}
	var keys KeySet
	for !p.found && !p.Bad {
		p.WS()
		ks := p.Pos
		plain := p.ScanString()
		if p.Bad {
			return
		}
		raw := p.Data[ks:p.Pos]
		name := string(raw[1 : len(raw)-1])
		if !plain {
			name = string(decodedName(raw))
			name = name[1 : len(name)-1]
		}
		at := name
		if path != "" {
			at = path + "." + name
		}
		if keys.Add(raw, plain) {
			p.path, p.found = at, true
			return
		}
		if !p.Expect(':') {
			return
		}
		p.value(at)
		if p.found || p.Bad {
			return
		}
		if p.Peek() != ',' {
			p.Pos++ // '}'
			return
		}
		p.Pos++
	}
}

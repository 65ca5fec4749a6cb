package ndjson

import (
	"encoding/json"

	"github.com/reasonix/reasonix-desktop/protocol/internal/jsonscan"
)

// inlineKeys is how many keys of one object are compared pairwise before a
// map takes over: frames are mostly small objects, and comparing a handful
// of byte slices costs less than hashing them.
const inlineKeys = 16

// duplicateKey reports the first member name that appears twice in one
// object anywhere inside v, a JSON value the envelope scan already found
// valid. A frame is ambiguous if any object in it repeats a name: one
// decoder takes the first, another the last ("decision":"continue",
// "decision":"block"), so it is refused wherever it is (DESIGN "What a
// hostile or broken plugin can never do").
func duplicateKey(v []byte) (string, bool) {
	// Objects without a second '"' after a '{' cannot repeat a name; the
	// common cheap exit is a value without any object at all.
	hasObject := false
	for _, b := range v {
		if b == '{' {
			hasObject = true
			break
		}
	}
	if !hasObject {
		return "", false
	}
	d := dupScan{sc: jsonscan.Scanner{Data: v}}
	d.value()
	return d.dup, d.found
}

type dupScan struct {
	sc    jsonscan.Scanner
	dup   string
	found bool
}

func (d *dupScan) repeat(key []byte) {
	d.dup, d.found = string(key[1:len(key)-1]), true
}

func (d *dupScan) value() {
	switch d.sc.Peek() {
	case '{':
		d.object()
	case '[':
		d.sc.Pos++
		if d.sc.Peek() == ']' {
			d.sc.Pos++
			return
		}
		for !d.found && !d.sc.Bad {
			d.value()
			if d.sc.Peek() == ',' {
				d.sc.Pos++
				continue
			}
			d.sc.Pos++ // ']'
			return
		}
	default:
		d.sc.Skip()
	}
}

func (d *dupScan) object() {
	d.sc.Pos++ // '{'
	if d.sc.Peek() == '}' {
		d.sc.Pos++
		return
	}
	var small [inlineKeys][]byte
	n := 0
	var many map[string]struct{}
	for !d.found && !d.sc.Bad {
		d.sc.WS()
		ks := d.sc.Pos
		plain := d.sc.ScanString()
		key := d.sc.Data[ks:d.sc.Pos]
		if !plain {
			// Escapes: compare the decoded names ("a" and "\u0061" are one).
			var s string
			if json.Unmarshal(key, &s) == nil {
				key = []byte(`"` + s + `"`)
			}
		}
		if many == nil {
			for _, k := range small[:n] {
				if string(k) == string(key) {
					d.repeat(key)
					return
				}
			}
			if n < inlineKeys {
				small[n] = key
				n++
			} else {
				many = make(map[string]struct{}, 2*inlineKeys)
				for _, k := range small {
					many[string(k)] = struct{}{}
				}
			}
		}
		if many != nil {
			if _, seen := many[string(key)]; seen {
				d.repeat(key)
				return
			}
			many[string(key)] = struct{}{}
		}
		d.sc.Expect(':')
		d.sc.WS()
		d.value()
		if d.sc.Peek() == ',' {
			d.sc.Pos++
			continue
		}
		d.sc.Pos++ // '}'
		return
	}
}

package protocol

import (
	"encoding"
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"sync"

	"github.com/reasonix/reasonix-desktop/protocol/internal/jsonscan"
)

// The fast decoder fills a zero struct from input the validator accepted,
// in one pass and without encoding/json's second scan of the input. It
// handles the shapes the wire DTOs use (structs, strings and string enums,
// booleans, numbers, pointers, slices, string-keyed maps, json.RawMessage
// and interface values) with encoding/json's results. Anything else, and
// anything unexpected on the way (a duplicate key, a number that does not
// fit its field), makes it give up: the destination is zeroed again and
// json.Unmarshal decodes it, errors included, exactly as before.

// fastKind is how the fast decoder fills one Go type.
type fastKind uint8

const (
	fastNone   fastKind = iota // unsupported: use json.Unmarshal
	fastString                 // string kinds
	fastBool
	fastInt
	fastUint
	fastFloat
	fastPointer
	fastSlice
	fastMap
	fastStruct
	fastRaw   // json.RawMessage: a copy of the bytes
	fastIface // interface values: json.Unmarshal of that value alone
)

// fastType is the decode plan of one Go type.
type fastType struct {
	kind   fastKind
	typ    reflect.Type
	elem   *fastType            // pointer, slice and map values
	fields map[string]fastField // struct fields by JSON name
	nfield int
}

type fastField struct {
	index int // struct field index
	seen  int // bit in the duplicate mask
	t     *fastType
}

var (
	fastMu    sync.Mutex
	fastTypes sync.Map // reflect.Type → *fastType
	fastRoots sync.Map // reflect.Type → *fastType of a struct fully supported, or nil

	jsonUnmarshalerType = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// fastTypeOf returns the plan of t: kind fastNone when t itself is not
// supported. A container's plan may still lead to unsupported types; see
// complete.
func fastTypeOf(t reflect.Type) *fastType {
	if ft, ok := fastTypes.Load(t); ok {
		return ft.(*fastType)
	}
	fastMu.Lock()
	defer fastMu.Unlock()
	building := map[reflect.Type]*fastType{}
	ft := buildFastType(t, building)
	for t, ft := range building { // published only once all are complete
		fastTypes.Store(t, ft)
	}
	return ft
}

// buildFastType builds the plan of t; building holds the plans of this
// build so recursive types terminate. The caller holds fastMu.
func buildFastType(t reflect.Type, building map[reflect.Type]*fastType) *fastType {
	if ft, ok := fastTypes.Load(t); ok {
		return ft.(*fastType)
	}
	if ft, ok := building[t]; ok {
		return ft
	}
	ft := &fastType{typ: t}
	building[t] = ft
	defer func() {
		if ft.kind == fastNone {
			ft.elem, ft.fields = nil, nil
		}
	}()
	if t == rawMessageType {
		ft.kind = fastRaw
		return ft
	}
	if t.Kind() != reflect.Pointer && t.Kind() != reflect.Interface &&
		(reflect.PointerTo(t).Implements(jsonUnmarshalerType) || reflect.PointerTo(t).Implements(textUnmarshalerType)) {
		return ft // custom decoding
	}
	switch t.Kind() {
	case reflect.String:
		ft.kind = fastString
	case reflect.Bool:
		ft.kind = fastBool
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		ft.kind = fastInt
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		ft.kind = fastUint
	case reflect.Float32, reflect.Float64:
		ft.kind = fastFloat
	case reflect.Interface:
		if t.NumMethod() == 0 {
			ft.kind = fastIface
		}
	case reflect.Pointer:
		if t.Implements(jsonUnmarshalerType) || t.Implements(textUnmarshalerType) {
			return ft
		}
		ft.kind, ft.elem = fastPointer, buildFastType(t.Elem(), building)
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			return ft // []byte is base64 in encoding/json
		}
		ft.kind, ft.elem = fastSlice, buildFastType(t.Elem(), building)
	case reflect.Map:
		k := t.Key()
		if k.Kind() != reflect.String || reflect.PointerTo(k).Implements(textUnmarshalerType) {
			return ft
		}
		ft.kind, ft.elem = fastMap, buildFastType(t.Elem(), building)
	case reflect.Struct:
		ft.fields = map[string]fastField{}
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			if f.Anonymous {
				return ft // embedded fields are promoted by encoding/json
			}
			if !f.IsExported() {
				continue
			}
			tag := f.Tag.Get("json")
			name, opts, _ := strings.Cut(tag, ",")
			if name == "-" && opts == "" {
				continue
			}
			if strings.Contains(","+opts+",", ",string,") {
				return ft
			}
			if name == "" {
				name = f.Name
			}
			if _, dup := ft.fields[name]; dup {
				return ft // conflicting names: encoding/json's rules apply
			}
			ft.fields[name] = fastField{index: i, seen: ft.nfield, t: buildFastType(f.Type, building)}
			ft.nfield++
		}
		ft.kind = fastStruct
	}
	return ft
}

// fastRoot returns the plan of a struct type the fast decoder fully
// supports, or nil.
func fastRoot(t reflect.Type) *fastType {
	if ft, ok := fastRoots.Load(t); ok {
		return ft.(*fastType)
	}
	ft := fastTypeOf(t)
	if ft.kind != fastStruct || !ft.complete() {
		ft = nil
	}
	fastRoots.Store(t, ft)
	return ft
}

// decodeFast fills rv (a zero struct) from data, which the validator
// accepted. It reports false when it gave up; rv is then zero again.
func decodeFast(data []byte, rv reflect.Value) bool {
	ft := fastRoot(rv.Type())
	if ft == nil {
		return false
	}
	d := fastDecoder{Scanner: jsonscan.Scanner{Data: data}}
	if d.value(ft, rv) && !d.Bad {
		return true
	}
	rv.SetZero()
	return false
}

// complete reports whether every type reachable from ft is supported.
func (ft *fastType) complete() bool {
	return ft.walk(map[*fastType]bool{})
}

func (ft *fastType) walk(seen map[*fastType]bool) bool {
	if seen[ft] {
		return true
	}
	seen[ft] = true
	switch ft.kind {
	case fastNone:
		return false
	case fastPointer, fastSlice, fastMap:
		return ft.elem.walk(seen)
	case fastStruct:
		for _, f := range ft.fields {
			if !f.t.walk(seen) {
				return false
			}
		}
	}
	return true
}

type fastDecoder struct {
	jsonscan.Scanner
}

// value decodes the value at Pos into v, which is zero.
func (d *fastDecoder) value(ft *fastType, v reflect.Value) bool {
	c := d.Peek()
	if c == 'n' && ft.kind != fastRaw {
		d.Pos += len("null") // a zero value stays zero
		return true
	}
	switch ft.kind {
	case fastString:
		if c != '"' {
			return false
		}
		s, ok := d.str()
		if !ok {
			return false
		}
		v.SetString(s)
	case fastBool:
		switch c {
		case 't':
			d.Pos += len("true")
			v.SetBool(true)
		case 'f':
			d.Pos += len("false")
		default:
			return false
		}
	case fastInt, fastUint, fastFloat:
		return d.number(ft.kind, v)
	case fastPointer:
		p := reflect.New(ft.typ.Elem())
		if !d.value(ft.elem, p.Elem()) {
			return false
		}
		v.Set(p)
	case fastSlice:
		return d.slice(ft, v)
	case fastMap:
		return d.mapValue(ft, v)
	case fastStruct:
		return d.object(ft, v)
	case fastRaw:
		start := d.Pos
		d.Skip()
		v.SetBytes(append([]byte(nil), d.Data[start:d.Pos]...))
	case fastIface:
		start := d.Pos
		d.Skip()
		var x any
		if json.Unmarshal(d.Data[start:d.Pos], &x) != nil {
			return false
		}
		if x != nil {
			v.Set(reflect.ValueOf(x))
		}
	default:
		return false
	}
	return !d.Bad
}

// str decodes the string at Pos.
func (d *fastDecoder) str() (string, bool) {
	start := d.Pos
	plain := d.ScanString()
	if d.Bad {
		return "", false
	}
	raw := d.Data[start:d.Pos]
	if plain {
		return string(raw[1 : len(raw)-1]), true
	}
	return jsonscan.Unquote(raw)
}

func (d *fastDecoder) number(kind fastKind, v reflect.Value) bool {
	start := d.Pos
	integral := d.ScanNumber()
	if d.Bad {
		return false
	}
	num := d.Data[start:d.Pos]
	switch kind {
	case fastInt:
		n, ok := jsonscan.ParseInt64(num)
		if !ok || !integral || v.OverflowInt(n) {
			return false
		}
		v.SetInt(n)
	case fastUint:
		if !integral || num[0] == '-' {
			return false
		}
		n, err := strconv.ParseUint(string(num), 10, 64)
		if err != nil || v.OverflowUint(n) {
			return false
		}
		v.SetUint(n)
	default:
		f, err := strconv.ParseFloat(string(num), v.Type().Bits())
		if err != nil || v.OverflowFloat(f) {
			return false
		}
		v.SetFloat(f)
	}
	return true
}

func (d *fastDecoder) slice(ft *fastType, v reflect.Value) bool {
	if d.Peek() != '[' {
		return false
	}
	d.Pos++
	if d.Peek() == ']' {
		d.Pos++
		v.Set(reflect.MakeSlice(ft.typ, 0, 0))
		return true
	}
	v.Set(reflect.MakeSlice(ft.typ, 0, 4))
	for n := 0; ; n++ {
		if n == v.Cap() {
			v.Grow(1)
		}
		v.SetLen(n + 1)
		if !d.value(ft.elem, v.Index(n)) {
			return false
		}
		switch d.Peek() {
		case ',':
			d.Pos++
			continue
		case ']':
			d.Pos++
			return true
		}
		return false
	}
}

func (d *fastDecoder) mapValue(ft *fastType, v reflect.Value) bool {
	if d.Peek() != '{' {
		return false
	}
	d.Pos++
	m := reflect.MakeMap(ft.typ)
	v.Set(m)
	if d.Peek() == '}' {
		d.Pos++
		return true
	}
	keyType, elemType := ft.typ.Key(), ft.typ.Elem()
	for {
		if d.Peek() != '"' {
			return false
		}
		k, ok := d.str()
		if !ok || !d.Expect(':') {
			return false
		}
		elem := reflect.New(elemType).Elem()
		if !d.value(ft.elem, elem) {
			return false
		}
		key := reflect.ValueOf(k)
		if keyType != key.Type() {
			key = key.Convert(keyType)
		}
		m.SetMapIndex(key, elem)
		switch d.Peek() {
		case ',':
			d.Pos++
			continue
		case '}':
			d.Pos++
			return true
		}
		return false
	}
}

func (d *fastDecoder) object(ft *fastType, v reflect.Value) bool {
	if d.Peek() != '{' {
		return false
	}
	d.Pos++
	if d.Peek() == '}' {
		d.Pos++
		return true
	}
	var seenBuf [2]uint64
	seen := seenBuf[:]
	if n := (ft.nfield + 63) / 64; n > len(seen) {
		seen = make([]uint64, n)
	}
	for {
		if d.Peek() != '"' {
			return false
		}
		start := d.Pos
		plain := d.ScanString()
		end := d.Pos
		if d.Bad || !plain || !d.Expect(':') {
			return false // escaped keys are left to encoding/json
		}
		f, ok := ft.fields[string(d.Data[start+1:end-1])]
		if !ok {
			return false
		}
		if seen[f.seen/64]&(1<<(f.seen%64)) != 0 {
			return false // encoding/json merges duplicates into the field
		}
		seen[f.seen/64] |= 1 << (f.seen % 64)
		if !d.value(f.t, v.Field(f.index)) {
			return false
		}
		switch d.Peek() {
		case ',':
			d.Pos++
			continue
		case '}':
			d.Pos++
			return true
		}
		return false
	}
}

package protocol

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// Schema is the compiled form of one Go type's wire schema. The canonical
// JSON schema is rendered from it and the strict decoder validates against
// it, so there is exactly one description of every DTO: its struct tags.
type Schema struct {
	Ref            string  // name in $defs when this node refers to a struct
	def            *Schema // the definition Ref names
	Type           string  // object, array, string, integer, number, boolean, or "" for any value
	Properties     map[string]*Schema
	Required       []string // sorted
	MapValues      *Schema  // for maps: the value schema (nil with AnyValues means "true")
	AnyValues      bool
	Items          *Schema
	Enum           []string // sorted
	MinLength      *int
	Minimum        *float64
	Maximum        *float64
	Externalizable bool
	Nullable       bool // Go encodes a nil value of this type as null; the decoder accepts it

	plan *objectPlan // Properties indexed for the validator; set by compileDef
}

var (
	compiledMu sync.RWMutex
	compiled   = map[reflect.Type]*Schema{} // struct types → their definition
)

var (
	rawMessageType = reflect.TypeFor[json.RawMessage]()
	enumType       = reflect.TypeFor[Enum]()
)

// SchemaOf returns the definition of a struct type (not a $ref node).
func SchemaOf(t reflect.Type) *Schema {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	compiledMu.RLock()
	s, ok := compiled[t]
	compiledMu.RUnlock()
	if ok {
		return s
	}
	compiledMu.Lock()
	defer compiledMu.Unlock()
	return compileDef(t)
}

// compileDef compiles a struct definition; the caller holds compiledMu.
func compileDef(t reflect.Type) *Schema {
	if s, ok := compiled[t]; ok {
		return s
	}
	s := &Schema{Type: "object", Properties: map[string]*Schema{}}
	compiled[t] = s // before the fields, so recursive types terminate
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		prop := compileField(f.Type)
		if err := applyTag(prop, f.Tag.Get("schema")); err != nil {
			panic(fmt.Sprintf("protocol: %s.%s: %v", t.Name(), f.Name, err))
		}
		s.Properties[name] = prop
		if !strings.Contains(opts, "omitempty") {
			s.Required = append(s.Required, name)
		}
	}
	sort.Strings(s.Required)
	s.plan = newObjectPlan(s)
	return s
}

func compileField(t reflect.Type) *Schema {
	if t == rawMessageType {
		return &Schema{Nullable: true}
	}
	if t.Kind() == reflect.String && t.Implements(enumType) {
		values := reflect.Zero(t).Interface().(Enum).EnumValues()
		enum := append([]string(nil), values...)
		sort.Strings(enum)
		return &Schema{Type: "string", Enum: enum}
	}
	switch t.Kind() {
	case reflect.Pointer:
		inner := compileField(t.Elem())
		inner.Nullable = true
		return inner
	case reflect.String:
		return &Schema{Type: "string"}
	case reflect.Bool:
		return &Schema{Type: "boolean"}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return &Schema{Type: "integer"}
	case reflect.Float32, reflect.Float64:
		return &Schema{Type: "number"}
	case reflect.Slice, reflect.Array:
		return &Schema{Type: "array", Items: compileField(t.Elem()), Nullable: true}
	case reflect.Map:
		if t.Key().Kind() != reflect.String {
			panic("protocol: map keys must be strings: " + t.String())
		}
		if t.Elem().Kind() == reflect.Interface {
			return &Schema{Type: "object", AnyValues: true, Nullable: true}
		}
		return &Schema{Type: "object", MapValues: compileField(t.Elem()), Nullable: true}
	case reflect.Interface:
		return &Schema{Nullable: true}
	case reflect.Struct:
		return &Schema{Ref: t.Name(), def: compileDef(t)}
	}
	panic("protocol: unsupported wire type " + t.String())
}

func applyTag(s *Schema, tag string) error {
	if tag == "" {
		return nil
	}
	for _, part := range strings.Split(tag, ",") {
		key, val, _ := strings.Cut(part, "=")
		switch key {
		case "externalizable":
			s.Externalizable = true
		case "minLength":
			n, err := strconv.Atoi(val)
			if err != nil {
				return fmt.Errorf("minLength %q: %w", val, err)
			}
			s.MinLength = &n
		case "minimum", "maximum":
			f, err := strconv.ParseFloat(val, 64)
			if err != nil {
				return fmt.Errorf("%s %q: %w", key, val, err)
			}
			if key == "minimum" {
				s.Minimum = &f
			} else {
				s.Maximum = &f
			}
		default:
			return fmt.Errorf("unknown schema tag %q", key)
		}
	}
	return nil
}

// resolve follows a $ref node to its definition.
func (s *Schema) resolve() *Schema {
	if s.def != nil {
		return s.def
	}
	return s
}

// render turns a node into its JSON-schema form.
func (s *Schema) render() any {
	if s.Ref != "" {
		return map[string]any{"$ref": "#/$defs/" + s.Ref}
	}
	out := map[string]any{}
	if s.Type != "" {
		out["type"] = s.Type
	}
	if s.Externalizable {
		out["x-externalizable"] = true
	}
	if s.Enum != nil {
		out["enum"] = s.Enum
	}
	if s.MinLength != nil {
		out["minLength"] = *s.MinLength
	}
	if s.Minimum != nil {
		out["minimum"] = *s.Minimum
	}
	if s.Maximum != nil {
		out["maximum"] = *s.Maximum
	}
	if s.Items != nil {
		out["items"] = s.Items.render()
	}
	switch {
	case s.Properties != nil:
		props := map[string]any{}
		for name, p := range s.Properties {
			props[name] = p.render()
		}
		out["properties"] = props
		out["additionalProperties"] = false
		if len(s.Required) > 0 {
			out["required"] = s.Required
		}
	case s.AnyValues:
		out["additionalProperties"] = true
	case s.MapValues != nil:
		out["additionalProperties"] = s.MapValues.render()
	}
	if len(out) == 0 {
		return true // any JSON value
	}
	return out
}

// Document builds the canonical schema document from the method table, the
// hook points, the limits and the error table.
func Document() map[string]any {
	defs := map[string]any{}
	var addDef func(name string, def *Schema)
	addDef = func(name string, def *Schema) {
		if _, done := defs[name]; done {
			return
		}
		defs[name] = def.render()
		for _, ref := range refsOf(def) {
			addDef(ref.Ref, ref.def)
		}
	}
	ref := func(t reflect.Type) map[string]any {
		addDef(t.Name(), SchemaOf(t))
		return map[string]any{"$ref": "#/$defs/" + t.Name()}
	}
	methods := map[string]any{}
	for _, m := range Methods() {
		entry := map[string]any{
			"class":        string(m.Class),
			"direction":    string(m.Direction),
			"notification": m.Notification,
			"params":       ref(m.Params),
			"result":       nil,
		}
		if m.Result != nil {
			entry["result"] = ref(m.Result)
		}
		methods[m.Name] = entry
	}
	errs := []any{}
	for _, e := range ErrorTable() {
		errs = append(errs, map[string]any{"jsonRpcCode": e.JSONRPCCode, "message": e.Message, "reason": string(e.Reason), "retryable": e.Retryable})
	}
	events := HookPoint("").EnumValues()
	sort.Strings(events)
	limits := map[string]any{}
	for _, l := range Limits() {
		limits[l.Name] = l.Bytes
	}
	return map[string]any{
		"$defs":           defs,
		"$id":             ProtocolID,
		"$schema":         SchemaDialect,
		"errors":          errs,
		"interceptEvents": events,
		"limits":          limits,
		"methods":         methods,
		"protocol":        ProtocolID,
		"protocolID":      ProtocolID,
		"protocolMajor":   ProtocolMajor,
		"title":           SchemaTitle,
	}
}

// refsOf lists the $ref nodes directly inside a definition.
func refsOf(s *Schema) []*Schema {
	var out []*Schema
	var walk func(*Schema)
	walk = func(n *Schema) {
		if n == nil {
			return
		}
		if n.Ref != "" {
			out = append(out, n)
			return
		}
		for _, p := range n.Properties {
			walk(p)
		}
		walk(n.Items)
		walk(n.MapValues)
	}
	walk(s)
	return out
}

// CanonicalSchema renders the schema document in canonical form: compact
// JSON, sorted keys, no HTML escaping, no trailing newline.
func CanonicalSchema() []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(Document()); err != nil {
		panic("protocol: render schema: " + err.Error())
	}
	return bytes.TrimRight(buf.Bytes(), "\n")
}

// CanonicalSchemaHash is "sha256:" + the hex digest of CanonicalSchema.
func CanonicalSchemaHash() string {
	sum := sha256.Sum256(CanonicalSchema())
	return "sha256:" + hex.EncodeToString(sum[:])
}

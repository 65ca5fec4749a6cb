// Package content owns the per-connection content store: payloads too large
// to travel inline (over 64 KiB serialized) are kept here and referenced by
// an ExternalizedField; the sidecar pages them back with host/content/read.
// It also checks replacement descriptors a sidecar sends back by reference.
package content

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"sync"

	"github.com/reasonix/reasonix-desktop/protocol"
)

// MaxObjects is how many objects one connection keeps; the oldest goes first.
const MaxObjects = 64

// PayloadPointer is the only pointer v2 externalizes on intercepts and
// events; ReplacementPointer the only one a sidecar may send back.
const (
	PayloadPointer     = "/payload"
	ReplacementPointer = "/replacement"
)

var null = json.RawMessage("null")

type object struct {
	data []byte
	sum  string
}

// Store is one connection's content store. It is safe for concurrent use.
type Store struct {
	mu      sync.Mutex
	objects map[string]*object
	order   []string // insertion order, oldest first
}

// NewStore makes an empty store.
func NewStore() *Store { return &Store{objects: map[string]*object{}} }

// Put stores data and describes it at pointer. Objects over 8 MiB are
// refused with frame_too_large.
func (s *Store) Put(pointer string, data []byte) (protocol.ExternalizedField, error) {
	if len(data) > protocol.ContentRefObjectBytes {
		return protocol.ExternalizedField{}, protocol.Errorf(protocol.ReasonFrameTooLarge,
			"content object of %d bytes exceeds the %d byte limit", len(data), protocol.ContentRefObjectBytes)
	}
	sum := sha256.Sum256(data)
	obj := &object{data: bytes.Clone(data), sum: hex.EncodeToString(sum[:])}
	ref := newRef()
	s.mu.Lock()
	s.objects[ref] = obj
	s.order = append(s.order, ref)
	for len(s.order) > MaxObjects {
		delete(s.objects, s.order[0])
		s.order = s.order[1:]
	}
	s.mu.Unlock()
	return protocol.ExternalizedField{JSONPointer: pointer, ContentRef: ref, TotalBytes: int64(len(data)), SHA256: obj.sum}, nil
}

// Len is the number of objects held.
func (s *Store) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.objects)
}

func (s *Store) get(ref string) (*object, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	o, ok := s.objects[ref]
	return o, ok
}

// Read answers host/content/read: one page of at most 256 KiB, nextOffset
// omitted on the last page. Unknown refs and offsets past the end are
// content_ref_expired.
func (s *Store) Read(p protocol.ContentReadParams) (*protocol.ContentReadResult, error) {
	o, ok := s.get(p.ContentRef)
	if !ok {
		return nil, protocol.Errorf(protocol.ReasonContentRefExpired, "content ref %q is unknown or expired", p.ContentRef)
	}
	total := int64(len(o.data))
	if p.Offset > total {
		return nil, protocol.Errorf(protocol.ReasonContentRefExpired, "offset %d is past the end of %s (%d bytes)", p.Offset, p.ContentRef, total)
	}
	end := min(p.Offset+protocol.ContentRefChunkBytes, total)
	res := &protocol.ContentReadResult{
		ContentRef: p.ContentRef,
		Offset:     p.Offset,
		TotalBytes: total,
		SHA256:     o.sum,
		Encoding:   protocol.EncodingUTF8,
		DataBase64: base64.StdEncoding.EncodeToString(o.data[p.Offset:end]),
	}
	if end < total {
		res.NextOffset = end
	}
	return res, nil
}

// Handle is the host/content/read handler for an ndjson connection.
func (s *Store) Handle(_ context.Context, params json.RawMessage) (any, error) {
	var p protocol.ContentReadParams
	if err := protocol.DecodeStrict(params, &p); err != nil {
		return nil, protocol.Errorf(protocol.ReasonInvalidParams, "host/content/read: %v", err)
	}
	return s.Read(p)
}

// Externalize returns payload as it should travel: inline when it is at most
// 64 KiB, else null plus one descriptor at /payload.
func (s *Store) Externalize(payload json.RawMessage) (json.RawMessage, []protocol.ExternalizedField, error) {
	if len(payload) <= protocol.ExternalizeFieldBytes {
		return payload, nil, nil
	}
	field, err := s.Put(PayloadPointer, payload)
	if err != nil {
		return nil, nil, err
	}
	return null, []protocol.ExternalizedField{field}, nil
}

// ResolveReplacement returns the replacement of an intercept result, reading
// it from the store when it came back by reference. A referenced
// replacement must be exactly one descriptor at /replacement with a null
// inline value, at most 8 MiB, naming an object of this store whose byte
// count and sha256 match; anything else is protocol_error.
func (s *Store) ResolveReplacement(res *protocol.InterceptResult) (json.RawMessage, error) {
	if len(res.Externalized) == 0 {
		return res.Replacement, nil
	}
	bad := func(format string, args ...any) error {
		return protocol.Errorf(protocol.ReasonProtocolError, "replacement by reference: "+format, args...)
	}
	if len(res.Externalized) != 1 {
		return nil, bad("want exactly one descriptor, got %d", len(res.Externalized))
	}
	d := res.Externalized[0]
	if d.JSONPointer != ReplacementPointer {
		return nil, bad("descriptor points at %q, want %q", d.JSONPointer, ReplacementPointer)
	}
	if len(res.Replacement) != 0 && !bytes.Equal(bytes.TrimSpace(res.Replacement), null) {
		return nil, bad("the inline replacement must be null")
	}
	if d.TotalBytes > protocol.ContentRefObjectBytes {
		return nil, bad("%d bytes exceeds the %d byte limit", d.TotalBytes, protocol.ContentRefObjectBytes)
	}
	o, ok := s.get(d.ContentRef)
	if !ok {
		return nil, bad("content ref %q is unknown or expired", d.ContentRef)
	}
	if int64(len(o.data)) != d.TotalBytes {
		return nil, bad("totalBytes %d does not match the object's %d bytes", d.TotalBytes, len(o.data))
	}
	if d.SHA256 != o.sum {
		return nil, bad("sha256 %q does not match the object", d.SHA256)
	}
	return bytes.Clone(o.data), nil
}

func newRef() string {
	var b [12]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic("content: no randomness: " + err.Error())
	}
	return "content_" + hex.EncodeToString(b[:])
}

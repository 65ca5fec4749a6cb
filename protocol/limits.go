package protocol

// Frozen limits of Extension Protocol v2. They are part of the canonical schema
// ("limits") and never change within the major version.
const (
	// FrameBytes caps one NDJSON frame, including its trailing newline.
	FrameBytes = 8 << 20
	// ExternalizeFieldBytes is the serialized size above which an
	// externalizable field travels as a content ref instead of inline.
	ExternalizeFieldBytes = 64 << 10
	// ContentRefChunkBytes is the page size of host/content/read.
	ContentRefChunkBytes = 256 << 10
	// ContentRefObjectBytes caps one content object.
	ContentRefObjectBytes = 8 << 20
)

// Limit is one named frozen limit, in the order the generated index lists them.
type Limit struct {
	Name  string
	Bytes int
	Doc   string
}

// Limits lists the frozen limits by their schema names.
func Limits() []Limit {
	return []Limit{
		{"contentRefChunkBytes", ContentRefChunkBytes, "page size of host/content/read"},
		{"contentRefObjectBytes", ContentRefObjectBytes, "largest content object"},
		{"externalizeFieldBytes", ExternalizeFieldBytes, "serialized size above which a field is externalized"},
		{"frameBytes", FrameBytes, "largest NDJSON frame, newline included"},
	}
}

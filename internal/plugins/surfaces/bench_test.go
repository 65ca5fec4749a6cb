package surfaces

import (
	"testing"
)

func BenchmarkPublishStatus(b *testing.B) {
	s := newTestStore(b)
	defer s.Subscribe(func(Change) {})()
	raw := params("status", "progress", sess, gen, `{"label":"Indexing workspace","detail":"file 812 of 4096","severity":"info","progress":0.42}`)
	b.ReportAllocs()
	for b.Loop() {
		if res, err := s.Publish("p", raw); err != nil || !res.Accepted {
			b.Fatal(res, err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "publishes/s")
}

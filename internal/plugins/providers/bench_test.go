package providers_test

import (
	"bufio"
	"context"
	"encoding/json"
	"os/exec"
	"strconv"
	"testing"
	"time"

	"github.com/reasonix/reasonix-desktop/internal/packages/plugin"
	"github.com/reasonix/reasonix-desktop/internal/plugins/providers"
	"github.com/reasonix/reasonix-desktop/internal/plugins/sidecar"
	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
	"github.com/reasonix/reasonix-desktop/protocol"
	"github.com/reasonix/reasonix-desktop/protocol/ndjson"
)

const chunkBytes = 64

func report(b *testing.B, elapsed time.Duration, n int) {
	b.ReportMetric(float64(n)/elapsed.Seconds(), "chunks/s")
	b.ReportMetric(float64(n*chunkBytes)/elapsed.Seconds()/1e6, "MB/s")
}

// BenchmarkStreamRaw is the baseline: a raw child writes b.N chunk
// notifications with encoding/json and the parent decodes each one.
func BenchmarkStreamRaw(b *testing.B) {
	cmd := exec.Command(testutil.Binary(b, "internal/testing/testplugins/rawchild"), "flood")
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	defer func() { in.Close(); cmd.Wait() }()
	sc := bufio.NewScanner(out)
	sc.Buffer(make([]byte, 1<<20), 8<<20)
	b.ResetTimer()
	start := time.Now()
	in.Write([]byte(`{"n":` + strconv.Itoa(b.N) + `,"size":` + strconv.Itoa(chunkBytes) + "}\n"))
	for i := 0; i < b.N; i++ {
		if !sc.Scan() {
			b.Fatal("short stream")
		}
		var f struct {
			Params protocol.StreamChunkParams `json:"params"`
		}
		if err := json.Unmarshal(sc.Bytes(), &f); err != nil {
			b.Fatal(err)
		}
	}
	report(b, time.Since(start), b.N)
}

// BenchmarkStreamReassembly streams b.N chunks from an SDK provider sidecar
// through the hub's strict decode, ordering and event delivery.
func BenchmarkStreamReassembly(b *testing.B) {
	hub := providers.NewHub(nil)
	bin := testutil.Binary(b, "internal/testing/testplugins/noop")
	root := testutil.PluginDir(b, "flood", bin, map[string]any{
		"provides": []map[string]any{{"kind": "provider", "id": "flood"}},
		"runtime": map[string]any{"capabilities": []string{"providers"},
			"env": map[string]any{"NOOP_PROVIDER": "1", "NOOP_CHUNKS": strconv.Itoa(b.N), "NOOP_CHUNK_BYTES": strconv.Itoa(chunkBytes)}},
	})
	m, err := plugin.LoadManifest(root)
	if err != nil {
		b.Fatal(err)
	}
	c, err := sidecar.Start(context.Background(), sidecar.Options{Name: "flood", Root: root, Manifest: m,
		Session: protocol.SessionContext{SessionID: "s", WorkspaceRoot: root, Generation: 1},
		Bind:    func(c *sidecar.Client, conn *ndjson.Conn) { hub.Bind(c.Name(), conn) }})
	if err != nil {
		b.Fatal(err)
	}
	defer c.Shutdown(context.Background())
	b.ResetTimer()
	start := time.Now()
	s, err := hub.Open(context.Background(), c, providers.ModelID{Plugin: "flood", Provider: "flood", Model: "flood-1"}, "",
		protocol.ProviderRequest{Messages: []protocol.ProviderMessage{}, Tools: []protocol.ProviderToolSchema{}})
	if err != nil {
		b.Fatal(err)
	}
	n := 0
	for ev := range s.Events() {
		if ev.Type == protocol.ChunkText {
			n++
		}
	}
	if err := s.Err(); err != nil || n != b.N {
		b.Fatalf("%d of %d chunks: %v", n, b.N, err)
	}
	report(b, time.Since(start), n)
}

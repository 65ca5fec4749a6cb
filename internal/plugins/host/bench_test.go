package host_test

import (
	"bufio"
	"context"
	"os/exec"
	"sync"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/packages/plugin"
	"github.com/reasonix/reasonix-desktop/internal/plugins/host"
	"github.com/reasonix/reasonix-desktop/internal/plugins/sidecar"
	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
	"github.com/reasonix/reasonix-desktop/protocol"
)

// initializeLine is what the bare baseline writes: the same first line the
// host sends, pre-encoded.
const initializeLine = `{"jsonrpc":"2.0","id":1,"method":"extension/initialize","params":{"protocolId":"reasonix.extension.v2","protocolVersion":"2","manifest":{},"session":{"sessionId":"s","workspaceRoot":"/tmp","generation":1},"capabilities":{"contentRefs":true,"uiHost":"headless","protocolVersion":"2"}}}` + "\n"

// bareSpawn starts the sidecar binary, writes one line, reads one line.
func bareSpawn(b *testing.B, bin string) *exec.Cmd {
	cmd := exec.Command(bin)
	cmd.Env = []string{"REASONIX_PLUGIN_NAME=noop"}
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	if _, err := in.Write([]byte(initializeLine)); err != nil {
		b.Fatal(err)
	}
	if _, err := bufio.NewReader(out).ReadBytes('\n'); err != nil {
		b.Fatal(err)
	}
	return cmd
}

func reap(cmds []*exec.Cmd) {
	for _, c := range cmds {
		c.Process.Kill()
		c.Wait()
	}
}

// BenchmarkBareSpawn1 is the baseline of BenchmarkColdStart1.
func BenchmarkBareSpawn1(b *testing.B) {
	bin := testutil.Binary(b, "internal/testing/testplugins/noop")
	for b.Loop() {
		cmd := bareSpawn(b, bin)
		b.StopTimer()
		reap([]*exec.Cmd{cmd})
		b.StartTimer()
	}
}

// BenchmarkColdStart1 is one sidecar spawned and handshaken by the host.
func BenchmarkColdStart1(b *testing.B) {
	bin := testutil.Binary(b, "internal/testing/testplugins/noop")
	root := testutil.PluginDir(b, "noop", bin, nil)
	m, err := plugin.LoadManifest(root)
	if err != nil {
		b.Fatal(err)
	}
	opts := sidecar.Options{Name: "noop", Root: root, Manifest: m,
		Session: protocol.SessionContext{SessionID: "s", WorkspaceRoot: root, Generation: 1}}
	for b.Loop() {
		c, err := sidecar.Start(context.Background(), opts)
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		c.Shutdown(context.Background())
		b.StartTimer()
	}
}

// BenchmarkBareSpawn8 is the baseline of BenchmarkColdStart8.
func BenchmarkBareSpawn8(b *testing.B) {
	bin := testutil.Binary(b, "internal/testing/testplugins/noop")
	for b.Loop() {
		cmds := make([]*exec.Cmd, 8)
		var wg sync.WaitGroup
		for i := range cmds {
			wg.Add(1)
			go func() {
				defer wg.Done()
				cmds[i] = bareSpawn(b, bin)
			}()
		}
		wg.Wait()
		b.StopTimer()
		reap(cmds)
		b.StartTimer()
	}
}

// BenchmarkColdStart8 is a generation of eight sidecars started by the
// runtime (at most four handshakes in flight).
func BenchmarkColdStart8(b *testing.B) {
	bin := testutil.Binary(b, "internal/testing/testplugins/noop")
	layout := plugin.Layout{Root: b.TempDir()}
	layout.EnsureDirs()
	store, _ := plugin.OpenStore(layout)
	for _, name := range []string{"n1", "n2", "n3", "n4", "n5", "n6", "n7", "n8"} {
		plan, err := plugin.Preview(store, testutil.PluginDir(b, name, bin, nil), plugin.InstallOptions{Link: true})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := plugin.Install(store, layout, plan); err != nil {
			b.Fatal(err)
		}
	}
	for b.Loop() {
		rt := host.New(host.Config{Layout: layout, WorkspaceRoot: layout.Root})
		gen, err := rt.Start(context.Background())
		if err != nil || len(gen.Clients()) != 8 {
			b.Fatalf("%v", err)
		}
		b.StopTimer()
		rt.Shutdown(context.Background())
		b.StartTimer()
	}
}

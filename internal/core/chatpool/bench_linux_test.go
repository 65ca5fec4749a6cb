//go:build linux

package chatpool_test

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/core/chatpool"
	"github.com/reasonix/reasonix-desktop/internal/packages/plugin"
	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
)

// The example sidecars a live chat runs (every v2 example).
var examples = []string{"echo-provider", "hello-surfaces", "openai-provider", "policy-guard"}

// rssKiB is a process's resident set (/proc/<pid>/status VmRSS).
func rssKiB(b *testing.B, pid int) float64 {
	f, err := os.Open(filepath.Join("/proc", strconv.Itoa(pid), "status"))
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			n, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 64)
			return n
		}
	}
	b.Fatalf("no VmRSS for %d", pid)
	return 0
}

// heapKiB is the host's heap in use after a collection.
func heapKiB() float64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return float64(m.HeapInuse) / 1024
}

// BenchmarkLiveChatMemory is what each live chat costs with the example
// plugins: its sidecars' resident memory plus the host heap its core
// holds, over 4 live chats (MiB/chat).
func BenchmarkLiveChatMemory(b *testing.B) {
	layout := plugin.Layout{Root: b.TempDir()}
	if err := layout.EnsureDirs(); err != nil {
		b.Fatal(err)
	}
	store, err := plugin.OpenStore(layout)
	if err != nil {
		b.Fatal(err)
	}
	for _, name := range examples {
		plan, err := plugin.Preview(store, testutil.ExamplePlugin(b, name), plugin.InstallOptions{Link: true})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := plugin.Install(store, layout, plan); err != nil {
			b.Fatal(err)
		}
	}
	shared, err := agent.OpenShared(agent.Config{Layout: layout})
	if err != nil {
		b.Fatal(err)
	}
	ws := b.TempDir()
	fe := &events{done: map[string]int{}, sig: make(chan struct{}, 1)}
	open := func(ctx context.Context, spec chatpool.Spec) (*agent.Core, error) {
		return agent.Open(ctx, agent.Config{Layout: layout, Workspace: ws, Frontend: fe, Shared: shared, Resume: spec.SessionID})
	}
	const chats = 4
	var perChat float64
	for b.Loop() {
		ctx := context.Background()
		before := heapKiB()
		p := chatpool.New(open, chats, nil)
		var total float64
		for range chats {
			c, err := p.Open(ctx, chatpool.Spec{})
			if err != nil {
				b.Fatal(err)
			}
			for _, cl := range c.Runtime().Current().Clients() {
				total += rssKiB(b, cl.PID())
			}
		}
		total += heapKiB() - before
		perChat = total / chats / 1024
		p.Close(ctx)
	}
	b.ReportMetric(perChat, "MiB/chat")
}

// BenchmarkBareSidecarsMemory is the floor: the same example binaries
// started without the host, waiting on their input, resident memory
// summed (MiB).
func BenchmarkBareSidecarsMemory(b *testing.B) {
	var bins []string
	for _, name := range examples {
		bins = append(bins, testutil.Binary(b, "examples/"+name))
	}
	var sum float64
	for b.Loop() {
		sum = 0
		var cmds []*exec.Cmd
		for _, bin := range bins {
			cmd := exec.Command(bin)
			in, err := cmd.StdinPipe()
			if err != nil {
				b.Fatal(err)
			}
			defer in.Close()
			out, err := cmd.StdoutPipe()
			if err != nil {
				b.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				b.Fatal(err)
			}
			// A sidecar is up once it waits on its input: its first line
			// would be an answer, so wait until it has read nothing and
			// settled, by asking it to answer one request it cannot parse.
			if _, err := in.Write([]byte("{}\n")); err != nil {
				b.Fatal(err)
			}
			if _, err := bufio.NewReader(out).ReadString('\n'); err != nil {
				b.Fatal(err)
			}
			cmds = append(cmds, cmd)
		}
		for _, cmd := range cmds {
			sum += rssKiB(b, cmd.Process.Pid)
		}
		for _, cmd := range cmds {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		}
	}
	b.ReportMetric(sum/1024, "MiB/chat")
}

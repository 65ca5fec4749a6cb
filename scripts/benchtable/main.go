// Command benchtable runs the project's benchmarks and prints one table:
// each row's figure beside its raw baseline measured in the same run, the
// ratio and the target. It is what `make bench` runs. Timings never decide
// a test; this table is where ratios are asserted (it exits 1 when a row
// misses its target, unless -report-only).
package main

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"
)

// row compares one benchmark with its baseline.
type row struct {
	issue string
	name  string
	pkg   string
	// bench and baseline name benchmark functions (without "Benchmark").
	// A leading "@" takes the figure of a benchmark another row runs; such
	// a reference may also be scaled ("@7*Name") or a difference of two
	// ("@A-B").
	bench    string
	baseline string // "" for an absolute target
	metric   string // "ns/op" or a custom unit such as "msgs/s"
	higher   bool   // higher is better
	// kind: "ratio" (bench/baseline ≤ or ≥ target), "delta" (bench-baseline
	// ≤ target, in the metric's unit) or "abs" (bench ≥ or ≤ target).
	kind   string
	target float64
	n      string // -benchtime
}

var rows = []row{
	{"2", "JSON-RPC round trip to a child", "./protocol/ndjson", "RoundTripChild", "RoundTripRawChild", "ns/op", false, "ratio", 1.3, "3000x"},
	{"2", "notification throughput to a child", "./protocol/ndjson", "NotifyChild", "NotifyRawChild", "msgs/s", true, "ratio", 0.8, "200000x"},
	// The host's path (write deadlines, the stall limit, Await's spin) must
	// not cost much over the plain framer on the same pipes and child.
	{"18", "JSON-RPC round trip through the host transport vs the default framer", "./internal/foundation/transport", "RoundTripTransportChild", "RoundTripDefaultChild", "ns/op", false, "ratio", 1.2, "3000x"},
	{"3", "cold start + handshake, 1 sidecar", "./internal/plugins/host", "ColdStart1", "BareSpawn1", "ns/op", false, "ratio", 1.5, "100x"},
	{"3", "cold start + handshake, 8 in parallel", "./internal/plugins/host", "ColdStart8", "BareSpawn8", "ns/op", false, "ratio", 1.3, "40x"},
	{"4", "one intercept through one sidecar", "./internal/plugins/intercept", "Intercept1", "InterceptRaw1", "ns/op", false, "ratio", 1.5, "3000x"},
	{"4", "a chain of 8 sidecars", "./internal/plugins/intercept", "Chain8", "ChainRaw8", "ns/op", false, "ratio", 1.3, "1000x"},
	{"4", "an event broadcast to 8 (host side)", "./internal/plugins/intercept", "Event8", "EventRaw8", "ns/op", false, "ratio", 0, "3000x"},
	{"4", "4 MiB through content refs and back", "./internal/plugins/intercept", "ContentRef4MiB", "ContentRefRaw4MiB", "ns/op", false, "ratio", 1.5, "20x"},
	{"5", "provider stream into the reassembler", "./internal/plugins/providers", "StreamReassembly", "StreamRaw", "chunks/s", true, "ratio", 0.8, "100000x"},
	{"5", "the same stream in bytes of chunk text", "./internal/plugins/providers", "@StreamReassembly", "@StreamRaw", "MB/s", true, "ratio", 0.8, "100000x"},
	{"5", "echo turn, 8 no-op interceptors on every point vs none (ms)", "./internal/core/agent", "Turn8", "Turn", "ns/op", false, "delta", 5e6, "100x"},
	// The 8 interceptors add 8 serial hops at each point of the turn: the
	// same intercept requests replayed through raw children are the floor
	// of that added cost.
	{"5", "that added cost vs the same intercepts replayed through 8 raw children", "./internal/core/agent", "@Turn8-Turn", "TurnRaw8", "ns/op", false, "ratio", 0, "100x"},
	{"6", "surface publishes absorbed by the store", "./internal/plugins/surfaces", "PublishStatus", "", "publishes/s", true, "abs", 1000, "20000x"},
	{"6", "transcript frames while streaming 10,000 chunks/s", "./internal/frontends/desktop/chat", "TranscriptStreaming", "", "frames/s", true, "abs", 30, "1x"},
	{"6", "status publishes into the desktop status bar", "./internal/frontends/desktop", "StatusPublishes", "", "publishes/s", true, "abs", 1000, "1x"},
	{"16", "transcript work per frame, streaming below 5,000 messages (ms)", "./internal/frontends/desktop/chat", "TranscriptStreamingHistory/history=5000", "", "ms/frame", false, "abs", 8, "1x"},
	{"16", "that work vs the same stream into an empty transcript", "./internal/frontends/desktop/chat", "@TranscriptStreamingHistory/history=5000", "@TranscriptStreaming", "ms/frame", false, "ratio", 1.5, "1x"},
	{"16", "transcript frames/s, streaming below 5,000 messages", "./internal/frontends/desktop/chat", "@TranscriptStreamingHistory/history=5000", "", "frames/s", true, "abs", 50, "1x"},
	{"16", "open a 5,000-message session to its first frame (ms)", "./internal/frontends/desktop/chat", "SessionOpen", "", "ms/open", false, "abs", 1000, "1x"},
	{"7", "tool call: hooks bus (no hook matches) + 1 xdev + 1 v2 vs one v2 intercept", "./internal/extensions/xdev", "ToolCallChain", "ToolCallV2", "ns/op", false, "ratio", 3, "1000x"},
	{"7", "that tool call vs tool.before through two v2 interceptors (as many processes)", "./internal/extensions/xdev", "@ToolCallChain", "ToolCallTwoV2", "ns/op", false, "ratio", 0, "1000x"},
	{"7", "a matching shell hook (a process per call) vs a bare spawn", "./internal/extensions/xdev", "MatchingHook", "BareSpawn", "ns/op", false, "ratio", 0, "200x"},
	// An MCP call through the host's manager (lookup, bound, redaction) vs the
	// same call from a bare go-sdk client to the same server; the chain's
	// cost for a tool call is the rows of issue 7 and 5.
	{"24", "one MCP tool call through the host vs a bare go-sdk client (ms)", "./internal/extensions/mcp", "CallManager", "CallBareSDK", "ns/op", false, "delta", 1e6, "300x"},
	// The same call as a turn's tool call through the whole chain (eight no-op
	// interceptors on every point) minus a built-in list_dir call in the
	// same turn: the server's round trip (the bare row above) plus at most
	// 1 ms of the host.
	{"24", "an MCP call in a turn with 8 interceptors minus a list_dir call there (ms)", "./internal/core/agent", "MCPCallTurn8", "ListDirTurn8", "ns/op", false, "delta", 2e6, "100x"},
	// Redaction has absolute targets; the baseline is one strings.Index
	// scan over the same bytes in the same run, the floor of any pass.
	{"15", "redaction of a 16 KiB stderr tail (baseline: one strings.Index)", "./internal/foundation/redact", "RedactTail16KiB", "IndexTail16KiB", "ns/op", false, "abs", 1e6, "2000x"},
	// The plugin systems the host is held against, doing one intercept's
	// work across a process boundary (bench/peers is a module of its own:
	// the app never compiles them). Higher is the host's lead.
	{"18", "lead over MCP go-sdk: CallTool over stdio vs one intercept", "./bench/peers", "MCPCallTool", "@Intercept1", "ns/op", true, "ratio", 10, "2000x"},
	{"18", "lead over go-plugin net/rpc: one call vs one intercept", "./bench/peers", "GoPluginNetRPC", "@Intercept1", "ns/op", true, "ratio", 3, "3000x"},
	{"18", "lead over go-plugin gRPC: one call vs one intercept", "./bench/peers", "GoPluginGRPC", "@Intercept1", "ns/op", true, "ratio", 3, "3000x"},
	{"15", "redaction of a 1 MiB tool result (baseline: one strings.Index)", "./internal/foundation/redact", "RedactResult1MiB", "IndexResult1MiB", "MB/s", true, "abs", 100, "50x"},
	// The file tools against the commands they stand in for, on the same
	// files in the same run: grep over 50,000 files (built once in the temp
	// folder) against grep -r, or ripgrep when installed; edit_file (plan,
	// encoding checks, the atomic fsync'd write) against a plain read and
	// write, and against the same read with the same atomic write. The plain
	// write does not fsync: on a busy disk the fsync alone is 1 to 3 times
	// the plain read and write, so that row's target is loose and the
	// atomic row is the tool's own cost.
	{"34", "grep tool over 50,000 files vs grep -r (ripgrep when installed)", "./internal/core/tools", "Grep50k", "GrepR50k", "ns/op", false, "ratio", 1.5, "5x"},
	{"34", "edit_file, one line of a 5 MB file vs a plain read+write", "./internal/core/tools", "EditFile5MB", "ReadWrite5MB", "ns/op", false, "ratio", 5, "20x"},
	{"34", "that edit vs the same read and an atomic (fsync'd) write", "./internal/core/tools", "@EditFile5MB", "ReadAtomicWrite5MB", "ns/op", false, "ratio", 1.5, "20x"},
	// The diff every write shows before it is approved: a one-line change
	// in a 5 MB file against only splitting both texts into lines.
	{"34", "diff of a 5 MB file, one line changed, vs only splitting both texts into lines", "./internal/foundation/textdiff", "Diff5MBOneLine", "Diff5MBLineSplit", "ns/op", false, "ratio", 1, "20x"},
	// Find in a chat (Ctrl+F) as a key in its field runs it, over a
	// 5,000-message chat; the issue's bar is 100 ms to the first highlight.
	{"40", "find in a 5,000-message chat, one key (ns)", "./internal/frontends/desktop/chat", "FindSearch", "", "ns/op", false, "abs", 100e6, "20x"},
	// The sidebar's search over the text of 200 saved chats of 100 messages
	// through the core's index, against reading every session file as the
	// search did before it.
	{"40", "search the text of 200 saved chats (index) vs reading every file", "./internal/core/agent", "SearchAcrossChats/chats=200/indexed", "SearchAcrossChats/chats=200/reading-the-files", "ns/op", false, "ratio", 0.25, "5x"},
	// Chats side by side: a switch to a live chat (its core kept, the
	// window's side on real Fyne test widgets) against redrawing the chat
	// on screen from its session in the same run; what each live chat costs
	// with the example plugins against the same sidecar binaries started
	// bare; a 50,000-message chat opened to its first frame against a
	// 50-message one.
	// A switch is within one frame at 60 Hz on the UI goroutine; beside the
	// redraw it also moves the sidebar's highlight, the composer's draft,
	// the panel's surfaces and the chat's state, so its ratio is reported.
	{"39", "switch to a live 500-message chat, UI goroutine (ns)", "./internal/frontends/desktop", "LiveChatSwitch/live", "", "ns/op", false, "abs", 16e6, "20x"},
	{"39", "that switch vs redrawing the chat on screen from its session", "./internal/frontends/desktop", "@LiveChatSwitch/live", "LiveChatSwitch/redraw", "ns/op", false, "ratio", 0, "20x"},
	{"39", "memory per live chat, 4 example plugins, vs the same sidecars started bare (MiB)", "./internal/core/chatpool", "LiveChatMemory", "BareSidecarsMemory", "MiB/chat", false, "ratio", 1.5, "1x"},
}

var line = regexp.MustCompile(`^Benchmark(\S+?)(?:-\d+)?\s+\d+\s+(.*)$`)

func main() {
	reportOnly := flag.Bool("report-only", false, "print the table but exit 0 even when a target is missed")
	only := flag.String("run", "", "only rows whose package contains this (comma-separated: any of these)")
	rounds := flag.Int("rounds", 5, "alternating rounds per benchmark; each figure is the median")
	flag.Parse()

	results := map[string]map[string]float64{} // bench → metric → value
	failed := map[string]int{}                 // bench → runs that failed
	byPkg := map[string][]row{}
	var pkgs []string
	for _, r := range rows {
		if !selected(r.pkg, *only) {
			continue
		}
		if _, ok := byPkg[r.pkg]; !ok {
			pkgs = append(pkgs, r.pkg)
		}
		byPkg[r.pkg] = append(byPkg[r.pkg], r)
	}
	for _, pkg := range pkgs {
		var benches []bench
		for _, r := range byPkg[pkg] {
			for _, name := range []string{r.bench, r.baseline} {
				if name != "" && !strings.HasPrefix(name, "@") {
					benches = append(benches, bench{name, r.n})
				}
			}
		}
		if len(benches) == 0 {
			continue
		}
		if err := run(pkg, benches, *rounds, results, failed, os.Stderr); err != nil {
			fmt.Fprintf(os.Stderr, "benchtable: %s: %v\n", pkg, err)
		}
	}

	tw := tabwriter.NewWriter(os.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ISSUE\tROW\tVALUE\tBASELINE\tRATIO\tTARGET\t")
	missed := 0
	for _, r := range rows {
		if !selected(r.pkg, *only) {
			continue
		}
		v, ok := figure(results, r.bench, r.metric)
		if !ok {
			why := "no result"
			if f := failures(failed, r.bench, r.baseline); f != "" {
				why += ": " + f
			}
			fmt.Fprintf(tw, "%s\t%s\t(%s)\t\t\t\t\n", r.issue, r.name, why)
			missed++
			continue
		}
		base, hasBase := 0.0, false
		if r.baseline != "" {
			base, hasBase = figure(results, r.baseline, r.metric)
		}
		value, baseline, ratio, target, ok := judge(r, v, base, hasBase)
		mark := ""
		if !ok {
			mark = "  ← missed"
			missed++
		}
		if f := failures(failed, r.bench, r.baseline); f != "" {
			// A figure from the rounds that passed, but a run failed:
			// the row is not a clean result.
			mark += "  ← " + f
			if ok {
				missed++
			}
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s%s\t\n", r.issue, r.name, value, baseline, ratio, target, mark)
	}
	tw.Flush()
	if missed > 0 && !*reportOnly {
		os.Exit(1)
	}
}

// selected reports whether a row of package pkg is run under -run only.
func selected(pkg, only string) bool {
	if only == "" {
		return true
	}
	for _, part := range strings.Split(only, ",") {
		if part != "" && strings.Contains(pkg, part) {
			return true
		}
	}
	return false
}

// figure evaluates a row's reference: "Name", "@Name", "@k*Name" or
// "@A-B" of those.
func figure(results map[string]map[string]float64, ref, metric string) (float64, bool) {
	ref = strings.TrimPrefix(ref, "@")
	if a, b, ok := strings.Cut(ref, "-"); ok {
		x, okA := figure(results, a, metric)
		y, okB := figure(results, b, metric)
		return x - y, okA && okB
	}
	scale := 1.0
	if k, name, ok := strings.Cut(ref, "*"); ok {
		f, err := strconv.ParseFloat(k, 64)
		if err != nil {
			return 0, false
		}
		scale, ref = f, name
	}
	v, ok := results[ref][metric]
	return scale * v, ok
}

func judge(r row, v, base float64, hasBase bool) (value, baseline, ratio, target string, ok bool) {
	value, baseline = format(v, r.metric), "-"
	if hasBase {
		baseline = format(base, r.metric)
	}
	switch r.kind {
	case "ratio":
		if !hasBase || base == 0 {
			return value, baseline, "-", "-", false
		}
		q := v / base
		ratio = fmt.Sprintf("%.2f×", q)
		switch {
		case r.target == 0:
			return value, baseline, ratio, "(report)", true
		case r.higher:
			return value, baseline, ratio, fmt.Sprintf("≥ %.1f×", r.target), q >= r.target
		default:
			return value, baseline, ratio, fmt.Sprintf("≤ %.1f×", r.target), q <= r.target
		}
	case "delta":
		d := v - base
		return value, baseline, fmt.Sprintf("+%.2f ms", d/1e6), fmt.Sprintf("≤ +%.0f ms", r.target/1e6), hasBase && d <= r.target
	default:
		if r.higher {
			return value, baseline, "-", fmt.Sprintf("≥ %s", format(r.target, r.metric)), v >= r.target
		}
		return value, baseline, "-", fmt.Sprintf("≤ %s", format(r.target, r.metric)), v <= r.target
	}
}

func format(v float64, metric string) string {
	if metric == "ns/op" {
		switch {
		case v >= 1e6:
			return fmt.Sprintf("%.2f ms", v/1e6)
		case v >= 1e3:
			return fmt.Sprintf("%.1f µs", v/1e3)
		}
		return fmt.Sprintf("%.0f ns", v)
	}
	if v < 100 {
		return fmt.Sprintf("%.1f %s", v, metric)
	}
	return fmt.Sprintf("%.0f %s", v, metric)
}

// bench is one benchmark function and its -benchtime.
type bench struct{ name, n string }

// runTimeout bounds one run of one benchmark: a benchmark that hangs (a
// child that never answers) ends with the test binary's goroutine dump in
// its output instead of holding make bench forever.
const runTimeout = 10 * time.Minute

// run measures the named benchmarks of one package: the test binary is
// built once, then every round runs each benchmark once, alternating, and
// each metric is the median over the rounds. On a shared machine a single
// run swings by up to 2×; alternating rounds expose the benchmark and its
// baseline to the same weather, and the median drops the outliers.
//
// A run that fails (a b.Fatal, the package's leak check after it, a
// timeout) is counted in failed and its whole output, stdout and stderr
// together, is printed under the failure's line; the other benchmarks of
// the package go on. One failure used to drop every figure of its package
// (so a failing MCP turn left the echo-turn rows beside it without a
// result), and its stderr was printed apart from the line saying it failed.
func run(pkg string, benches []bench, rounds int, into map[string]map[string]float64, failed map[string]int, log io.Writer) error {
	dir, err := os.MkdirTemp("", "benchtable")
	if err != nil {
		return fmt.Errorf("temp dir for the test binary: %w", err)
	}
	defer os.RemoveAll(dir)
	bin := filepath.Join(dir, "bench.test")
	build := exec.Command("go", "test", "-c", "-o", bin, pkg)
	if _, err := os.Stat(filepath.Join(pkg, "go.mod")); err == nil {
		build = exec.Command("go", "-C", pkg, "test", "-c", "-o", bin, ".") // a module of its own
	}
	build.Stdout, build.Stderr = log, log
	if err := build.Run(); err != nil {
		for _, bm := range benches {
			failed[bm.name]++
		}
		return fmt.Errorf("build: %w", err)
	}
	abs, err := filepath.Abs(strings.TrimPrefix(pkg, "./"))
	if err != nil {
		return fmt.Errorf("package folder: %w", err)
	}
	samples := map[string]map[string][]float64{}
	for i := 0; i < rounds; i++ {
		for _, bm := range benches {
			out, err := runOnce(bin, abs, bm)
			if err != nil {
				// Its figures are dropped: a run that failed after its
				// result line (a leak check) may have timed a broken state.
				failed[bm.name]++
				fmt.Fprintf(log, "benchtable: %s: Benchmark%s failed in round %d of %d: %v; its output:\n%s\n",
					pkg, bm.name, i+1, rounds, err, indent(out))
				continue
			}
			for bench, metrics := range parse(bytes.NewBufferString(out)) {
				if samples[bench] == nil {
					samples[bench] = map[string][]float64{}
				}
				for k, v := range metrics {
					samples[bench][k] = append(samples[bench][k], v)
				}
			}
		}
	}
	for bench, metrics := range samples {
		into[bench] = map[string]float64{}
		for k, vs := range metrics {
			into[bench][k] = median(vs)
		}
	}
	return nil
}

// runOnce runs one benchmark once in the package's folder, as `go test`
// runs it, and returns everything it wrote: stdout and stderr in one
// stream, so a failure's reason (a leak report, a panic, a dump) is shown
// beside the benchmark's own lines.
func runOnce(bin, dir string, bm bench) (string, error) {
	cmd := exec.Command(bin, "-test.run", "^$", "-test.bench", "^Benchmark"+bm.name+"$",
		"-test.benchtime", bm.n, "-test.count", "1", "-test.timeout", runTimeout.String())
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if err == nil && len(parse(bytes.NewBuffer(out.Bytes()))) == 0 {
		// A name that matches nothing passes with no result line: say
		// so here rather than as a row without a result.
		err = errors.New("no result line (is the benchmark's name in the row right?)")
	}
	return out.String(), err
}

// indent prefixes every line of a failed run's output so it stands apart
// from benchtable's own lines.
func indent(s string) string {
	s = strings.TrimRight(s, "\n")
	if s == "" {
		return "    (no output)"
	}
	return "    " + strings.ReplaceAll(s, "\n", "\n    ")
}

// failures says how many runs of a row's benchmarks failed ("2 failed
// run(s) of CallManager"), or "" when none did.
func failures(failed map[string]int, refs ...string) string {
	var parts []string
	seen := map[string]bool{}
	for _, ref := range refs {
		for _, name := range names(ref) {
			if n := failed[name]; n > 0 && !seen[name] {
				seen[name] = true
				parts = append(parts, fmt.Sprintf("%d failed run(s) of %s", n, name))
			}
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return strings.Join(parts, ", ")
}

// names are the benchmarks a row's reference reads ("@7*A-B" → A, B).
func names(ref string) []string {
	ref = strings.TrimPrefix(ref, "@")
	if ref == "" {
		return nil
	}
	if a, b, ok := strings.Cut(ref, "-"); ok {
		return append(names(a), names(b)...)
	}
	if _, name, ok := strings.Cut(ref, "*"); ok {
		return []string{name}
	}
	return []string{ref}
}

// parse reads the result lines of one benchmark run.
func parse(out *bytes.Buffer) map[string]map[string]float64 {
	got := map[string]map[string]float64{}
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		m := line.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		fields := strings.Fields(m[2])
		metrics := map[string]float64{}
		for i := 0; i+1 < len(fields); i += 2 {
			if f, perr := strconv.ParseFloat(fields[i], 64); perr == nil {
				metrics[fields[i+1]] = f
			}
		}
		got[m[1]] = metrics
	}
	return got
}

func median(vs []float64) float64 {
	s := append([]float64(nil), vs...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// Package peers measures the plugin systems this project is held against —
// the MCP Go SDK (CallTool over stdio) and HashiCorp go-plugin (net/rpc and
// gRPC) — doing the work of one intercept: the host sends a tool.before
// request to a child process and waits for its "continue". It is a module of
// its own so that the app never compiles these dependencies; `make bench`
// runs it and sets its figures beside the host's own intercept.
//
// Every peer is this test binary run again as a child (PEERS_CHILD names the
// role), so each benchmark crosses a real process boundary over real pipes or
// sockets, as the host does with a sidecar.
package peers

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/rpc"
	"os"
	"os/exec"
	"testing"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-plugin"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/types/known/wrapperspb"
)

// InterceptParams is what the host sends at tool.before, in the real
// Reasonix shape (arguments are the text of a JSON object).
type InterceptParams struct {
	Event         string        `json:"event"`
	Seq           int64         `json:"seq"`
	Payload       ToolBeforeArg `json:"payload"`
	TimeoutMillis int           `json:"timeoutMillis"`
}

type ToolBeforeArg struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// Answer is the plugin's reply.
type Answer struct {
	Decision string `json:"decision"`
}

func params(seq int64) InterceptParams {
	return InterceptParams{Event: "tool.before", Seq: seq, TimeoutMillis: 5000,
		Payload: ToolBeforeArg{Name: "run_command", Arguments: `{"command":"ls -la"}`}}
}

func decide(p InterceptParams) Answer {
	if p.Event != "tool.before" {
		return Answer{Decision: "block"}
	}
	return Answer{Decision: "continue"}
}

const childEnv = "PEERS_CHILD"

func TestMain(m *testing.M) {
	switch os.Getenv(childEnv) {
	case "":
		os.Exit(m.Run())
	case "mcp":
		serveMCP()
	case "goplugin-netrpc":
		serveGoPlugin(nil)
	case "goplugin-grpc":
		serveGoPlugin(plugin.DefaultGRPCServer)
	default:
		fmt.Fprintf(os.Stderr, "peers: unknown %s=%q\n", childEnv, os.Getenv(childEnv))
		os.Exit(2)
	}
	os.Exit(0)
}

func child(role string) *exec.Cmd {
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), childEnv+"="+role)
	return cmd
}

// --- MCP Go SDK: one tool call over stdio --------------------------------

func serveMCP() {
	s := mcp.NewServer(&mcp.Implementation{Name: "guard", Version: "1.0.0"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "intercept", Description: "tool.before"},
		func(_ context.Context, _ *mcp.CallToolRequest, p InterceptParams) (*mcp.CallToolResult, Answer, error) {
			return nil, decide(p), nil
		})
	if err := s.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		fmt.Fprintln(os.Stderr, "mcp server:", err)
		os.Exit(1)
	}
}

func BenchmarkMCPCallTool(b *testing.B) {
	ctx := context.Background()
	c := mcp.NewClient(&mcp.Implementation{Name: "host", Version: "1.0.0"}, nil)
	cmd := child("mcp")
	cmd.Stderr = os.Stderr
	s, err := c.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	var seq int64
	call := func() {
		seq++
		res, err := s.CallTool(ctx, &mcp.CallToolParams{Name: "intercept", Arguments: params(seq)})
		if err != nil {
			b.Fatal(err)
		}
		var a Answer
		raw, err := json.Marshal(res.StructuredContent)
		if err == nil {
			err = json.Unmarshal(raw, &a)
		}
		if err != nil || res.IsError || a.Decision != "continue" {
			b.Fatalf("Answer %+v (%v)", res, err)
		}
	}
	call() // warm up
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		call()
	}
}

// --- go-plugin: net/rpc and gRPC --------------------------------------------

var handshake = plugin.HandshakeConfig{ProtocolVersion: 1, MagicCookieKey: "PEERS_PLUGIN", MagicCookieValue: "guard"}

// guard is what the plugin implements in both go-plugin flavours.
type guard interface {
	Intercept(p InterceptParams) (Answer, error)
}

type guardImpl struct{}

func (guardImpl) Intercept(p InterceptParams) (Answer, error) { return decide(p), nil }

// netRPC flavour.

type guardRPCServer struct{ impl guard }

func (s *guardRPCServer) Intercept(p InterceptParams, a *Answer) error {
	r, err := s.impl.Intercept(p)
	*a = r
	return err
}

type guardRPCClient struct{ c *rpc.Client }

func (g guardRPCClient) Intercept(p InterceptParams) (Answer, error) {
	var a Answer
	err := g.c.Call("Plugin.Intercept", p, &a)
	return a, err
}

// gRPC flavour: a hand-written service descriptor carrying the JSON params in
// a BytesValue, so no generated code is needed; the JSON work stays the same
// as on the host's wire.

type guardGRPCServer interface {
	Intercept(context.Context, *wrapperspb.BytesValue) (*wrapperspb.BytesValue, error)
}

type guardGRPC struct{ impl guard }

func (g guardGRPC) Intercept(_ context.Context, in *wrapperspb.BytesValue) (*wrapperspb.BytesValue, error) {
	var p InterceptParams
	if err := json.Unmarshal(in.Value, &p); err != nil {
		return nil, err
	}
	a, err := g.impl.Intercept(p)
	if err != nil {
		return nil, err
	}
	out, err := json.Marshal(a)
	return wrapperspb.Bytes(out), err
}

var guardDesc = grpc.ServiceDesc{
	ServiceName: "peers.Guard",
	HandlerType: (*guardGRPCServer)(nil),
	Methods: []grpc.MethodDesc{{
		MethodName: "Intercept",
		Handler: func(srv any, ctx context.Context, dec func(any) error, _ grpc.UnaryServerInterceptor) (any, error) {
			in := new(wrapperspb.BytesValue)
			if err := dec(in); err != nil {
				return nil, err
			}
			return srv.(guardGRPCServer).Intercept(ctx, in)
		},
	}},
}

type guardGRPCClient struct{ conn *grpc.ClientConn }

func (g guardGRPCClient) Intercept(p InterceptParams) (Answer, error) {
	raw, err := json.Marshal(p)
	if err != nil {
		return Answer{}, err
	}
	out := new(wrapperspb.BytesValue)
	if err := g.conn.Invoke(context.Background(), "/peers.Guard/Intercept", wrapperspb.Bytes(raw), out); err != nil {
		return Answer{}, err
	}
	var a Answer
	err = json.Unmarshal(out.Value, &a)
	return a, err
}

// guardPlugin is both a plugin.Plugin (net/rpc) and a plugin.GRPCPlugin.
type guardPlugin struct {
	impl guard
}

func (p *guardPlugin) Server(*plugin.MuxBroker) (any, error) {
	return &guardRPCServer{impl: p.impl}, nil
}

func (*guardPlugin) Client(_ *plugin.MuxBroker, c *rpc.Client) (any, error) {
	return guardRPCClient{c: c}, nil
}

func (p *guardPlugin) GRPCServer(_ *plugin.GRPCBroker, s *grpc.Server) error {
	s.RegisterService(&guardDesc, guardGRPC{impl: p.impl})
	return nil
}

func (*guardPlugin) GRPCClient(_ context.Context, _ *plugin.GRPCBroker, c *grpc.ClientConn) (any, error) {
	return guardGRPCClient{conn: c}, nil
}

func quietLogger() hclog.Logger {
	return hclog.New(&hclog.LoggerOptions{Level: hclog.Error, Output: io.Discard})
}

// serveGoPlugin serves net/rpc, or gRPC when grpcServer is set (go-plugin
// picks the protocol from it).
func serveGoPlugin(grpcServer func([]grpc.ServerOption) *grpc.Server) {
	plugin.Serve(&plugin.ServeConfig{
		HandshakeConfig: handshake,
		Plugins:         plugin.PluginSet{"guard": &guardPlugin{impl: guardImpl{}}},
		GRPCServer:      grpcServer,
		Logger:          quietLogger(),
	})
}

func benchGoPlugin(b *testing.B, proto plugin.Protocol) {
	c := plugin.NewClient(&plugin.ClientConfig{
		HandshakeConfig:  handshake,
		Plugins:          plugin.PluginSet{"guard": &guardPlugin{}},
		Cmd:              child("goplugin-" + string(proto)),
		AllowedProtocols: []plugin.Protocol{proto},
		Logger:           quietLogger(),
	})
	b.Cleanup(c.Kill)
	rc, err := c.Client()
	if err != nil {
		b.Fatal(err)
	}
	raw, err := rc.Dispense("guard")
	if err != nil {
		b.Fatal(err)
	}
	g := raw.(guard)
	var seq int64
	call := func() {
		seq++
		a, err := g.Intercept(params(seq))
		if err != nil || a.Decision != "continue" {
			b.Fatalf("Answer %+v (%v)", a, err)
		}
	}
	call()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		call()
	}
}

func BenchmarkGoPluginNetRPC(b *testing.B) { benchGoPlugin(b, plugin.ProtocolNetRPC) }

func BenchmarkGoPluginGRPC(b *testing.B) { benchGoPlugin(b, plugin.ProtocolGRPC) }

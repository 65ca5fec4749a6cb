package agent

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"
)

// The pipeline's one loop: a call passes the stages in order; a rewrite by
// a rewriting stage sends the new call through every stage before it (and
// only those) before the rest go on; a gate's own revision does not.
func TestRunBeforeRegatesARewriteInOnePlace(t *testing.T) {
	t.Parallel()
	var seen []string
	gate := beforeStage{name: "gate", check: func(_ context.Context, p *pipeCall) (*refusal, error) {
		seen = append(seen, "gate:"+p.name+string(p.args))
		if p.name == "rm" {
			return &refusal{reason: "gate: no rm", result: "Blocked by gate: no rm"}, nil
		}
		if string(p.args) == `{"a":1}` {
			p.args = json.RawMessage(`{"a":2}`) // a revision: not re-gated
		}
		return nil, nil
	}}
	rewriter := func(to string) beforeStage {
		return beforeStage{name: "tool.before", rewrites: true, check: func(_ context.Context, p *pipeCall) (*refusal, error) {
			seen = append(seen, "before:"+p.name)
			if to != "" {
				p.name = to
			}
			return nil, nil
		}}
	}
	last := beforeStage{name: "last", check: func(_ context.Context, p *pipeCall) (*refusal, error) {
		seen = append(seen, "last:"+p.name)
		return nil, nil
	}}
	tests := []struct {
		name      string
		stages    []beforeStage
		call      string
		args      string
		refused   bool
		want      []string
		rewritten int
	}{
		{"passes in order", []beforeStage{gate, rewriter(""), last}, "ls", `{}`, false,
			[]string{"gate:ls{}", "before:ls", "last:ls"}, 0},
		{"a gate's revision goes on", []beforeStage{gate, rewriter(""), last}, "ls", `{"a":1}`, false,
			[]string{`gate:ls{"a":1}`, "before:ls", "last:ls"}, 0},
		{"a rewrite is gated again", []beforeStage{gate, rewriter("rm"), last}, "ls", `{}`, true,
			[]string{"gate:ls{}", "before:ls", "gate:rm{}"}, 1},
		{"a harmless rewrite goes on once", []beforeStage{gate, rewriter("cat"), last}, "ls", `{}`, false,
			[]string{"gate:ls{}", "before:ls", "gate:cat{}", "last:cat"}, 1},
	}
	for _, tt := range tests {
		seen = nil
		p := &pipeCall{name: tt.call, args: json.RawMessage(tt.args)}
		rewrites := 0
		ref, err := runBefore(context.Background(), tt.stages, p, func(string) { rewrites++ })
		if err != nil || (ref != nil) != tt.refused || rewrites != tt.rewritten || !reflect.DeepEqual(seen, tt.want) {
			t.Errorf("%s: refused %v err %v rewrites %d, stages saw %q; want %q", tt.name, ref, err, rewrites, seen, tt.want)
		}
	}
}

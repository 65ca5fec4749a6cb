package main

import (
	"strings"
	"testing"
)

// hello-surfaces' prompts action asks one prompt of each kind through the
// headless binary: confirm, select, multiselect and input, answered on the
// terminal, then the form; declining or leaving ends the round.
func TestHeadlessEveryPromptKind(t *testing.T) {
	h := newHost(t)
	h.installPlugins("hello-surfaces")
	cases := []struct {
		name, stdin string
		args        []string
		out         []string // stdout and stderr together
	}{
		{"every kind answered", "y\n2\n1,3\nAda\n", []string{"--prompt", "/hello-surfaces:prompts"}, []string{
			"hello-surfaces asks: Try every prompt?", "[y/N]",
			"hello-surfaces asks: A select", "1) red", "Favourite color (number or text)",
			"hello-surfaces asks: A multiselect", "Interests (numbers or texts, comma-separated)",
			"hello-surfaces asks: An input", "Your name",
			"/hello-surfaces:prompts: confirm=yes, select=green, multiselect=go+plugins, input=Ada",
			"[hello-surfaces] INFO: Every prompt answered"}},
		{"declined at the confirm", "n\n", []string{"--prompt", "/hello-surfaces:prompts"}, []string{
			"/hello-surfaces:prompts: confirm=no"}},
		{"input ends at the multiselect", "y\nblue\n", []string{"--prompt", "/hello-surfaces:prompts"}, []string{
			"/hello-surfaces:prompts: confirm=yes, select=blue, multiselect dismissed"}},
		{"not interactive", "", []string{"--non-interactive", "--prompt", "/hello-surfaces:prompts"}, []string{
			`! hello-surfaces asks "Try every prompt?"; cancelled (not interactive)`, "/hello-surfaces:prompts: confirm dismissed"}},
		{"the form, the fifth kind", "", []string{"--non-interactive", "--prompt", "/form hello-form name=Ada color=red tags=go agree=yes"}, []string{
			"form hello-surfaces/hello-form sent", "Form submitted — agree=true, color=red, name=Ada, tags=[go]"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := h.headless(tc.stdin, tc.args...)
			all := r.stdout + r.stderr
			if r.code != 0 {
				t.Fatalf("exit %d:\n%s", r.code, all)
			}
			for _, w := range tc.out {
				if !strings.Contains(all, w) {
					t.Errorf("output lacks %q:\n%s", w, all)
				}
			}
		})
	}
}

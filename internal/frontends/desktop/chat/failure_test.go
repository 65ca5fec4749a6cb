package chat

import "testing"

func TestDescribeFailurePutsWordsBeforeCodes(t *testing.T) {
	tests := []struct {
		name, model, display, reason, want string
	}{
		{"rejected key", "plugin/openai-provider/openai/gpt-4o", "",
			"provider_failed (-32000): openai-provider: the provider rejected the request (HTTP 401)",
			"The turn failed in plugin openai-provider (model gpt-4o): openai-provider: the server rejected the API key (HTTP 401)\nDetails: provider_failed (-32000)"},
		{"display name", "plugin/echo-provider/echo/echo-1", "Echo (offline)",
			"provider_failed (-32000): upstream said no",
			"The turn failed in plugin echo-provider (model Echo (offline)): upstream said no\nDetails: provider_failed (-32000)"},
		{"plain text, no model", "", "", "the plugin stopped",
			"The turn failed: the plugin stopped"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := DescribeFailure(tt.model, tt.display, tt.reason); got != tt.want {
				t.Fatalf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
}

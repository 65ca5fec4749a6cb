package providers_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/plugins/providers"
	"github.com/reasonix/reasonix-desktop/protocol"
)

func TestExplain(t *testing.T) {
	tests := []struct {
		name         string
		err          error
		words, codes string
	}{
		{"401 from the openai-provider",
			protocol.NewError(protocol.ReasonProviderFailed, "openai-provider: the provider rejected the request (HTTP 401); check the API key"),
			"openai-provider: the server rejected the API key (HTTP 401)", "provider_failed (-32000)"},
		{"403 with the code nested twice",
			fmt.Errorf("turn: %w", protocol.NewError(protocol.ReasonProviderFailed, "p1: provider_failed (-32000): upstream status 403 Forbidden")),
			"p1: the server rejected the API key (HTTP 403)", "provider_failed (-32000)"},
		{"other failures keep their words",
			protocol.NewError(protocol.ReasonProviderFailed, "openai-provider: the provider failed (HTTP 503)"),
			"openai-provider: the provider failed (HTTP 503)", "provider_failed (-32000)"},
		{"interrupted",
			protocol.NewError(protocol.ReasonProviderInterrupted, "the provider interrupted the stream"),
			"the provider interrupted the stream", "provider_interrupted (-32000)"},
		{"not a protocol error", errors.New("could not reach the provider"), "could not reach the provider", ""},
		{"a 4010 is not a 401", protocol.NewError(protocol.ReasonProviderFailed, "p: HTTP 4010"), "p: HTTP 4010", "provider_failed (-32000)"},
		{"nil", nil, "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			words, codes := providers.Explain(tc.err)
			if words != tc.words || codes != tc.codes {
				t.Errorf("got %q / %q, want %q / %q", words, codes, tc.words, tc.codes)
			}
		})
	}
}

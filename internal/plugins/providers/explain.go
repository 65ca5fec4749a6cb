package providers

import (
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
	"github.com/reasonix/reasonix-desktop/protocol"
)

// codePrefix is the "reason (code): " a protocol error's text starts with;
// a provider's message can carry several (the plugin's own, the host's).
var codePrefix = regexp.MustCompile(`^[a-z][a-z0-9_]* \(-?\d+\): `)

// rejectedKey finds an HTTP status that means the credentials were refused.
var rejectedKey = regexp.MustCompile(`\b(?:HTTP|status|status code)[ :]*(401|403)\b`)

// Explain splits a failed turn's error into words for the user and the
// codes for the details: "provider_failed (-32000): openai-provider: the
// provider rejected the request (HTTP 401)" reads "openai-provider: the
// server rejected the API key (HTTP 401)", with "provider_failed (-32000)"
// as the details. An HTTP 401 or 403 always reads as a rejected API key
// (the HTTP code stays in the words: it is what a user searches for).
// Text that is not a protocol error comes back whole, without details.
// Both are redacted.
func Explain(err error) (words, details string) {
	if err == nil {
		return "", ""
	}
	text := err.Error()
	var codes []string
	var pe *protocol.Error
	if errors.As(err, &pe) && pe.Data != nil && pe.Data.Reason != "" {
		codes = append(codes, fmt.Sprintf("%s (%d)", pe.Data.Reason, pe.Code))
		text = pe.Message
	}
	// Codes nested in the message, after an optional "<plugin>: ".
	prefix := ""
	for {
		if loc := codePrefix.FindStringIndex(text); loc != nil {
			codes = appendNew(codes, strings.TrimSuffix(text[:loc[1]], ": "))
			text = text[loc[1]:]
			continue
		}
		// The prefix is put back: peeling it only lets a code behind it go.
		if name, rest, ok := strings.Cut(text, ": "); ok && prefix == "" && rest != "" && protocol.ValidPluginName(name) {
			prefix, text = name+": ", rest
			continue
		}
		break
	}
	if m := rejectedKey.FindStringSubmatch(text); m != nil {
		text = "the server rejected the API key (HTTP " + m[1] + ")"
	}
	return redact.String(prefix + text), redact.String(strings.Join(codes, "; "))
}

func appendNew(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}

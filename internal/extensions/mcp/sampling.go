//lint:file-ignore SA1019 sampling is deprecated as of protocol 2026-07-28 but servers of earlier versions still ask for it; the SDK keeps it working through the deprecation window.

package mcp

import (
	"context"
	"fmt"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// offerSampling routes a server's sampling/createMessage to Options.Sample
// (the chat's model, with the user's approval). Without a Sample hook the
// handler stays unset, so the client does not advertise sampling at all
// and a server knows not to ask.
func (s *server) offerSampling(opts *sdk.ClientOptions) {
	sample := s.m.opts.Sample
	if sample == nil {
		return
	}
	name := s.cfg.Name
	opts.CreateMessageHandler = func(ctx context.Context, req *sdk.CreateMessageRequest) (*sdk.CreateMessageResult, error) {
		res, err := sample(ctx, name, req.Params)
		if err != nil {
			return nil, fmt.Errorf("sampling for mcp server %s: %w", name, err)
		}
		return res, nil
	}
}

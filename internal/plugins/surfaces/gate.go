package surfaces

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/reasonix/reasonix-desktop/protocol"
)

// Publish handles host/ui/publish from the connection of plugin: strict
// decode, gate, payload decode, redaction, store. A publish for another
// generation or session is dropped with {accepted: false} and no error.
// Errors are *protocol.Error: invalid_params (naming the offending path),
// internal (-32603) for an unknown plugin, provider_interrupted for a
// crashed one.
func (s *Store) Publish(plugin string, raw json.RawMessage) (protocol.UIPublishResult, error) {
	var params protocol.UIPublishParams
	if err := protocol.DecodeStrict(raw, &params); err != nil {
		return protocol.UIPublishResult{}, invalidParams("host/ui/publish params", err)
	}
	if err := s.gate(plugin); err != nil {
		return protocol.UIPublishResult{}, err
	}
	if !s.bound(params.SessionID, params.Generation) {
		return protocol.UIPublishResult{Accepted: false}, nil
	}
	payload, err := protocol.DecodeSurface(params.Kind, params.Payload)
	if err != nil {
		return protocol.UIPublishResult{}, invalidParams("host/ui/publish", err)
	}
	var orig [][]string
	switch p := payload.(type) {
	case *protocol.StatusPayload:
		redactStatus(p)
	case *protocol.CardPayload:
		redactCard(p)
	case *protocol.FormPayload:
		orig = redactForm(p)
	case *protocol.NotificationPayload:
		redactNotification(p)
	}
	k := Key{Plugin: plugin, SurfaceID: params.SurfaceID, SessionID: params.SessionID, Generation: params.Generation}
	return protocol.UIPublishResult{Accepted: s.store(k, params.Kind, payload, orig)}, nil
}

// AdmitRequest handles host/ui/request from the connection of plugin. It
// returns the prompt to show, or — for another generation or session — no
// prompt and the {cancelled: true} answer to send at once. Errors are as for
// Publish; a simple prompt (one field keyed "value") whose field kind is not
// the request kind is invalid_params.
func (s *Store) AdmitRequest(plugin string, raw json.RawMessage) (*Prompt, *protocol.UIRequestResult, error) {
	var params protocol.UIRequestParams
	if err := protocol.DecodeStrict(raw, &params); err != nil {
		return nil, nil, invalidParams("host/ui/request params", err)
	}
	if err := s.gate(plugin); err != nil {
		return nil, nil, err
	}
	if !s.bound(params.SessionID, params.Generation) {
		return nil, &protocol.UIRequestResult{Cancelled: true}, nil
	}
	form, err := protocol.DecodePrompt(params.Kind, params.Payload)
	if err != nil {
		return nil, nil, invalidParams("host/ui/request", err)
	}
	simple := len(form.Fields) == 1 && form.Fields[0].Key == protocol.SimpleValueKey
	if simple && string(form.Fields[0].Kind) != string(params.Kind) {
		return nil, nil, protocol.Errorf(protocol.ReasonInvalidParams,
			"host/ui/request: payload.fields[0].kind: a %s prompt needs a %s field, got %s",
			params.Kind, params.Kind, form.Fields[0].Kind)
	}
	orig := redactForm(form)
	return &Prompt{
		Plugin:     plugin,
		Kind:       params.Kind,
		SurfaceID:  params.SurfaceID,
		SessionID:  params.SessionID,
		Generation: params.Generation,
		Title:      form.Title,
		Message:    form.Message,
		Fields:     form.Fields,
		Simple:     simple,
		set:        fieldSet{fields: cloneFields(form.Fields), orig: orig},
	}, nil, nil
}

// Stale reports whether a prompt can no longer be answered usefully: its
// session or generation is no longer bound, or its plugin is no longer
// active. The desktop closes such a dialog itself.
func (s *Store) Stale(p *Prompt) bool {
	if p != nil && p.host {
		return false // its asker's context ends it
	}
	return p == nil || !s.bound(p.SessionID, p.Generation) || s.lookup(p.Plugin) != PluginActive
}

// gate refuses traffic from a plugin that is not active.
func (s *Store) gate(plugin string) error {
	switch s.lookup(plugin) {
	case PluginActive:
		return nil
	case PluginCrashed:
		return protocol.NewError(protocol.ReasonProviderInterrupted, fmt.Sprintf("plugin %q has crashed", text(plugin)))
	}
	return protocol.NewError(protocol.ReasonInternal, fmt.Sprintf("unknown plugin %q", text(plugin)))
}

func (s *Store) bound(session string, generation int64) bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return session == s.binding.SessionID && generation == s.binding.Generation
}

// invalidParams wraps a decode failure as invalid_params. The message is
// redacted: it may quote what the plugin sent, and it is logged and shown.
func invalidParams(what string, err error) *protocol.Error {
	var pe *protocol.Error
	if errors.As(err, &pe) {
		return protocol.NewError(protocol.ReasonInvalidParams, text(what+": "+pe.Message))
	}
	return protocol.NewError(protocol.ReasonInvalidParams, text(what+": "+err.Error()))
}

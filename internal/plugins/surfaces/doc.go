// Package surfaces owns the toolkit-free model of plugin UI: the keyed surface
// store, the gate that admits or drops host/ui/publish and host/ui/request by
// plugin, session and generation, the actions registry, and form submission
// state.
//
// Both front ends use it: the Fyne window renders what the Store holds and
// listens for its changes; the headless CLI prints the same surfaces and
// answers the same prompts. Nothing here imports a UI toolkit.
//
// Every human-visible string a plugin sends (titles, labels, markdown, text,
// detail, body, message, card field keys and values, options, string
// defaults, action labels) is redacted with internal/foundation/redact before it is
// stored or handed out. Identifiers the plugin needs back — surface ids,
// action ids and form field keys — are kept as sent. Where the user picks
// a redacted option, the answer sent back to the plugin carries the
// plugin's original option string, so a redaction never changes what the
// plugin receives.
//
// Payload pointers in a Surface are shared between copies and must be
// treated as read-only: a publish replaces them, it never mutates them.
package surfaces

package surfaces

import "github.com/reasonix/reasonix-desktop/protocol"

// NewHostPrompt is a prompt asked by something other than a v2 plugin (an
// MCP server's elicitation), shown through the same dialogs and named by
// from ("MCP server ev"). It is redacted as a plugin's is; it never goes
// stale with the store's plugins or sessions: the context its asker gives
// Frontend.Prompt ends it.
func NewHostPrompt(from string, kind protocol.RequestKind, form protocol.FormPayload) *Prompt {
	form.Fields = cloneFields(form.Fields)
	orig := redactForm(&form)
	return &Prompt{Plugin: text(from), Kind: kind, Title: form.Title, Message: form.Message, Fields: form.Fields,
		set: fieldSet{fields: cloneFields(form.Fields), orig: orig}, host: true}
}

package providers

import (
	"fmt"
	"strings"

	"github.com/reasonix/reasonix-desktop/protocol"
)

// ModelID is a parsed `plugin/<plugin>/<provider>/<model>` id.
type ModelID struct {
	Plugin   string
	Provider string
	Model    string // may contain slashes (e.g. "library/llama3")
}

// ParseModelID parses a menu model id.
func ParseModelID(id string) (ModelID, error) {
	parts := strings.SplitN(id, "/", 4)
	if len(parts) != 4 || parts[0] != "plugin" || parts[1] == "" || parts[2] == "" || parts[3] == "" {
		return ModelID{}, fmt.Errorf("model id %q is not of the form plugin/<plugin>/<provider>/<model>", id)
	}
	return ModelID{Plugin: parts[1], Provider: parts[2], Model: parts[3]}, nil
}

// Ref is the provider ref `plugin/<plugin>/<provider>`.
func (m ModelID) Ref() string { return protocol.ProviderRef(m.Plugin, m.Provider) }

func (m ModelID) String() string { return m.Ref() + "/" + m.Model }

// Model is one entry of the model menu.
type Model struct {
	ID                 string   `json:"id"`
	Plugin             string   `json:"plugin"`
	ProviderRef        string   `json:"providerRef"`
	Model              string   `json:"model"`
	DisplayName        string   `json:"displayName"`
	ContextWindow      int64    `json:"contextWindow,omitempty"`
	InputPerMillion    float64  `json:"inputPerMillion,omitempty"`
	OutputPerMillion   float64  `json:"outputPerMillion,omitempty"`
	CacheHitPerMillion float64  `json:"cacheHitPerMillion,omitempty"`
	PricingCurrency    string   `json:"pricingCurrency,omitempty"`
	Vision             bool     `json:"vision,omitempty"`
	Tools              bool     `json:"tools,omitempty"`
	Reasoning          bool     `json:"reasoning,omitempty"`
	Efforts            []string `json:"efforts,omitempty"`
	DefaultEffort      string   `json:"defaultEffort,omitempty"`
}

// modelFrom turns a descriptor of plugin into a menu entry; ok is false for
// descriptors outside `plugin/<plugin>/` or without a model.
func modelFrom(plugin string, d protocol.ProviderDescriptor) (Model, bool) {
	provider, found := protocol.ProviderOfRef(plugin, d.Ref)
	if !found || d.Model == "" {
		return Model{}, false
	}
	id := ModelID{Plugin: plugin, Provider: provider, Model: d.Model}
	name := d.DisplayName
	if name == "" {
		name = d.Model
	}
	return Model{
		ID: id.String(), Plugin: plugin, ProviderRef: d.Ref, Model: d.Model, DisplayName: name,
		ContextWindow: d.ContextWindow, InputPerMillion: d.InputPerMillion, OutputPerMillion: d.OutputPerMillion,
		CacheHitPerMillion: d.CacheHitPerMillion, PricingCurrency: d.PricingCurrency,
		Vision: d.Vision, Tools: d.Tools, Reasoning: d.Reasoning,
		Efforts: d.Efforts, DefaultEffort: d.DefaultEffort,
	}, true
}

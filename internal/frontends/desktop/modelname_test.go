package desktop

import (
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/viewmodel"
	"github.com/reasonix/reasonix-desktop/internal/plugins/providers"
)

// Until the plugins list their models, the toolbar shows the name the
// chat's model was last listed with (remembered over a restart), else the
// id's last part; it showed the raw id "plugin/echo-provider/echo/echo-1".
func TestTheToolbarNamesAModelBeforeItsProviderListsIt(t *testing.T) {
	const id = "plugin/echo-provider/echo/echo-1"
	h := newHarness(t)
	h.ui(func() {
		h.d.state.SetSession(viewmodel.Open{ID: "a", Model: id})
		if got := h.d.toolbar.model.Text; got != "echo-1" {
			t.Errorf("before any listing the toolbar says %q, want echo-1", got)
		}
		h.d.state.SetModels([]providers.Model{{ID: id, DisplayName: "Echo One"}}, nil)
		if got := h.d.toolbar.model.Text; got != "Echo One" {
			t.Errorf("listed, the toolbar says %q", got)
		}
	})
	h.d.prefs.Wait()
	if got := loadPrefs(h.layout.Root, nil).ModelName(id); got != "Echo One" {
		t.Errorf("remembered name %q, want Echo One", got)
	}
	h.ui(func() {
		h.d.state.SetModels(nil, nil) // the next start, the catalog not read yet
		if got := h.d.toolbar.model.Text; got != "Echo One" {
			t.Errorf("before the listing the toolbar says %q, want the remembered Echo One", got)
		}
	})
}

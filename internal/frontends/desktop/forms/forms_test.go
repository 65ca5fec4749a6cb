package forms

import (
	"reflect"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/reasonix/reasonix-desktop/protocol"
)

func TestValuesAndCompleteness(t *testing.T) {
	fields := []protocol.FormField{
		{Key: "name", Kind: protocol.FieldInput, Required: true},
		{Key: "color", Kind: protocol.FieldSelect, Options: []string{"red", "green"}, Default: "red"},
		{Key: "tags", Kind: protocol.FieldMultiselect, Options: []string{"a", "b"}, Default: []any{"b", "zz"}},
		{Key: "sure", Kind: protocol.FieldConfirm},
	}
	tests := []struct {
		name     string
		act      func(v *View)
		complete bool
		want     map[string]any
	}{
		{"defaults, required missing", func(*View) {}, false,
			map[string]any{"name": "", "color": "red", "tags": []string{"b"}, "sure": false}},
		{"typed and ticked", func(v *View) {
			test.Type(v.Input("name").Entry, "Ada")
			v.Input("sure").Check.SetChecked(true)
			v.Input("tags").Group.SetSelected([]string{"a"})
		}, true, map[string]any{"name": "Ada", "color": "red", "tags": []string{"a"}, "sure": true}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			test.NewTempApp(t)
			changes := 0
			v := New(fields, false, func() { changes++ })
			tc.act(v)
			if got := v.Complete(); got != tc.complete {
				t.Errorf("complete %v, want %v", got, tc.complete)
			}
			if got := v.Values(); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("values %v, want %v", got, tc.want)
			}
		})
	}
}

// Enter in a text field submits and Esc cancels (a prompt dialog's keys).
func TestEntryKeys(t *testing.T) {
	test.NewTempApp(t)
	v := New([]protocol.FormField{{Key: "user", Kind: protocol.FieldInput}}, true, nil)
	var submits, cancels int
	v.OnKeys(func() { cancels++ }, func() { submits++ })
	e := v.FirstEntry()
	if e == nil {
		t.Fatal("no first entry")
	}
	e.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
	test.Type(e, "x")
	e.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if cancels != 1 || submits != 1 {
		t.Errorf("cancels %d submits %d", cancels, submits)
	}
}

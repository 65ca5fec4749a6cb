package desktop

import (
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/protocol"
)

// formView renders form fields (a form surface, a prompt dialog) and reads
// the user's answers as typed values: confirm → bool, input → string,
// select → string, multiselect → []string. UI goroutine only.
type formView struct {
	inputs     []*fieldInput
	obj        *fyne.Container
	onChange   func()
	requireAll bool
}

// fieldInput is one field's widget; exactly one of them is set.
type fieldInput struct {
	field protocol.FormField
	label *widget.Label
	check *widget.Check      // confirm
	entry *fieldEntry        // input
	radio *widget.RadioGroup // select
	group *widget.CheckGroup // multiselect
}

// newFormView builds the widgets of fields. requireAll (a simple prompt)
// makes every field need an answer; otherwise only required ones do.
func newFormView(fields []protocol.FormField, requireAll bool, onChange func()) *formView {
	// Setting defaults fires the widgets' callbacks: onChange is installed
	// only once the view is complete.
	f := &formView{obj: container.NewVBox(), requireAll: requireAll}
	defer func() { f.onChange = onChange }()
	changed := func() {
		if f.onChange != nil {
			f.onChange()
		}
	}
	for _, fd := range fields {
		in := &fieldInput{field: fd}
		label := fd.Label
		if label == "" && fd.Key != protocol.SimpleValueKey {
			label = fd.Key
		}
		if fd.Required {
			label += " *"
		}
		switch fd.Kind {
		case protocol.FieldConfirm:
			in.check = widget.NewCheck(strings.TrimSpace(label), func(bool) { changed() })
			if b, ok := fd.Default.(bool); ok {
				in.check.SetChecked(b)
			}
			if in.check.Text == "" {
				in.check.Text = "Yes"
			}
			f.obj.Add(in.check)
			f.inputs = append(f.inputs, in)
			continue
		case protocol.FieldSelect:
			in.radio = widget.NewRadioGroup(fd.Options, func(string) { changed() })
			in.radio.Required = fd.Required
			if s, ok := fd.Default.(string); ok && slices.Contains(fd.Options, s) {
				in.radio.SetSelected(s)
			}
		case protocol.FieldMultiselect:
			in.group = widget.NewCheckGroup(fd.Options, func([]string) { changed() })
			in.group.SetSelected(defaultStrings(fd.Default, fd.Options))
		default: // input
			in.entry = newFieldEntry()
			if s, ok := fd.Default.(string); ok {
				in.entry.SetText(s)
			}
			in.entry.OnChanged = func(string) { changed() }
		}
		if label != "" {
			in.label = widget.NewLabel(label)
			in.label.TextStyle.Bold = true
			f.obj.Add(in.label)
		}
		f.obj.Add(in.widget())
		f.inputs = append(f.inputs, in)
	}
	return f
}

func (in *fieldInput) widget() fyne.CanvasObject {
	switch {
	case in.check != nil:
		return in.check
	case in.radio != nil:
		return in.radio
	case in.group != nil:
		return in.group
	}
	return in.entry
}

// defaultStrings reads a multiselect default ([]string, or []any from
// JSON) keeping only known options.
func defaultStrings(v any, options []string) []string {
	var out []string
	add := func(s string) {
		if slices.Contains(options, s) && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	switch v := v.(type) {
	case []string:
		for _, s := range v {
			add(s)
		}
	case []any:
		for _, x := range v {
			if s, ok := x.(string); ok {
				add(s)
			}
		}
	case string:
		add(v)
	}
	return out
}

// values are the answers, typed per field kind. A select with nothing
// chosen is left out.
func (f *formView) values() map[string]any {
	out := make(map[string]any, len(f.inputs))
	for _, in := range f.inputs {
		k := in.field.Key
		switch {
		case in.check != nil:
			out[k] = in.check.Checked
		case in.radio != nil:
			if in.radio.Selected != "" {
				out[k] = in.radio.Selected
			}
		case in.group != nil:
			out[k] = append([]string{}, in.group.Selected...)
		default:
			out[k] = in.entry.Text
		}
	}
	return out
}

// complete reports whether every field that needs an answer has one.
func (f *formView) complete() bool {
	for _, in := range f.inputs {
		need := in.field.Required
		switch {
		case in.check != nil:
			continue // a checkbox always answers
		case in.radio != nil:
			if (need || f.requireAll) && in.radio.Selected == "" {
				return false
			}
		case in.group != nil:
			if need && len(in.group.Selected) == 0 {
				return false
			}
		default:
			if need && strings.TrimSpace(in.entry.Text) == "" {
				return false
			}
		}
	}
	return true
}

// setEnabled locks the fields while a submission is in flight.
func (f *formView) setEnabled(ok bool) {
	for _, in := range f.inputs {
		w, _ := in.widget().(fyne.Disableable)
		if w == nil {
			continue
		}
		if ok {
			w.Enable()
		} else {
			w.Disable()
		}
	}
}

// input returns the widget of the field keyed k (tests, focus).
func (f *formView) input(k string) *fieldInput {
	for _, in := range f.inputs {
		if in.field.Key == k {
			return in
		}
	}
	return nil
}

// fieldEntry is a form's text field. A focused widget gets Esc before the
// window does, so the field forwards it (a dialog's cancel); Enter is the
// entry's OnSubmitted.
type fieldEntry struct {
	widget.Entry
	onEscape func()
}

func newFieldEntry() *fieldEntry {
	e := &fieldEntry{}
	e.ExtendBaseWidget(e)
	return e
}

func (e *fieldEntry) TypedKey(ev *fyne.KeyEvent) {
	if ev.Name == fyne.KeyEscape && e.onEscape != nil {
		e.onEscape()
		return
	}
	e.Entry.TypedKey(ev)
}

// firstEntry is the form's first text field, nil when it has none.
func (f *formView) firstEntry() *fieldEntry {
	for _, in := range f.inputs {
		if in.entry != nil {
			return in.entry
		}
	}
	return nil
}

// onKeys makes every text field answer Esc with cancel and Enter with
// submit (a prompt dialog).
func (f *formView) onKeys(cancel, submit func()) {
	for _, in := range f.inputs {
		if in.entry != nil {
			in.entry.onEscape = cancel
			in.entry.OnSubmitted = func(string) { submit() }
		}
	}
}

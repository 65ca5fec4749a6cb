// Package forms owns the widgets of a form's fields (a form surface in the
// plugin panel, a prompt dialog) and reads the user's answers as typed
// values. It knows no plugin, surface or window: the caller says what to
// do on a change, a submit and a cancel.
package forms

import (
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
	"github.com/reasonix/reasonix-desktop/protocol"
)

// View renders form fields (a form surface, a prompt dialog) and reads
// the user's answers as typed values: confirm → bool, input → string,
// select → string, multiselect → []string. UI goroutine only.
type View struct {
	inputs     []*Input
	obj        *fyne.Container
	onChange   func()
	requireAll bool
	wheel      fyne.Scrollable // what the wheel over a text field scrolls (PassWheel)
}

// Input is one field's widget; exactly one of Check, Entry, Radio and
// Group is set.
type Input struct {
	field protocol.FormField
	label *widget.Label
	Check *widget.Check      // confirm
	Entry *Entry             // input
	Radio *widget.RadioGroup // select
	Group *widget.CheckGroup // multiselect
}

// New builds the widgets of fields. requireAll (a simple prompt)
// makes every field need an answer; otherwise only required ones do.
func New(fields []protocol.FormField, requireAll bool, onChange func()) *View {
	// Setting defaults fires the widgets' callbacks: onChange is installed
	// only once the view is complete.
	f := &View{obj: container.NewVBox(), requireAll: requireAll}
	defer func() { f.onChange = onChange }()
	changed := func() {
		if f.onChange != nil {
			f.onChange()
		}
	}
	for _, fd := range fields {
		in := &Input{field: fd}
		label := fd.Label
		if label == "" && fd.Key != protocol.SimpleValueKey {
			label = fd.Key
		}
		if fd.Required {
			label += " *"
		}
		switch fd.Kind {
		case protocol.FieldConfirm:
			in.Check = widget.NewCheck(strings.TrimSpace(label), func(bool) { changed() })
			if b, ok := fd.Default.(bool); ok {
				in.Check.SetChecked(b)
			}
			if in.Check.Text == "" {
				in.Check.Text = i18n.T("Yes")
			}
			f.obj.Add(in.Check)
			f.inputs = append(f.inputs, in)
			continue
		case protocol.FieldSelect:
			in.Radio = widget.NewRadioGroup(fd.Options, func(string) { changed() })
			in.Radio.Required = fd.Required
			if s, ok := fd.Default.(string); ok && slices.Contains(fd.Options, s) {
				in.Radio.SetSelected(s)
			}
		case protocol.FieldMultiselect:
			in.Group = widget.NewCheckGroup(fd.Options, func([]string) { changed() })
			in.Group.SetSelected(defaultStrings(fd.Default, fd.Options))
		default: // input
			in.Entry = newEntry()
			if s, ok := fd.Default.(string); ok {
				in.Entry.SetText(s)
			}
			in.Entry.OnChanged = func(string) { changed() }
		}
		if label != "" {
			in.label = widget.NewLabel(label)
			in.label.TextStyle.Bold = true
			f.obj.Add(in.label)
		}
		if in.Entry != nil {
			f.obj.Add(container.NewStack(in.Entry, newWheelPass(f)))
		} else {
			f.obj.Add(in.widget())
		}
		f.inputs = append(f.inputs, in)
	}
	return f
}

// PassWheel makes the wheel over a text field scroll target (the panel
// the form is in): a single-line field's own scroller takes the wheel
// before any scroller around it and, its text fitting, does nothing.
func (f *View) PassWheel(target fyne.Scrollable) { f.wheel = target }

// wheelPass lies over a text field and takes only the wheel (it is no
// Tappable, Draggable, Hoverable or Cursorable: clicks, selection and the
// cursor still reach the field). The driver gives the wheel to the last
// Scrollable under the pointer, which this is.
type wheelPass struct {
	widget.BaseWidget
	f *View
}

func newWheelPass(f *View) *wheelPass {
	w := &wheelPass{f: f}
	w.ExtendBaseWidget(w)
	return w
}

func (w *wheelPass) Scrolled(ev *fyne.ScrollEvent) {
	if w.f.wheel != nil {
		w.f.wheel.Scrolled(ev)
	}
}

func (w *wheelPass) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(container.NewWithoutLayout())
}

// Object is the view's canvas object.
func (f *View) Object() fyne.CanvasObject { return f.obj }

// Changed runs the change callback (a caller that wants the current state
// applied at once).
func (f *View) Changed() {
	if f.onChange != nil {
		f.onChange()
	}
}

func (in *Input) widget() fyne.CanvasObject {
	switch {
	case in.Check != nil:
		return in.Check
	case in.Radio != nil:
		return in.Radio
	case in.Group != nil:
		return in.Group
	}
	return in.Entry
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

// Values are the answers, typed per field kind. A select with nothing
// chosen is left out.
func (f *View) Values() map[string]any {
	out := make(map[string]any, len(f.inputs))
	for _, in := range f.inputs {
		k := in.field.Key
		switch {
		case in.Check != nil:
			out[k] = in.Check.Checked
		case in.Radio != nil:
			if in.Radio.Selected != "" {
				out[k] = in.Radio.Selected
			}
		case in.Group != nil:
			out[k] = append([]string{}, in.Group.Selected...)
		default:
			out[k] = in.Entry.Text
		}
	}
	return out
}

// Complete reports whether every field that needs an answer has one.
func (f *View) Complete() bool {
	for _, in := range f.inputs {
		need := in.field.Required
		switch {
		case in.Check != nil:
			continue // a checkbox always answers
		case in.Radio != nil:
			if (need || f.requireAll) && in.Radio.Selected == "" {
				return false
			}
		case in.Group != nil:
			if need && len(in.Group.Selected) == 0 {
				return false
			}
		default:
			if need && strings.TrimSpace(in.Entry.Text) == "" {
				return false
			}
		}
	}
	return true
}

// SetEnabled locks the fields while a submission is in flight.
func (f *View) SetEnabled(ok bool) {
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

// Input returns the widget of the field keyed k (tests, focus).
func (f *View) Input(k string) *Input {
	for _, in := range f.inputs {
		if in.field.Key == k {
			return in
		}
	}
	return nil
}

// Entry is a form's text field. A focused widget gets Esc before the
// window does, so the field forwards it (a dialog's cancel); Enter is the
// entry's OnSubmitted.
type Entry struct {
	widget.Entry
	onEscape func()
}

func newEntry() *Entry {
	e := &Entry{}
	e.ExtendBaseWidget(e)
	return e
}

func (e *Entry) TypedKey(ev *fyne.KeyEvent) {
	if ev.Name == fyne.KeyEscape && e.onEscape != nil {
		e.onEscape()
		return
	}
	e.Entry.TypedKey(ev)
}

// FirstEntry is the form's first text field, nil when it has none.
func (f *View) FirstEntry() *Entry {
	for _, in := range f.inputs {
		if in.Entry != nil {
			return in.Entry
		}
	}
	return nil
}

// OnKeys makes every text field answer Esc with cancel and Enter with
// submit (a prompt dialog).
func (f *View) OnKeys(cancel, submit func()) {
	for _, in := range f.inputs {
		if in.Entry != nil {
			in.Entry.onEscape = cancel
			in.Entry.OnSubmitted = func(string) { submit() }
		}
	}
}

package dialogs

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
)

// compatView is a package's compatibility report as the window shows it:
// the grade ("full", "partial", "none"), its one-line summary and one line
// per feature skipped or changed. The front ends may not import the
// report's package (internal/packages), so the report is read off the
// core's plain data into this.
type compatView struct {
	grade, summary string
	lines          []string
}

// known is false when the core gave no report (a package not loaded).
func (v compatView) known() bool { return v.grade != "" }

// previewCompat is the report an install preview carries.
func previewCompat(pv agent.InstallPreview) compatView {
	r := pv.Compat
	v := compatView{grade: string(r.Grade), summary: r.Summary()}
	for _, l := range r.Lines {
		v.lines = append(v.lines, redact.String(l.String()))
	}
	return v
}

// pluginCompat is the report of an installed plugin: the loaded package's
// (PluginInfo) when it is loaded, else the manifest's read now (a disabled
// plugin), else none.
func pluginCompat(p agent.PluginInfo, man compatView) compatView {
	if p.Compat == nil {
		return man
	}
	r := *p.Compat
	v := compatView{grade: string(r.Grade), summary: r.Summary()}
	for _, l := range r.Lines {
		v.lines = append(v.lines, redact.String(l.String()))
	}
	return v
}

// manifestCompat is the report PluginManifest carries.
func manifestCompat(man agent.PluginManifest) compatView {
	r := man.Compat
	v := compatView{grade: string(r.Grade), summary: r.Summary()}
	for _, l := range r.Lines {
		v.lines = append(v.lines, redact.String(l.String()))
	}
	return v
}

// importance is how loud the grade is: a package that only half-works
// warns, one of which nothing works is an error.
func (v compatView) importance() widget.Importance {
	switch v.grade {
	case "full":
		return widget.SuccessImportance
	case "none":
		return widget.DangerImportance
	}
	return widget.WarningImportance
}

// headline is the grade line the preview and the manager lead with.
func (v compatView) headline() string {
	switch v.grade {
	case "full":
		return i18n.T("Compatibility: %s", i18n.T("full — everything this package declares works here"))
	case "none":
		return i18n.T("Compatibility: %s", i18n.T("none — nothing in this package works here"))
	}
	return i18n.T("Compatibility: %s", v.summary)
}

// gradeText is the headline without its "Compatibility:" lead, for the
// manager's details where a heading says it.
func (v compatView) gradeText() string {
	switch v.grade {
	case "full":
		return i18n.T("full — everything this package declares works here")
	case "none":
		return i18n.T("none — nothing in this package works here")
	}
	return v.summary
}

// headLabel is the grade line in its importance.
func (v compatView) headLabel() *widget.Label {
	head := widget.NewLabel(v.headline())
	head.Importance = v.importance()
	head.TextStyle.Bold = true
	head.Wrapping = fyne.TextWrapWord
	return head
}

// bullets are the report's lines, one wrapped label each (lines name files
// and features and can be long).
func (v compatView) bullets() *fyne.Container {
	objs := make([]fyne.CanvasObject, 0, len(v.lines))
	for _, l := range v.lines {
		lab := widget.NewLabel("• " + l)
		lab.Wrapping = fyne.TextWrapWord
		objs = append(objs, lab)
	}
	return container.NewVBox(objs...)
}

// segments is the report in the plugin manager's details.
func (v compatView) segments() []widget.RichTextSegment {
	grade := widget.RichTextStyleStrong
	grade.Inline = false // its own line: the list starts under it
	segs := []widget.RichTextSegment{
		&widget.TextSegment{Style: widget.RichTextStyleSubHeading, Text: i18n.T("Compatibility")},
		&widget.TextSegment{Style: grade, Text: v.gradeText()},
	}
	if len(v.lines) > 0 {
		items := make([]widget.RichTextSegment, len(v.lines))
		for i, l := range v.lines {
			items[i] = &widget.ParagraphSegment{Texts: []widget.RichTextSegment{
				&widget.TextSegment{Style: widget.RichTextStyleInline, Text: l}}}
		}
		segs = append(segs, &widget.ListSegment{Items: items})
	}
	return segs
}

// withoutCompatText is a preview's text without the report's text block
// at its end (the core appends Compat.Text()): the dialog shows the report
// above the text, in its grade's colour, and once is enough.
func withoutCompatText(text string, pv agent.InstallPreview) string {
	if pv.Compat.Grade == "" {
		return text
	}
	return strings.TrimRight(strings.TrimSuffix(text, pv.Compat.Text()), "\n")
}

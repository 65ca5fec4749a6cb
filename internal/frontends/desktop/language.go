package desktop

import (
	"os"
	"strings"
	"sync"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/lang"

	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/chat"
)

// The window speaks i18n.Lang(), chosen before it opens (the command line
// sets it from settings.json or the system) and changed from Settings →
// General while it runs. Fyne's own words (its dialogs' buttons, the file
// picker) come from Fyne's lang package, which reads the locale from the
// environment once, in its init: with only that, a user who chose English
// on a Chinese system got English menus and 取消 in every dialog, and the
// other way round. Fyne re-reads the environment each time translations
// are added (lang.AddTranslationsForLocale), so the window gives it the
// chosen language for the length of that call.

// fyneLangMu keeps two windows (tests) from interleaving their changes
// of the process environment.
var fyneLangMu sync.Mutex

// syncFyneLanguage points Fyne's translations at tag (an i18n tag). The
// environment is put back at once: plugins started later inherit the
// user's own.
func syncFyneLanguage(tag string) {
	loc := "en_US.UTF-8"
	if strings.HasPrefix(tag, "zh") {
		loc = "zh_CN.UTF-8"
	}
	fyneLangMu.Lock()
	defer fyneLangMu.Unlock()
	// LC_ALL first (a C locale in LANG or LC_MESSAGES would make the
	// locale reader ignore LANGUAGE), LANGUAGE for the list.
	restore := setEnv(map[string]string{"LC_ALL": loc, "LANGUAGE": loc[:strings.IndexByte(loc, '.')]})
	defer restore()
	// An empty English catalog: adding it is what makes Fyne look again.
	if err := lang.AddTranslationsForLocale([]byte("{}"), fyne.Locale("en")); err != nil {
		fyne.LogError("Fyne's language", err)
	}
}

// setEnv sets vars and returns what puts the old values back.
func setEnv(vars map[string]string) (restore func()) {
	type old struct {
		v  string
		ok bool
	}
	was := map[string]old{}
	for k, v := range vars {
		o, ok := os.LookupEnv(k)
		was[k] = old{o, ok}
		_ = os.Setenv(k, v)
	}
	return func() {
		for k, o := range was {
			if o.ok {
				_ = os.Setenv(k, o.v)
			} else {
				_ = os.Unsetenv(k)
			}
		}
	}
}

// watchLanguage makes the window follow language changes (at start).
func (d *UI) watchLanguage() {
	syncFyneLanguage(i18n.Lang())
	d.trace("language " + i18n.Lang())
	d.checkCJKFont("")
	i18n.OnChange(func() { d.b.Post(d.languageChanged) }) // dropped once the window is closed
}

// languageChanged writes what the window can again in the new language
// (UI goroutine): menus, toolbar, sidebar, composer, empty state, status
// bar and the transcripts alive. Secondary windows open in it next time;
// Settings rebuilds itself. What is already written in a chat (messages,
// notices shown) stays as it was.
func (d *UI) languageChanged() {
	tag := i18n.Lang()
	syncFyneLanguage(tag)
	d.win.SetMainMenu(d.buildMainMenu())
	d.toolbar.relabel()
	d.sidebar.relabel()
	d.panel.relabel()
	c := d.composer
	c.placeholder()
	c.sendBtn.SetText(i18n.T("Send"))
	c.stopBtn.SetText(i18n.T("Stop"))
	c.attach.btn.SetText(i18n.T("Attach"))
	if c.editLine.Visible() {
		c.editLine.SetText(i18n.T(editLine))
	}
	d.relabelTranscripts()
	d.syncEmptyState()
	if d.state.Connected() {
		d.status.Relabel(d.state.Plugins())
	} else {
		d.status.SetHealthText(i18n.T("Starting plugins…"))
	}
	d.trace("language " + tag)
	d.checkCJKFont("")
}

// relabelTranscripts rebuilds the rows in view of every live transcript
// (UI goroutine): their words after a language change, their replies'
// costs after a currency change.
func (d *UI) relabelTranscripts() {
	seen := map[*chat.Transcript]bool{}
	for _, t := range d.chats.live() {
		seen[t] = true
		t.Relabel()
	}
	if t := d.transcript.get(); t != nil && !seen[t] {
		t.Relabel()
	}
}

// currencyChanged shows the chat's total and the replies' costs again in
// the currency Settings saved (UI goroutine).
func (d *UI) currencyChanged() {
	d.relabelTranscripts()
	d.refreshMeter()
}

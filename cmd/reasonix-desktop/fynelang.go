//go:build !nogui

package main

import (
	"os"
	"sync"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/lang"

	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
)

// fyneLangMu keeps two language changes from interleaving their
// environment swaps.
var fyneLangMu sync.Mutex

// fyneLanguage makes Fyne's own words (its dialogs' Cancel and Confirm, the
// file chooser) speak the app's language, tag (i18n.Lang()). Fyne's lang
// package picks its language from the environment (go-locale reads LC_ALL,
// LC_MESSAGES, LANG, then LANGUAGE unless the locale is C), in its init
// and again each time translations are added, and offers no other switch:
// under LANG=en_US a user who chose 简体中文 in Settings got Chinese menus
// with English dialog buttons, and the reverse under zh_CN. So for one
// AddTranslationsForLocale call (an empty catalog: it adds no words) the
// environment says the chosen language, and is put back at once: the
// plugins, started later, inherit the user's own.
func fyneLanguage(tag string) {
	fyneLangMu.Lock()
	defer fyneLangMu.Unlock()
	loc := "en_US.UTF-8"
	if tag == i18n.SimplifiedChinese {
		loc = "zh_CN.UTF-8"
	}
	restore := swapEnv(map[string]string{"LC_ALL": loc, "LC_MESSAGES": loc, "LANGUAGE": ""})
	defer restore()
	_ = lang.AddTranslationsForLocale([]byte("{}"), fyne.Locale("en")) // no words: only the re-read matters
}

// swapEnv sets the variables (an empty value unsets one) and returns what
// puts the old values back.
func swapEnv(set map[string]string) (restore func()) {
	type old struct {
		v  string
		ok bool
	}
	saved := map[string]old{}
	for k, v := range set {
		ov, ok := os.LookupEnv(k)
		saved[k] = old{ov, ok}
		if v == "" {
			os.Unsetenv(k)
		} else {
			os.Setenv(k, v)
		}
	}
	return func() {
		for k, o := range saved {
			if o.ok {
				os.Setenv(k, o.v)
			} else {
				os.Unsetenv(k)
			}
		}
	}
}

//go:build !nogui

package main

import (
	"os"
	"testing"

	"fyne.io/fyne/v2/lang"

	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
)

// Fyne's own dialog words follow the app's language whatever the locale,
// and the environment the plugins inherit is left as it was.
func TestFyneWordsFollowTheAppLanguage(t *testing.T) {
	t.Setenv("LANG", "en_US.UTF-8")
	t.Setenv("LC_ALL", "")
	os.Unsetenv("LC_ALL")
	t.Setenv("LANGUAGE", "en_US")
	fyneLanguage(i18n.SimplifiedChinese)
	if got := lang.L("Cancel"); got != "取消" {
		t.Errorf("Cancel in Chinese under LANG=en_US: %q", got)
	}
	if os.Getenv("LANGUAGE") != "en_US" || os.Getenv("LANG") != "en_US.UTF-8" {
		t.Errorf("the environment changed: LANGUAGE=%q LANG=%q", os.Getenv("LANGUAGE"), os.Getenv("LANG"))
	}
	if _, set := os.LookupEnv("LC_ALL"); set {
		t.Error("LC_ALL left set")
	}
	t.Setenv("LANG", "zh_CN.UTF-8")
	t.Setenv("LANGUAGE", "zh_CN")
	fyneLanguage(i18n.English)
	if got := lang.L("Cancel"); got != "Cancel" {
		t.Errorf("Cancel in English under LANG=zh_CN: %q", got)
	}
}

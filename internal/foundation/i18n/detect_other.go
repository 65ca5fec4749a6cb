//go:build !windows && !darwin

package i18n

// systemLocale: on Linux and the BSDs the environment is the setting.
func systemLocale() string { return "" }

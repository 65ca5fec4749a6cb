// Package i18ncheck holds the test that keeps the app's words in the
// catalog (internal/foundation/i18n): every key the code passes to i18n.T,
// N or M has a Simplified Chinese translation with the same fmt verbs, no
// translation is left without a key in the code, and no English literal
// reaches a user-facing Fyne call in the front ends without going through
// the catalog. I18N_PKG (comma-separated folders, e.g.
// ./internal/frontends/desktop/chat) narrows the literal and missing-key
// checks to those folders.
package i18ncheck

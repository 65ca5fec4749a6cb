// Package i18n owns the words the app shows: the translation catalog, the
// current language, plural choice and locale-aware formatting of numbers,
// dates and money. Both front ends and the command line use it; the core's
// error texts, logs, --json output and anything a plugin, hook, server or
// model wrote are not translated.
//
// A message is written in English at the call site and is its own catalog
// key, a fmt format:
//
//	i18n.T("Installed %s", name)
//	i18n.N("%d file", "%d files", n, n)
//
// The catalog is locales/<language>/<area>.json, a flat JSON object from the
// English text to its translation; each area is one front-end part's words.
// A plural's key is its "other" form. A translation keeps the key's fmt verbs
// (it may reorder them with %[2]s); internal/testing/i18ncheck fails when a
// key used in the code has no translation, when the verbs differ, and when a
// user-facing Fyne call gets an English literal that bypasses T.
//
// The language is chosen once at start (SetLang with the user's setting, or
// Detect) and may change while the app runs; T and N are safe from any
// goroutine. OnChange tells the window to relabel what it can.
//
// Own code rather than Fyne's lang package: Fyne's picks its language once,
// from the process environment, in its init, offers no switch, and the core
// and the command line must not link the toolkit. Fyne's own dialog words
// follow the same choice through the LANGUAGE variable set before it starts
// (the desktop does that).
package i18n

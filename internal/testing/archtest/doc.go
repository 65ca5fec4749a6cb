// Package archtest holds the test that keeps the module's packages inside
// the parts and import rules that docs/architecture.md draws. The picture in
// that document is the rule: its JSON block is parsed by the test, so the
// document and the check cannot drift apart. The package has no code of its
// own.
package archtest

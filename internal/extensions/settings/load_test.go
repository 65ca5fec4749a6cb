package settings

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// writeBroken makes path one of the ways settings.json goes wrong.
func writeBroken(t *testing.T, path, kind string) {
	t.Helper()
	var err error
	switch kind {
	case "directory":
		err = os.Mkdir(path, 0o700)
	case "unreadable":
		if err = os.WriteFile(path, []byte(`{"defaultModel":"m"}`), 0o600); err == nil {
			err = os.Chmod(path, 0)
		}
		if _, rerr := os.ReadFile(path); rerr == nil {
			t.Skip("running as a user who reads any file (root)")
		}
	default:
		err = os.WriteFile(path, []byte(kind), 0o600)
	}
	if err != nil {
		t.Fatal(err)
	}
}

// Load never fails: a broken file is the defaults and a Problem naming the
// file, the place and the reason; an unknown top-level member or an empty
// file is a warning and the rest is used.
func TestLoadReportsWhatIsWrong(t *testing.T) {
	for _, tt := range []struct {
		name, doc   string
		broken      bool
		where, want string
		model       string // the DefaultModel in force
	}{
		{"valid", `{"defaultModel":"m"}`, false, "", "", "m"},
		{"invalid JSON", "{\n  \"defaultModel\": \"m\",\n  oops\n}", true, "line 3, column 3", "invalid JSON: invalid character 'o'", ""},
		{"garbage", "this is not json", true, "line 1, column 2", "invalid JSON", ""},
		{"truncated", `{"defaultModel":"m"`, true, "line 1, column 20", "invalid JSON: unexpected end", ""},
		{"trailing data", `{} x`, true, "line 1, column 4", "invalid JSON", ""},
		{"wrong type", `{"defaultModel":"m","alwaysApprove":"write_file"}`, true, "field alwaysApprove", "must be an array, got a string", ""},
		{"wrong type in a rule", `{"rules":[{"tool":1}]}`, true, "field rules[0].tool", "must be a string", ""},
		{"repeated key", `{"defaultModel":"a","defaultModel":"b"}`, true, "field defaultModel", "duplicate key", ""},
		{"unknown field", `{"defaultModle":"x","defaultModel":"m"}`, false, "field defaultModle", "unknown field", "m"},
		{"unknown and wrong", `{"zzz":1,"defaultEffort":2}`, true, "field defaultEffort", "must be a string", ""},
		{"empty file", "", false, "", "the file is empty", ""},
		{"blank file", " \n", false, "", "the file is empty", ""},
		{"null", `null`, true, "", "", ""},
		{"directory", "directory", true, "", "it is a directory, not a file", ""},
		{"unreadable", "unreadable", true, "", "permission denied", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "settings.json")
			writeBroken(t, path, tt.doc)
			f, p := Load(path)
			if f == nil {
				t.Fatal("Load returned no file")
			}
			if got := f.Get().DefaultModel; got != tt.model {
				t.Errorf("DefaultModel %q, want %q", got, tt.model)
			}
			if tt.name == "valid" {
				if p != nil {
					t.Fatalf("problem with a valid file: %v", p)
				}
				return
			}
			if p == nil {
				t.Fatal("no problem reported")
			}
			if p.Broken != tt.broken || p.Where() != tt.where || !strings.Contains(p.Error(), tt.want) || !strings.Contains(p.Error(), path) {
				t.Fatalf("problem %q (broken %v, where %q); want broken %v, where %q, %q", p.Error(), p.Broken, p.Where(), tt.broken, tt.where, tt.want)
			}
			if tt.broken && !strings.Contains(p.Error(), "using the default settings") {
				t.Errorf("a broken file's problem does not say what the app does: %v", p)
			}
		})
	}
}

// A broken file is never overwritten: Update refuses and leaves it as the
// user wrote it; once the file is fixed, the next Get uses it.
func TestBrokenFileIsNeverOverwritten(t *testing.T) {
	path := filepath.Join(t.TempDir(), "settings.json")
	const bad = `{"defaultModel": "m",}`
	writeBroken(t, path, bad)
	f, p := Load(path)
	if p == nil || !p.Broken {
		t.Fatalf("problem %v", p)
	}
	err := f.Update(func(s *Settings) { s.DefaultModel = "other" })
	if !errors.Is(err, ErrBroken) || !strings.Contains(err.Error(), path) {
		t.Fatalf("Update over a broken file: %v", err)
	}
	if err := f.AddRule(Rule{Tool: "write_file"}); !errors.Is(err, ErrBroken) {
		t.Fatalf("AddRule over a broken file: %v", err)
	}
	if b, _ := os.ReadFile(path); string(b) != bad {
		t.Fatalf("the broken file changed: %s", b)
	}
	if s := f.Get(); s.DefaultModel != "" || len(s.Rules) != 0 {
		t.Fatalf("a refused update changed the settings: %+v", s)
	}
	// The user fixes it in an editor: it takes effect, and writes work.
	if err := os.WriteFile(path, []byte(`{"defaultModel":"m"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := f.Get().DefaultModel; got != "m" {
		t.Fatalf("after the fix DefaultModel %q", got)
	}
	if err := f.Update(func(s *Settings) { s.DefaultEffort = "high" }); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); !strings.Contains(string(b), `"defaultModel": "m"`) || !strings.Contains(string(b), `"high"`) {
		t.Fatalf("saved %s", b)
	}
}

// An unknown member is a warning: the rest is used, and saving keeps it.
func TestUnknownFieldIsKeptOnSave(t *testing.T) {
	path := filepath.Join(t.TempDir(), "settings.json")
	writeBroken(t, path, `{"futureSetting":{"a":[1,2]},"defaultModel":"m"}`)
	f, p := Load(path)
	if p == nil || p.Broken || p.Field != "futureSetting" {
		t.Fatalf("problem %v", p)
	}
	if err := f.Update(func(s *Settings) { s.DefaultEffort = "low" }); err != nil {
		t.Fatal(err)
	}
	again, p := Load(path)
	if p == nil || p.Field != "futureSetting" {
		t.Fatalf("the unknown member was not kept: %v", p)
	}
	if s := again.Get(); s.DefaultModel != "m" || s.DefaultEffort != "low" {
		t.Fatalf("reloaded %+v", s)
	}
}

// Reset keeps what was there as a backup next to the file and writes the
// defaults; a File that was broken uses them at once.
func TestResetKeepsABackup(t *testing.T) {
	now := time.Date(2026, 12, 2, 16, 30, 5, 0, time.UTC)
	for _, kind := range []string{"not json", "directory", "unreadable", "missing"} {
		t.Run(kind, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "settings.json")
			if kind != "missing" {
				writeBroken(t, path, kind)
			}
			f, _ := Load(path)
			backup, err := Reset(path, now)
			if err != nil {
				t.Fatal(err)
			}
			if b, err := os.ReadFile(path); err != nil || string(b) != "{}\n" {
				t.Fatalf("after reset the file is %q (%v)", b, err)
			}
			if _, p := Load(path); p != nil {
				t.Fatalf("the reset file has a problem: %v", p)
			}
			if kind == "missing" {
				if backup != "" {
					t.Fatalf("backup %q of nothing", backup)
				}
			} else {
				if want := path + ".broken-20261202-163005"; backup != want {
					t.Fatalf("backup %q, want %q", backup, want)
				}
				st, err := os.Lstat(backup)
				if err != nil || st.IsDir() != (kind == "directory") {
					t.Fatalf("backup %v (%v)", st, err)
				}
				if kind == "not json" {
					if b, _ := os.ReadFile(backup); string(b) != "not json" {
						t.Fatalf("backup holds %q", b)
					}
				}
			}
			if err := f.Update(func(s *Settings) { s.DefaultModel = "m" }); err != nil {
				t.Fatalf("the File open before the reset cannot save: %v", err)
			}
			// A second reset the same second keeps both backups.
			if kind == "not json" {
				writeBroken(t, path+".tmp", "again")
				if err := os.Rename(path+".tmp", path); err != nil {
					t.Fatal(err)
				}
				b2, err := Reset(path, now)
				if err != nil || b2 == backup {
					t.Fatalf("second backup %q (%v)", b2, err)
				}
				if b, _ := os.ReadFile(b2); string(b) != "again" {
					t.Fatalf("second backup holds %q", b)
				}
			}
		})
	}
}

package plugin

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/reasonix/reasonix-desktop/internal/foundation/atomicfile"
)

func rec(name string) Record {
	return Record{
		Name: name, Source: "/src/" + name, Root: "/data/plugins/" + name, Version: "1.0.0",
		Description: "d " + name, Enabled: true, InstalledAt: time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC),
		ManifestSHA256: strings.Repeat("ab", 32),
	}
}

func TestStoreRoundTripSorted(t *testing.T) {
	layout := Layout{Root: t.TempDir()}
	s, err := OpenStore(layout)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.List()) != 0 {
		t.Fatal("new store not empty")
	}
	if _, err := os.Stat(layout.PackagesFile()); !os.IsNotExist(err) {
		t.Fatal("OpenStore wrote the store file")
	}
	for _, n := range []string{"zeta", "alpha", "mid"} {
		if err := s.Put(rec(n)); err != nil {
			t.Fatal(err)
		}
	}
	linked := rec("linked")
	linked.Linked, linked.Root = true, linked.Source
	if err := s.Put(linked); err != nil {
		t.Fatal(err)
	}
	if err := s.SetEnabled("mid", false); err != nil {
		t.Fatal(err)
	}
	if err := s.Remove("zeta"); err != nil {
		t.Fatal(err)
	}
	if err := s.Remove("zeta"); err == nil {
		t.Fatal("removing a missing plugin succeeded")
	}
	if err := s.SetEnabled("nope", true); err == nil {
		t.Fatal("enabling a missing plugin succeeded")
	}
	if err := s.Put(Record{Name: "../x", Root: "/x"}); err == nil {
		t.Fatal("invalid name accepted")
	}

	s2, err := OpenStore(layout)
	if err != nil {
		t.Fatal(err)
	}
	got := s2.List()
	var names []string
	for _, r := range got {
		names = append(names, r.Name)
	}
	if !reflect.DeepEqual(names, []string{"alpha", "linked", "mid"}) {
		t.Fatalf("names = %v", names)
	}
	if r, _ := s2.Get("mid"); r.Enabled {
		t.Fatal("mid still enabled")
	}
	want := rec("alpha")
	if r, ok := s2.Get("alpha"); !ok || !reflect.DeepEqual(r, want) {
		t.Fatalf("alpha = %+v, want %+v", r, want)
	}
	if r, _ := s2.Get("linked"); !r.Linked || r.Root != "/src/linked" {
		t.Fatalf("linked = %+v", r)
	}
	data, _ := os.ReadFile(layout.PackagesFile())
	text := string(data)
	if !strings.Contains(text, `"version": 1`) || !strings.Contains(text, `"installedAt": "2025-01-02T03:04:05Z"`) ||
		!strings.Contains(text, `"manifestSha256"`) {
		t.Fatalf("file:\n%s", text)
	}
	if strings.Index(text, `"alpha"`) > strings.Index(text, `"mid"`) {
		t.Fatal("file not sorted by name")
	}
}

func TestStoreAtomicWriteLeavesNoTemp(t *testing.T) {
	layout := Layout{Root: t.TempDir()}
	s, _ := OpenStore(layout)
	for i := 0; i < 5; i++ {
		if err := s.Put(rec(fmt.Sprintf("p%d", i))); err != nil {
			t.Fatal(err)
		}
	}
	entries, _ := os.ReadDir(layout.Root)
	for _, e := range entries {
		if e.Name() != "plugin-packages.json" && e.Name() != "plugin-packages.json.lock" {
			t.Errorf("unexpected file %s", e.Name())
		}
	}
}

func TestStoreCrashLeftoverTempIgnored(t *testing.T) {
	layout := Layout{Root: t.TempDir()}
	s, _ := OpenStore(layout)
	if err := s.Put(rec("alpha")); err != nil {
		t.Fatal(err)
	}
	// A writer crashed mid-write: its temp file holds garbage.
	leftover := filepath.Join(layout.Root, atomicfile.TempPrefix+"plugin-packages.json-123456")
	if err := os.WriteFile(leftover, []byte(`{"version": 1, "plugins": [{"na`), 0o600); err != nil {
		t.Fatal(err)
	}
	s2, err := OpenStore(layout)
	if err != nil {
		t.Fatalf("load with leftover temp: %v", err)
	}
	if _, ok := s2.Get("alpha"); !ok || len(s2.List()) != 1 {
		t.Fatalf("records = %+v", s2.List())
	}
	// The next write cleans it up.
	if err := s2.Put(rec("beta")); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(leftover); !os.IsNotExist(err) {
		t.Fatal("leftover temp not removed by the next write")
	}
}

func TestStoreBadFiles(t *testing.T) {
	cases := map[string]string{
		"bad version":   `{"version": 2, "plugins": []}`,
		"no version":    `{"plugins": []}`,
		"bad JSON":      `{"version": 1, "plugins": [`,
		"trailing data": `{"version": 1, "plugins": []} x`,
		"bad name":      `{"version": 1, "plugins": [{"name": "../x", "root": "/x"}]}`,
		"duplicate":     `{"version": 1, "plugins": [{"name": "a", "root": "/x"}, {"name": "a", "root": "/y"}]}`,
		"empty file":    ``,
	}
	for name, body := range cases {
		t.Run(name, func(t *testing.T) {
			layout := Layout{Root: t.TempDir()}
			if err := os.WriteFile(layout.PackagesFile(), []byte(body), 0o600); err != nil {
				t.Fatal(err)
			}
			_, err := OpenStore(layout)
			if err == nil || !strings.Contains(err.Error(), layout.PackagesFile()) {
				t.Fatalf("err = %v, want an error naming the file", err)
			}
		})
	}
}

func TestStoreConcurrentPuts(t *testing.T) {
	layout := Layout{Root: t.TempDir()}
	shared, _ := OpenStore(layout)
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for i := 0; i < 8; i++ {
		wg.Add(2)
		go func() { // one shared store
			defer wg.Done()
			errs <- shared.Put(rec(fmt.Sprintf("shared-%d", i)))
		}()
		go func() { // a store per goroutine, as separate processes would have
			defer wg.Done()
			own, err := OpenStore(layout)
			if err != nil {
				errs <- err
				return
			}
			errs <- own.Put(rec(fmt.Sprintf("own-%d", i)))
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	final, err := OpenStore(layout)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(final.List()); n != 16 {
		t.Fatalf("%d records landed, want 16: %+v", n, final.List())
	}
}

// Package secrets owns where the values a user types for a plugin (API keys,
// and the settings that go with them) are kept: the operating system's
// keyring (Windows Credential Manager, macOS Keychain, the freedesktop Secret
// Service) through github.com/zalando/go-keyring, or, where no keyring
// answers, a private file (mode 0600, written atomically) in the data
// directory. Never settings.json. Every value read or written is registered
// with internal/foundation/redact under its variable name, so a secret-named one is
// masked wherever plugin text reaches the screen or a log.
//
// The choice follows the Reasonix host's REASONIX_CREDENTIALS_STORE
// (auto|keyring|file, default auto): auto uses the keyring and falls back to
// the file for the rest of the process the first time the keyring fails or
// does not answer within Timeout (a locked Secret Service can wait for a
// prompt nobody sees).
package secrets

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/zalando/go-keyring"

	"github.com/reasonix/reasonix-desktop/internal/foundation/atomicfile"
	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
)

// ModeEnv chooses the store, as in the Reasonix host.
const ModeEnv = "REASONIX_CREDENTIALS_STORE"

// Modes of ModeEnv.
const (
	ModeAuto    = "auto"
	ModeKeyring = "keyring"
	ModeFile    = "file"
)

// Service is the keyring service every value is saved under; the account is
// "<plugin>/<VARIABLE>".
const Service = "reasonix-desktop"

// FileName is the fallback file in the data directory.
const FileName = "credentials.json"

// DefaultTimeout bounds one keyring call.
const DefaultTimeout = 5 * time.Second

// maxFileBytes caps what is read back from the file.
const maxFileBytes = 4 << 20

// Keyring is the system keyring as go-keyring offers it. Implementations
// must be safe for concurrent use; a call may block (the Store bounds it).
type Keyring interface {
	Get(service, user string) (string, error)
	Set(service, user, password string) error
	Delete(service, user string) error
}

// ErrNotFound: no value is saved under that name (go-keyring's own error
// from the keyring).
var ErrNotFound = keyring.ErrNotFound

// Options configure a Store.
type Options struct {
	Dir  string // the data directory: where FileName lives
	Mode string // ModeAuto (default), ModeKeyring or ModeFile
	// Keyring replaces the system keyring (tests of the fallback).
	Keyring Keyring
	Timeout time.Duration // per keyring call; DefaultTimeout when 0
	Logger  *slog.Logger
}

// Store keeps values by plugin and variable name. Safe for concurrent use;
// the file is re-read on every call, so two processes sharing a data
// directory see each other's writes (the last writer of the same name wins).
type Store struct {
	o    Options
	ring Keyring

	mu       sync.Mutex
	fellBack bool // auto mode: the keyring failed once; the file is used from now on
}

// ModeFromEnv returns $REASONIX_CREDENTIALS_STORE normalised (auto when
// unset or unknown, as the Reasonix host reads it).
func ModeFromEnv() string { return normalise(os.Getenv(ModeEnv)) }

func normalise(m string) string {
	switch strings.ToLower(strings.TrimSpace(m)) {
	case ModeKeyring:
		return ModeKeyring
	case ModeFile:
		return ModeFile
	}
	return ModeAuto
}

// Open returns the store of o.Dir. Nothing is read or written yet.
func Open(o Options) *Store {
	o.Mode = normalise(o.Mode)
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	s := &Store{o: o, ring: o.Keyring}
	if s.ring == nil {
		s.ring = systemKeyring{}
	}
	return s
}

// Where says where values are saved now, in words for the user.
func (s *Store) Where() string {
	if s.useKeyring() {
		return "saved in the system keyring"
	}
	return "saved in a private file (" + s.File() + ", readable only by you)"
}

// InKeyring reports whether values go to the keyring now.
func (s *Store) InKeyring() bool { return s.useKeyring() }

// File is the fallback file's path.
func (s *Store) File() string { return filepath.Join(s.o.Dir, FileName) }

func (s *Store) useKeyring() bool {
	if s.o.Mode == ModeFile {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return !s.fellBack
}

// Account is the keyring account (and file key) of a plugin's variable.
func Account(plugin, name string) string { return plugin + "/" + name }

// Get returns the value saved for plugin's variable name, and whether one is.
func (s *Store) Get(plugin, name string) (string, bool, error) {
	acct := Account(plugin, name)
	if s.useKeyring() {
		v, err := s.ringCall("read", func() (string, error) { return s.ring.Get(Service, acct) })
		switch {
		case err == nil:
			register(name, v)
			return v, true, nil
		case errors.Is(err, keyring.ErrNotFound):
			// A value saved while the keyring was away is in the file.
		case !s.fallBack(err):
			return "", false, err
		}
	}
	vals, err := s.readFile()
	if err != nil {
		return "", false, err
	}
	v, ok := vals[acct]
	if ok {
		register(name, v)
	}
	return v, ok, nil
}

// Set saves value for plugin's variable name. Values may not hold a line
// break (they become one environment variable).
func (s *Store) Set(plugin, name, value string) error {
	if strings.ContainsAny(value, "\r\n\x00") {
		return fmt.Errorf("the value of %s holds a line break or NUL", name)
	}
	register(name, value)
	acct := Account(plugin, name)
	if s.useKeyring() {
		_, err := s.ringCall("save", func() (string, error) { return "", s.ring.Set(Service, acct, value) })
		if err == nil {
			// The keyring holds it now: an older copy in the file must not
			// come back if the keyring is away later.
			return s.editFile(func(m map[string]string) bool { _, had := m[acct]; delete(m, acct); return had })
		}
		if !s.fallBack(err) {
			return err
		}
	}
	return s.editFile(func(m map[string]string) bool { m[acct] = value; return true })
}

// Delete removes the value saved for plugin's variable name, wherever it is.
func (s *Store) Delete(plugin, name string) error {
	acct := Account(plugin, name)
	if s.useKeyring() {
		_, err := s.ringCall("delete", func() (string, error) { return "", s.ring.Delete(Service, acct) })
		if err != nil && !errors.Is(err, keyring.ErrNotFound) && !s.fallBack(err) {
			return err
		}
	}
	return s.editFile(func(m map[string]string) bool { _, had := m[acct]; delete(m, acct); return had })
}

// fallBack switches auto mode to the file after a keyring failure and says
// whether it did (keyring mode keeps the error).
func (s *Store) fallBack(err error) bool {
	if s.o.Mode != ModeAuto {
		return false
	}
	s.mu.Lock()
	first := !s.fellBack
	s.fellBack = true
	s.mu.Unlock()
	if first {
		s.o.Logger.Info("no system keyring answered: values are saved in a private file", "file", s.File(), "error", err.Error())
	}
	return true
}

// ringCall runs one keyring call with the Store's deadline. A call that
// does not answer in time is left to finish on its own goroutine (go-keyring
// offers no cancellation); its result is dropped.
func (s *Store) ringCall(what string, fn func() (string, error)) (string, error) {
	type result struct {
		v   string
		err error
	}
	done := make(chan result, 1)
	go func() {
		v, err := fn()
		done <- result{v, err}
	}()
	t := time.NewTimer(s.o.Timeout)
	defer t.Stop()
	select {
	case r := <-done:
		if r.err != nil && !errors.Is(r.err, keyring.ErrNotFound) {
			return "", fmt.Errorf("system keyring: %s: %w", what, r.err)
		}
		return r.v, r.err
	case <-t.C:
		return "", fmt.Errorf("system keyring: %s: no answer within %s", what, s.o.Timeout)
	}
}

// fileDoc is the fallback file: {"version":1,"values":{"plugin/VAR":"…"}}.
type fileDoc struct {
	Version int               `json:"version"`
	Values  map[string]string `json:"values"`
}

func (s *Store) readFile() (map[string]string, error) {
	f, err := os.Open(s.File())
	if errors.Is(err, os.ErrNotExist) {
		return map[string]string{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read the credentials file: %w", err)
	}
	defer f.Close()
	var doc fileDoc
	dec := json.NewDecoder(&limited{f, maxFileBytes})
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("the credentials file %s is not valid: %w", s.File(), err)
	}
	if doc.Version != 1 {
		return nil, fmt.Errorf("the credentials file %s has version %d, want 1", s.File(), doc.Version)
	}
	if doc.Values == nil {
		doc.Values = map[string]string{}
	}
	return doc.Values, nil
}

// fileMu serialises this process's read-modify-write of the file.
var fileMu sync.Mutex

// editFile applies edit to the file's values and writes them back (0600,
// atomically) when edit reports a change.
func (s *Store) editFile(edit func(map[string]string) bool) error {
	fileMu.Lock()
	defer fileMu.Unlock()
	vals, err := s.readFile()
	if err != nil {
		return err
	}
	if !edit(vals) {
		return nil
	}
	data, err := json.MarshalIndent(fileDoc{Version: 1, Values: vals}, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(s.o.Dir, 0o700); err != nil {
		return fmt.Errorf("save the credentials file: %w", err)
	}
	if err := atomicfile.Write(s.File(), append(data, '\n'), 0o600); err != nil {
		return fmt.Errorf("save the credentials file: %w", err)
	}
	return nil
}

// register masks value wherever plugin text is shown, when name looks
// secret (the redactor's own rule for environment variables).
func register(name, value string) {
	if value != "" {
		redact.RegisterEnviron([]string{name + "=" + value})
	}
}

// limited is an io.Reader that fails past n bytes instead of truncating.
type limited struct {
	f *os.File
	n int64
}

func (l *limited) Read(p []byte) (int, error) {
	if l.n <= 0 {
		return 0, errors.New("larger than 4 MiB")
	}
	if int64(len(p)) > l.n {
		p = p[:l.n]
	}
	n, err := l.f.Read(p)
	l.n -= int64(n)
	return n, err
}

// systemKeyring is the OS keyring through go-keyring.
type systemKeyring struct{}

func (systemKeyring) Get(service, user string) (string, error) { return keyring.Get(service, user) }
func (systemKeyring) Set(service, user, pw string) error       { return keyring.Set(service, user, pw) }
func (systemKeyring) Delete(service, user string) error        { return keyring.Delete(service, user) }

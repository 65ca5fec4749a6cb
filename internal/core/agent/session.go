package agent

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/reasonix/reasonix-desktop/internal/core/tools/todo"
	"github.com/reasonix/reasonix-desktop/internal/foundation/jsonerr"
	"github.com/reasonix/reasonix-desktop/internal/plugins/intercept"
	"github.com/reasonix/reasonix-desktop/protocol"
)

// SessionVersion is the sessions/<id>.json format version.
const SessionVersion = 1

// Session is one conversation.
type Session struct {
	Version       int                        `json:"version"`
	ID            string                     `json:"id"`
	WorkspaceRoot string                     `json:"workspaceRoot"`
	Model         string                     `json:"model,omitempty"`
	Effort        string                     `json:"effort,omitempty"`
	Created       time.Time                  `json:"created"`
	Updated       time.Time                  `json:"updated"`
	Messages      []protocol.ProviderMessage `json:"messages"`
	// Audit records plugins that allowed a call the host denied.
	Audit []intercept.AuditEntry `json:"audit,omitempty"`
	// Approvals are the "for this session" approvals, each scoped exactly
	// like an "always" rule (see AlwaysRule): the tool in the session's
	// workspace and, for run_command, the program. (Files written before
	// them hold "approved": bare tool names; Load migrates those without
	// widening them, see migrateApproved.)
	Approvals []Rule `json:"approvals,omitempty"`
	// Name is a title the user (or a plugin) gave; empty: Title derives one.
	Name string `json:"name,omitempty"`
	// Notes are what the transcript showed besides the messages (see Note);
	// files without them load with none.
	Notes []Note `json:"notes,omitempty"`

	// ReplyVersions are the answers Regenerate replaced (versions.go);
	// files without them load with none.
	ReplyVersions []ReplyVersions `json:"replyVersions,omitempty"`

	// Agent is the agent profile picked for this chat (/agent <name>);
	// empty (and absent in older files): none.
	Agent string `json:"agent,omitempty"`

	// Todos is the model's todo list as it last set it, so a reloaded
	// chat shows it; files without one load with none.
	Todos []todo.Item `json:"todos,omitempty"`

	// RewindBase is how many messages compactions of older versions took out of Messages
	// (less the two of each summary): the change journal indexes a
	// change by the user message's index as it was, so message i is
	// i+RewindBase there. Files without it: 0.
	RewindBase int `json:"rewindBase,omitempty"`

	// Compacted is the last compaction: what the model is sent in place of
	// the earliest messages, which stay here as they were written. Files
	// without it: none (older files whose compaction replaced the messages
	// hold the summary as their first message).
	Compacted *Compaction `json:"compacted,omitempty"`

	// Pinned keeps the chat on top of the history (PinSession).
	Pinned bool `json:"pinned,omitempty"`
	// LastMessageAt is when the chat last got a message: the history's
	// order. Only a change of Messages or Notes moves it (a rename, a pin,
	// a model change do not). Files without it order by Updated.
	LastMessageAt time.Time `json:"lastMessageAt,omitzero"`
}

// NewSession makes an empty session in a workspace.
func NewSession(workspace string) *Session {
	now := time.Now().UTC()
	return &Session{Version: SessionVersion, ID: uuid.NewString(), WorkspaceRoot: workspace,
		Created: now, Updated: now, Messages: []protocol.ProviderMessage{}}
}

// Title is a short label: the given name, else the first line of the first
// user message as plain text (no markdown marks), else of a message kept by
// a failed turn.
func (s *Session) Title() string {
	if s.Name != "" {
		return s.Name
	}
	for _, m := range s.Messages {
		if m.Role == protocol.RoleUser && m.Content != "" {
			if t := plainLine(m.Content); t != "" {
				return t
			}
		}
	}
	for _, n := range s.Notes { // a message whose turn failed before it was recorded
		if t := plainLine(n.Input); t != "" {
			return t
		}
	}
	return "New chat"
}

// titleMarks are markdown marks a title drops (a heading's #, a quote's >,
// emphasis and code marks), so "## Fix `main.go`" reads "Fix main.go".
// Underscores are not among them: "__init__.py" and "my__var" are names
// (see underlineEmphasis).
var titleMarks = strings.NewReplacer("`", "", "**", "", "~~", "")

// underlineEmphasis is __emphasis__ standing as words of its own (space or
// the line's ends around it): its marks go; underscores in a name stay.
var underlineEmphasis = regexp.MustCompile(`(^|\s)__([^\s_](?:[^_]*[^\s_])?)__(\s|$)`)

// plainLine is the first non-empty line of markdown text as plain text,
// at most 60 characters.
func plainLine(text string) string {
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "```") {
			continue
		}
		line = strings.TrimSpace(strings.TrimLeft(line, "#>*-+ \t"))
		line = strings.TrimSpace(titleMarks.Replace(underlineEmphasis.ReplaceAllString(line, "$1$2$3")))
		if line == "" {
			continue
		}
		if t := []rune(line); len(t) > 60 {
			return strings.TrimSpace(string(t[:60])) + "…"
		}
		return line
	}
	return ""
}

var sessionIDRE = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)

// SessionStore keeps sessions as sessions/<id>.json, written atomically so
// a crash mid-save leaves the previous save intact.
type SessionStore struct {
	dir   string
	index sessionIndex

	mu sync.Mutex
	// loading is the Loads in progress, by chat.
	loading map[string]*pendingLoad
	// written is what this store last wrote of each session (digests of
	// its conversation and of the rest): deciding whether a save changes
	// anything then costs one encoding, not a decode of the file and two
	// encodings (1.5 s for a 50,000-message chat).
	written map[string]sessionDigest
}

// sessionDigest is a session's content as compare sees it: the
// conversation (messages, notes) and everything else but its stamps.
type sessionDigest struct{ head, talk [sha256.Size]byte }

// digestOf is s's digest.
func digestOf(s *Session) (sessionDigest, error) {
	h := *s
	h.Messages, h.Notes = nil, nil
	h.Updated, h.LastMessageAt = time.Time{}, time.Time{}
	head, err := json.Marshal(&h)
	if err != nil {
		return sessionDigest{}, err
	}
	talk, err := json.Marshal(conversation{s.Messages, s.Notes})
	if err != nil {
		return sessionDigest{}, err
	}
	return sessionDigest{sha256.Sum256(head), sha256.Sum256(talk)}, nil
}

// conversation is what moves a chat in the history when it changes.
type conversation struct {
	M []protocol.ProviderMessage
	N []Note
}

// remember records what was written of s (nil: forget it, the file
// changed otherwise).
func (st *SessionStore) remember(id string, d *sessionDigest) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if d == nil {
		delete(st.written, id)
		return
	}
	if st.written == nil {
		st.written = map[string]sessionDigest{}
	}
	st.written[id] = *d
}

// NewSessionStore uses dir (created if missing).
func NewSessionStore(dir string) (*SessionStore, error) {
	return openSessionStore(dir, slog.Default())
}

// openSessionStore is NewSessionStore logging recovery to log.
func openSessionStore(dir string, log *slog.Logger) (*SessionStore, error) {
	if err := os.MkdirAll(filepath.Join(dir, turnsDir), 0o700); err != nil {
		return nil, fmt.Errorf("sessions dir: %w", err)
	}
	st := &SessionStore{dir: dir}
	st.recoverTurns(log)
	return st, nil
}

// Path of a session's file.
func (st *SessionStore) Path(id string) string { return filepath.Join(st.dir, id+".json") }

// Save writes s atomically, stamping Updated, and LastMessageAt when its
// messages or notes differ from the saved copy's (or there is none).
func (st *SessionStore) Save(s *Session) error {
	_, moved := st.compare(s)
	return st.saveStamped(s, moved)
}

// saveStamped writes s with Updated now and, when moved, LastMessageAt.
func (st *SessionStore) saveStamped(s *Session, moved bool) error {
	s.Updated = time.Now().UTC()
	if moved || s.LastMessageAt.IsZero() {
		s.LastMessageAt = s.Updated
	}
	if err := st.write(s); err != nil {
		return fmt.Errorf("save session %s: %w", s.ID, err)
	}
	return nil
}

// Unchanged reports whether the saved file already holds s, its Updated
// aside: saving it again would change nothing, so it is not saved (opening,
// leaving or starting a chat never re-stamps the one left, and the history
// list keeps its order).
func (st *SessionStore) Unchanged(s *Session) bool {
	same, _ := st.compare(s)
	return same
}

// compare reads the saved copy of s once: same when saving s would change
// nothing but its stamps, moved when its conversation (messages, notes)
// differs, which is what moves a chat in the history; a rename, a pin or a
// model change is saved without moving it.
func (st *SessionStore) compare(s *Session) (same, moved bool) {
	st.mu.Lock()
	was, known := st.written[s.ID]
	st.mu.Unlock()
	if known {
		if now, err := digestOf(s); err == nil {
			return now == was, now.talk != was.talk
		}
	}
	old, err := st.Load(s.ID)
	if err != nil {
		return false, true
	}
	cur := *s
	cur.Updated, cur.LastMessageAt = old.Updated, old.LastMessageAt
	a, errA := json.Marshal(old)
	b, errB := json.Marshal(&cur)
	if errA == nil && errB == nil && bytes.Equal(a, b) {
		return true, false
	}
	a, errA = json.Marshal(conversation{old.Messages, old.Notes})
	b, errB = json.Marshal(conversation{s.Messages, s.Notes})
	return false, errA != nil || errB != nil || !bytes.Equal(a, b)
}

// ErrNoSession is returned by Load for an unknown id.
var ErrNoSession = errors.New("no such session")

// Load reads a session by id. Loads of one chat at the same time (the
// window showing the chat its core is opening) decode the file once; each
// caller gets its own copy.
func (st *SessionStore) Load(id string) (*Session, error) {
	st.mu.Lock()
	if l := st.loading[id]; l != nil {
		st.mu.Unlock()
		<-l.done
		if l.err != nil {
			return nil, l.err
		}
		return l.s.copy(), nil
	}
	l := &pendingLoad{done: make(chan struct{})}
	if st.loading == nil {
		st.loading = map[string]*pendingLoad{}
	}
	st.loading[id] = l
	st.mu.Unlock()
	l.s, l.err = st.load(id)
	st.mu.Lock()
	delete(st.loading, id)
	st.mu.Unlock()
	close(l.done)
	if l.err != nil {
		return nil, l.err
	}
	return l.s.copy(), nil
}

// pendingLoad is a Load in progress that others of the same chat wait for.
type pendingLoad struct {
	done chan struct{}
	s    *Session
	err  error
}

// copy is s with its own messages, notes and approvals, so one holder's
// appends and edits of an element never reach another's. The strings and a
// message's own slices (tool calls, images) are shared: a loaded message's
// are never changed in place (recordCall edits only the running turn's
// calls, which no load returned).
func (s *Session) copy() *Session {
	c := *s
	c.Messages = slices.Clone(s.Messages)
	c.Notes = slices.Clone(s.Notes)
	c.Approvals = slices.Clone(s.Approvals)
	return &c
}

// load reads and decodes a session file.
func (st *SessionStore) load(id string) (*Session, error) {
	if !sessionIDRE.MatchString(id) {
		return nil, fmt.Errorf("load session: %q is not a session id", id)
	}
	forgets := st.index.forgetsOf(id)
	data, fi, err := readWithInfo(st.Path(id))
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("load session %s: %w", id, ErrNoSession)
	}
	if err != nil {
		return nil, fmt.Errorf("load session %s: %w", id, err)
	}
	var s Session
	if err := jsonerr.Unmarshal(data, &s); err != nil {
		return nil, fmt.Errorf("load session %s: %s is corrupt: %w", id, st.Path(id), err)
	}
	if s.Version != SessionVersion || s.ID != id {
		return nil, fmt.Errorf("load session %s: unsupported version %d or mismatched id %q", id, s.Version, s.ID)
	}
	if s.Messages == nil {
		s.Messages = []protocol.ProviderMessage{}
	}
	if bytes.Contains(data, []byte(`"approved"`)) { // an older file: read it again only then
		var legacy struct {
			Approved []string `json:"approved"`
		}
		_ = json.Unmarshal(data, &legacy) // the document parsed above; a wrong shape is no approval
		s.migrateApproved(legacy.Approved)
	}
	// The history listing needs this chat too: it takes it from here rather
	// than decoding the file again (20 MB for 50,000 messages at launch).
	st.index.prime(id, indexEntryOf(&s, st.Path(id), fi), forgets)
	return &s, nil
}

// readWithInfo reads a file and stats the file it read (not a file renamed
// over it since), so the index can tell whether what it was given is the
// file it lists.
func readWithInfo(path string) ([]byte, os.FileInfo, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	data, err := io.ReadAll(f)
	return data, fi, err
}

// migrateApproved turns the bare tool names older files approved "for this
// session" into scoped rules, never wider than they were: a tool in the
// session's workspace (which the old approval was bound to anyway). A
// run_command approval is dropped: which program it meant is not known, and
// a rule without a program would allow every command; the user is asked
// again.
func (s *Session) migrateApproved(tools []string) {
	for _, t := range tools {
		if t == "" || t == runCommandTool || s.WorkspaceRoot == "" {
			continue
		}
		r := Rule{Tool: t, Workspace: filepath.Clean(s.WorkspaceRoot)}
		if !slices.Contains(s.Approvals, r) {
			s.Approvals = append(s.Approvals, r)
		}
	}
}

// Summary lists a saved session.
type Summary struct {
	ID, Title, Model string
	Workspace        string
	// Updated is when the file was last saved (any change).
	Updated time.Time
	// Pinned chats come first in Sessions.
	Pinned bool
	// LastMessageAt orders the history: only a new message moves a chat.
	// Never zero for a listed session (an older file's Updated).
	LastMessageAt time.Time
}

// List returns saved sessions, pinned first, then by LastMessageAt, newest
// first. Unreadable files are skipped. It reads only the files that
// changed since it last looked (see sessionIndex).
func (st *SessionStore) List() []Summary {
	entries := st.index.refresh(context.Background(), st.dir)
	out := make([]Summary, len(entries))
	for i, e := range entries {
		out[i] = e.sum
	}
	return out
}

// sortSummaries is the history's order: pinned first, then the newest
// message first, then by id so equal times keep one order.
func sortSummaries[T any](xs []T, sum func(T) *Summary) {
	slices.SortStableFunc(xs, func(x, y T) int {
		a, b := sum(x), sum(y)
		switch {
		case a.Pinned != b.Pinned:
			if a.Pinned {
				return -1
			}
			return 1
		case !a.LastMessageAt.Equal(b.LastMessageAt):
			return b.LastMessageAt.Compare(a.LastMessageAt)
		}
		return strings.Compare(a.ID, b.ID)
	})
}

func cutSuffix(s, suffix string) (string, bool) {
	if len(s) > len(suffix) && s[len(s)-len(suffix):] == suffix {
		return s[:len(s)-len(suffix)], true
	}
	return "", false
}

// empty reports whether the session holds nothing to keep.
func (s *Session) empty() bool { return len(s.Messages) == 0 && len(s.Notes) == 0 }

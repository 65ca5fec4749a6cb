package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/reasonix/reasonix-desktop/protocol"
)

// sessionIndex keeps what the history list and the text search need of
// every saved chat: its summary and its messages' text, lower-cased. The
// sidebar lists and searches again and again (each key typed in its search
// box); reading and decoding every file each time costs a read of the
// whole history. A file is read again only when its size or modification
// time changed, or when the store itself wrote it (forget), so a write
// within one clock tick is not missed.
//
// The lock is never held while files are read: a save (holding the core's
// lock) calls forget, and must not wait for a first listing reading the
// whole history. forgets counts each chat's forgets, so a read that began
// before a write is not kept.
type sessionIndex struct {
	mu      sync.Mutex
	entries map[string]*indexEntry
	forgets map[string]int
	// read is readIndexEntry; a test stands in for it to hold a read.
	read func(path, id string) *indexEntry
}

type indexEntry struct {
	size int64
	mod  time.Time
	sum  Summary
	// lowTitle and texts are lower-cased: the search is case-insensitive
	// and lowering the query once is cheaper than the history each time.
	lowTitle string
	// texts are read at the first search that needs them (searchTexts),
	// not by the listing: a launch lists every chat, and holding a
	// lower-cased copy of a 50,000-message chat nobody searched costs
	// 8 MB and a second pass over its file.
	path      string
	textsOnce sync.Once
	texts     []indexedText
	// stale: the store wrote the file since it was read (under the lock).
	stale bool
}

// indexedText is the text of one message the search looks at: what the
// user and the assistant wrote, and a message a failed turn kept (a note,
// msg -1). Tool results and system prompts are left out: a search for a
// word would otherwise find every file the model read.
type indexedText struct {
	msg int
	low string
}

// indexDoc is the part of a session file the index reads; the rest (tool
// calls, approvals, audit) is skipped by the decoder.
type indexDoc struct {
	Version       int       `json:"version"`
	ID            string    `json:"id"`
	WorkspaceRoot string    `json:"workspaceRoot"`
	Model         string    `json:"model"`
	Updated       time.Time `json:"updated"`
	LastMessageAt time.Time `json:"lastMessageAt"`
	Pinned        bool      `json:"pinned"`
	Name          string    `json:"name"`
	Messages      []struct {
		Role    protocol.MessageRole `json:"role"`
		Content string               `json:"content"`
	} `json:"messages"`
	Notes []struct {
		Input string `json:"input"`
	} `json:"notes"`
}

// forgetsOf is how many times chat id was forgotten (a write), read before
// a load whose result may prime the index.
func (x *sessionIndex) forgetsOf(id string) int {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.forgets[id]
}

// prime takes in the entry of a chat a load decoded, unless a write came
// since the load began (forgets moved) or the index has it already as it
// is: the listing then needs no second decode of that file.
func (x *sessionIndex) prime(id string, e *indexEntry, forgets int) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.forgets[id] != forgets {
		return
	}
	if old := x.entries[id]; old != nil && !old.stale && old.size == e.size && old.mod.Equal(e.mod) {
		return
	}
	if x.entries == nil {
		x.entries = map[string]*indexEntry{}
	}
	x.entries[id] = e
}

// indexEntryOf is the index entry of a decoded session read from path
// (fi: the file it was read from); its text is read at the first search.
func indexEntryOf(s *Session, path string, fi os.FileInfo) *indexEntry {
	e := entryOf(s, path)
	e.size, e.mod = fi.Size(), fi.ModTime()
	return e
}

// forget drops a chat, so the next refresh reads its file again.
func (x *sessionIndex) forget(id string) {
	x.mu.Lock()
	// The entry stays, marked, so a listing running meanwhile still holds
	// the chat; the next refresh reads the file again.
	if e := x.entries[id]; e != nil {
		e.stale = true
	}
	if x.forgets == nil {
		x.forgets = map[string]int{}
	}
	x.forgets[id]++
	x.mu.Unlock()
}

// refresh brings the index up to date with dir and returns its entries in
// the history's order. Changed files are decoded on up to four
// goroutines; unreadable ones are left out, as Load would refuse them.
func (x *sessionIndex) refresh(ctx context.Context, dir string) []*indexEntry {
	// A chat written while it was read is read again; a chat written
	// without pause is listed as last read after three passes, and read
	// again by the next refresh.
	for range 2 {
		if out, again := x.refreshOnce(ctx, dir); !again {
			return out
		}
	}
	out, _ := x.refreshOnce(ctx, dir)
	return out
}

// refreshOnce is one pass of refresh; again when a chat was written while
// this pass read it (the listing lacks it).
func (x *sessionIndex) refreshOnce(ctx context.Context, dir string) (out []*indexEntry, again bool) {
	dirents, _ := os.ReadDir(dir)
	type job struct {
		id        string
		size      int64
		mod       time.Time
		forgets   int
		entry     *indexEntry
		cancelled bool
	}
	var jobs []*job
	seen := make(map[string]bool, len(dirents))
	x.mu.Lock()
	if x.entries == nil {
		x.entries = map[string]*indexEntry{}
	}
	for _, de := range dirents {
		id, ok := cutSuffix(de.Name(), ".json")
		if !ok || !sessionIDRE.MatchString(id) {
			continue
		}
		fi, err := de.Info()
		if err != nil || !fi.Mode().IsRegular() {
			continue
		}
		seen[id] = true
		if e := x.entries[id]; e != nil && !e.stale && e.size == fi.Size() && e.mod.Equal(fi.ModTime()) {
			continue
		}
		jobs = append(jobs, &job{id: id, size: fi.Size(), mod: fi.ModTime(), forgets: x.forgets[id]})
	}
	for id := range x.entries {
		if !seen[id] {
			delete(x.entries, id)
		}
	}
	x.mu.Unlock()

	read := x.read
	if read == nil {
		read = readIndexEntry
	}
	workers := min(runtime.GOMAXPROCS(0), 4, len(jobs))
	next := make(chan *job)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for j := range next {
				if ctx.Err() != nil {
					j.cancelled = true
					continue
				}
				j.entry = read(filepath.Join(dir, j.id+".json"), j.id)
			}
		})
	}
	for _, j := range jobs {
		next <- j
	}
	close(next)
	wg.Wait()

	x.mu.Lock()
	defer x.mu.Unlock()
	for _, j := range jobs {
		switch {
		case j.cancelled:
			continue // read again next time
		case j.entry == nil:
			delete(x.entries, j.id)
		default:
			j.entry.size, j.entry.mod = j.size, j.mod
			// Written while read: kept (the listing holds the chat as
			// it was) but read again by the next pass.
			if x.forgets[j.id] != j.forgets {
				j.entry.stale = true
				again = ctx.Err() == nil
			}
			x.entries[j.id] = j.entry
		}
	}
	out = make([]*indexEntry, 0, len(x.entries))
	for _, e := range x.entries {
		out = append(out, e)
	}
	sortSummaries(out, func(e *indexEntry) *Summary { return &e.sum })
	return out, again
}

// readIndexEntry decodes one session file for the index; nil when it is
// unreadable, not a session of this format, or not the id its name says.
func readIndexEntry(path, id string) *indexEntry {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	if len(data) <= eagerTexts { // one decode gives the listing and the texts
		var d indexDoc
		if json.Unmarshal(data, &d) != nil || d.Version != SessionVersion || d.ID != id {
			return nil
		}
		var first *protocol.ProviderMessage
		for _, m := range d.Messages {
			if first == nil && titles(m.Role, m.Content) {
				first = &protocol.ProviderMessage{Role: m.Role, Content: m.Content}
			}
		}
		e := entryOf(headerOf(&d, first), path)
		e.texts = textsOf(&d)
		e.textsOnce.Do(func() {}) // read already
		return e
	}
	var d listDoc
	if json.Unmarshal(data, &d) != nil || d.Version != SessionVersion || d.ID != id {
		return nil
	}
	return entryOf(headerOf(&d.indexDoc, d.Messages.first), path)
}

// headerOf is the part of a session its listing shows, from a decoded file
// and the first user message Title takes (nil: none): Title reads the
// notes' kept messages too.
func headerOf(d *indexDoc, first *protocol.ProviderMessage) *Session {
	s := &Session{ID: d.ID, Name: d.Name, Model: d.Model, WorkspaceRoot: d.WorkspaceRoot,
		Updated: d.Updated, LastMessageAt: d.LastMessageAt, Pinned: d.Pinned}
	if first != nil {
		s.Messages = []protocol.ProviderMessage{*first}
	}
	for _, n := range d.Notes {
		s.Notes = append(s.Notes, Note{Input: n.Input})
	}
	return s
}

// entryOf is the index entry listing s, read from path; its texts are read
// at the first search unless the caller has them.
func entryOf(s *Session, path string) *indexEntry {
	sum := s.summary()
	return &indexEntry{sum: sum, lowTitle: strings.ToLower(sum.Title), path: path}
}

// titles reports whether a message is one Title may take its title from.
func titles(role protocol.MessageRole, content string) bool {
	return role == protocol.RoleUser && plainLine(content) != ""
}

// listDoc is what the listing reads of a session file: indexDoc without
// the messages' text beyond the first user message.
type listDoc struct {
	indexDoc
	Messages firstUserMessage `json:"messages"`
}

// firstUserMessage decodes a messages array keeping only the first user
// message Title would take: each element is decoded and dropped in turn, so listing a
// 50,000-message chat never holds its text.
type firstUserMessage struct{ first *protocol.ProviderMessage }

func (f *firstUserMessage) UnmarshalJSON(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	if _, err := dec.Token(); err != nil { // [ (or null)
		return err
	}
	for dec.More() {
		var m struct {
			Role    protocol.MessageRole `json:"role"`
			Content string               `json:"content"`
		}
		if err := dec.Decode(&m); err != nil {
			return err
		}
		if f.first == nil && titles(m.Role, m.Content) {
			f.first = &protocol.ProviderMessage{Role: m.Role, Content: m.Content}
		}
	}
	return nil
}

// searchTexts is e's searchable text, read from its file at the first
// search that needs it.
func (e *indexEntry) searchTexts() []indexedText {
	e.textsOnce.Do(func() {
		if e.path != "" {
			e.texts = readIndexTexts(e.path, e.sum.ID)
		}
	})
	return e.texts
}

// eagerTexts is the largest file whose text the listing keeps at once
// (one decode does both); a larger chat's is read at its first search.
const eagerTexts = 1 << 20

// readIndexTexts reads what the search looks at in one session file.
func readIndexTexts(path, id string) []indexedText {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	var d indexDoc
	if json.Unmarshal(data, &d) != nil || d.ID != id {
		return nil
	}
	return textsOf(&d)
}

// textsOf is what the search looks at of a decoded file, lower-cased.
func textsOf(d *indexDoc) []indexedText {
	var texts []indexedText
	for i, m := range d.Messages {
		if (m.Role == protocol.RoleUser || m.Role == protocol.RoleAssistant) && m.Content != "" {
			texts = append(texts, indexedText{msg: i, low: strings.ToLower(m.Content)})
		}
	}
	for _, n := range d.Notes {
		if n.Input != "" {
			texts = append(texts, indexedText{msg: -1, low: strings.ToLower(n.Input)})
		}
	}
	return texts
}

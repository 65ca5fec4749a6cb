package desktop

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/reasonix/reasonix-desktop/internal/foundation/atomicfile"
)

// Drafts: what is typed in the composer is kept per chat, across switches,
// a normal close and a kill. The text of each chat's composer is in the
// data directory's drafts.json, written atomically (atomicfile) by a writer
// goroutine once typing pauses (draftQuiet) and at most draftMaxDelay after
// a change however fast the typing: the UI goroutine only records the text
// and signals. Pasted-text tiles and attachments are not kept; the text is.

// draftsFile is the drafts' file in the data directory.
const draftsFile = "drafts.json"

// draftQuiet is the pause in typing after which the drafts are written;
// draftMaxDelay bounds how late a change is written while typing goes on.
const (
	draftQuiet    = 300 * time.Millisecond
	draftMaxDelay = time.Second
)

// draftsData is the file's shape.
type draftsData struct {
	// Screen is the chat on screen when it was written: a chat never saved
	// (a new one) has a new id at the next start, and its draft goes to
	// the chat that start opens.
	Screen string            `json:"screen,omitempty"`
	Chats  map[string]string `json:"chats,omitempty"`
}

// drafts are the composer texts by chat. Safe from any goroutine.
type drafts struct {
	path string // "" : kept for this run only (no data dir)
	log  *slog.Logger

	mu    sync.Mutex
	data  draftsData
	dirty chan struct{} // capacity 1: a change not written yet
	now   chan struct{} // capacity 1: write at once (a message was sent)
	stop  chan struct{}
	done  chan struct{}
	once  sync.Once
}

// loadDrafts reads dir's drafts and starts their writer; a missing or
// broken file gives none (logged, never fatal).
func loadDrafts(dir string, log *slog.Logger) *drafts {
	if log == nil {
		log = slog.Default()
	}
	d := &drafts{log: log, data: draftsData{Chats: map[string]string{}},
		dirty: make(chan struct{}, 1), now: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{})}
	if dir != "" {
		d.path = filepath.Join(dir, draftsFile)
		raw, err := os.ReadFile(d.path)
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil:
			log.Warn("drafts: read", "err", err)
		default:
			if err := json.Unmarshal(raw, &d.data); err != nil {
				log.Warn("drafts: broken file, starting without drafts", "path", d.path, "err", err)
				d.data = draftsData{}
			}
			if d.data.Chats == nil {
				d.data.Chats = map[string]string{}
			}
		}
	}
	go d.writer()
	return d
}

// get is chat id's draft.
func (d *drafts) get(id string) string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.data.Chats[id]
}

// set records chat id's composer text ("" forgets it) and, when it
// changed, asks the writer to save it.
func (d *drafts) set(id, text string) {
	if id == "" {
		return
	}
	d.mu.Lock()
	old, had := d.data.Chats[id]
	switch {
	case text == "" && !had, text == old && had:
		d.mu.Unlock()
		return
	case text == "":
		delete(d.data.Chats, id)
	default:
		d.data.Chats[id] = text
	}
	d.mu.Unlock()
	d.kick()
}

// setScreen records the chat on screen.
func (d *drafts) setScreen(id string) {
	d.mu.Lock()
	changed := d.data.Screen != id
	d.data.Screen = id
	d.mu.Unlock()
	if changed {
		d.kick()
	}
}

// rename moves a draft to the id its chat got (a new chat the core
// started).
func (d *drafts) rename(from, to string) {
	d.mu.Lock()
	text, ok := d.data.Chats[from]
	if ok {
		delete(d.data.Chats, from)
		if d.data.Chats[to] == "" {
			d.data.Chats[to] = text
		}
	}
	if d.data.Screen == from {
		d.data.Screen = to
	}
	d.mu.Unlock()
	d.kick()
}

// adopt gives the chat opened at launch the draft of the chat on screen
// when the app last ran, if that chat was never saved (a new chat: its id
// is gone); unsaved reports whether a chat id has no saved file.
func (d *drafts) adopt(id string, unsaved func(id string) bool) string {
	d.mu.Lock()
	prev := d.data.Screen
	have := d.data.Chats[id] != ""
	d.mu.Unlock()
	if !have && prev != "" && prev != id && unsaved(prev) {
		d.rename(prev, id)
	}
	d.setScreen(id)
	return d.get(id)
}

// switchTo keeps the composer's text as chat prev's draft and puts chat
// id's in its place (UI goroutine, at a switch).
func (d *drafts) switchTo(prev, id string, c *composer) {
	if prev == id || c == nil {
		return
	}
	d.set(prev, c.entry.Text)
	d.setScreen(id)
	if text := d.get(id); text != c.entry.Text {
		c.entry.SetText(text)
		c.entry.CursorRow, c.entry.CursorColumn = 0, 0
	}
}

// writeNow has the drafts written at once, off the caller's goroutine: a
// message was sent, and a kill right after must not bring it back as a
// draft at the next start.
func (d *drafts) writeNow() {
	select {
	case d.now <- struct{}{}:
	default:
	}
}

func (d *drafts) kick() {
	select {
	case d.dirty <- struct{}{}:
	default:
	}
}

// writer saves the drafts once typing pauses, or draftMaxDelay after the
// first change not saved, until Close.
func (d *drafts) writer() {
	defer close(d.done)
	for {
		select {
		case <-d.dirty:
		case <-d.now:
			d.write()
			continue
		case <-d.stop:
			select {
			case <-d.dirty: // a change Close raced with
				d.write()
			default:
			}
			return
		}
		quiet, limit := time.NewTimer(draftQuiet), time.NewTimer(draftMaxDelay)
	wait:
		for {
			select {
			case <-d.dirty:
				quiet.Reset(draftQuiet)
			case <-quiet.C:
				break wait
			case <-d.now:
				break wait
			case <-limit.C:
				break wait
			case <-d.stop:
				quiet.Stop()
				limit.Stop()
				d.write()
				return
			}
		}
		quiet.Stop()
		limit.Stop()
		d.write()
	}
}

// write saves the drafts now (the writer goroutine, or Close).
func (d *drafts) write() {
	if d.path == "" {
		return
	}
	d.mu.Lock()
	raw, err := json.MarshalIndent(d.data, "", "  ")
	d.mu.Unlock()
	if err == nil {
		err = atomicfile.Write(d.path, raw, 0o600)
	}
	if err != nil {
		d.log.Warn("drafts: write", "err", fmt.Errorf("save drafts: %w", err))
	}
}

// Close writes what is not written yet and stops the writer.
func (d *drafts) Close() {
	d.once.Do(func() {
		close(d.stop)
		<-d.done
	})
}

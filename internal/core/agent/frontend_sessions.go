package agent

import (
	"fmt"
	"os"
	"time"
)

// SessionStamp identifies what a saved session's file holds as last
// written: its size and modification time. A front end that keeps chats
// it decoded reads one again only when its stamp changed, without knowing
// where or how sessions are stored.
type SessionStamp struct {
	Size     int64
	Modified time.Time
}

// SavedStamp is the stamp of a saved session; ErrNoSession when it was
// never saved (or was deleted). It reads the file's metadata only.
func (c *Core) SavedStamp(id string) (SessionStamp, error) {
	if !sessionIDRE.MatchString(id) {
		return SessionStamp{}, fmt.Errorf("session stamp: %q is not a session id", id)
	}
	fi, err := os.Stat(c.sessions.Path(id))
	if os.IsNotExist(err) {
		return SessionStamp{}, fmt.Errorf("session stamp %s: %w", id, ErrNoSession)
	}
	if err != nil {
		return SessionStamp{}, fmt.Errorf("session stamp %s: %w", id, err)
	}
	return SessionStamp{Size: fi.Size(), Modified: fi.ModTime()}, nil
}

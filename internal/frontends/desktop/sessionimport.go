package desktop

import (
	"context"
	"fmt"
	"io"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/storage"

	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/dialogs"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/uikit"
)

// maxImportBytes bounds a chat file read for import: a session file of
// thousands of long messages is megabytes, never this.
const maxImportBytes = 256 << 20

// askImport picks a chat file (JSON, the session file format: what
// Export as JSON writes) and imports it (File menu).
func (s *sidebar) askImport() {
	fd := dialog.NewFileOpen(func(r fyne.URIReadCloser, err error) {
		if err != nil || r == nil {
			return
		}
		path := r.URI().Path()
		r.Close()
		s.importFrom(path)
	}, s.deps.win)
	fd.SetFilter(storage.NewExtensionFileFilter([]string{".json"}))
	fd.Resize(fyne.NewSize(800, 560))
	dialogs.ShowFileDialog(s.deps.win, fd, s.deps.modalKeys)
}

// importFrom reads path and asks the core to import it, off the UI
// goroutine; the imported chat is listed and opened. The core validates
// it and never overwrites a chat (one with the same id gets a new id).
func (s *sidebar) importFrom(path string) {
	s.deps.withCore(i18n.M("import session"), func(ctx context.Context, c coreAPI) error {
		data, err := readLimited(path, maxImportBytes)
		if err != nil {
			return err
		}
		id, err := c.ImportSession(ctx, data)
		if err != nil {
			return fmt.Errorf("import %s: %w", path, err)
		}
		s.deps.trace("session imported " + id)
		s.deps.notes.HostNotice(i18n.T("Imported %s", path), uikit.NoticeInfo)
		s.deps.b.Post(func() {
			s.reload()
			s.deps.openChat(id)
		})
		return nil
	})
}

// readLimited reads a file of at most limit bytes.
func readLimited(path string, limit int64) ([]byte, error) {
	f, err := storage.Reader(storage.NewFileURI(path))
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("read %s: larger than %d MiB: not a chat file", path, limit>>20)
	}
	return data, nil
}

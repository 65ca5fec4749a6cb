package xdev

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
	"github.com/reasonix/reasonix-desktop/internal/foundation/transport"
)

// The line protocol of one extension. stdin is written by the writer
// goroutine, or by an event's caller when nothing is queued (writeDirect);
// stdout (frames) is read by one goroutine at a time, the background reader
// or an event's caller (callread.go); stderr (log lines) by its own
// goroutine. Event round trips are matched by id.

// writer owns stdin: frames go out in order; a full pipe blocks only this
// goroutine (an extension that stops reading times out and is killed).
func (e *extension) writer() {
	defer e.writerWG.Done()
	defer e.closeStdin()
	for {
		select {
		case b := <-e.writes:
			e.wmu.Lock()
			_, err := e.stdin.Write(b)
			e.queued.Add(-1)
			e.wmu.Unlock()
			if err != nil {
				// Usually the process is exiting: let the reaper say why
				// (exit status, stderr). One that only closed its stdin is
				// killed.
				select {
				case <-e.child.Exited():
				case <-time.After(drainWait):
					e.kill("writing to its stdin failed: " + err.Error())
				}
				return
			}
		case <-e.stop:
			return
		case <-e.dead:
			return
		}
	}
}

// readFrames is the background reader of stdout: it reads frames while it
// holds the reader role and waits while callers read their own answers
// (callread.go). A line that is not a frame is a protocol error and kills
// the extension.
func (e *extension) readFrames() {
	defer e.readers.Done()
	for {
		if e.readLoop() {
			return
		}
		select {
		case <-e.turn.Woken():
			e.mu.Lock()
			e.turn.TakeWokenLocked()
			e.mu.Unlock()
		case <-e.readEnd:
			return
		}
	}
}

// readLoop reads frames until reading ends (it reports true) or the turn is
// released for a caller to take (false).
func (e *extension) readLoop() (ended bool) {
	for {
		f, ok, err := e.nextFrame()
		if errors.Is(err, os.ErrDeadlineExceeded) {
			e.watch.End() // a caller's deadline outlived its read
			continue
		}
		if ok {
			if !e.handle(f) {
				e.endReading()
				return true
			}
			if f.Type == TypeResponse && e.lines.Buffered() == 0 && e.yieldRole() {
				return false
			}
		}
		if err != nil {
			e.endReading()
			return true
		}
	}
}

// nextFrame reads the next stdout line as a frame (ok false for a blank
// line or after an error). A bad line kills the extension and is returned
// as an error; a line cut short by a read deadline is kept by the line
// reader for the next read.
func (e *extension) nextFrame() (f Frame, ok bool, err error) {
	line, err := e.lines.ReadLine()
	switch {
	case errors.Is(err, transport.ErrLineTooLong):
		e.kill(fmt.Sprintf("protocol error: a stdout line is longer than %d bytes", MaxFrameBytes))
		return Frame{}, false, errKilled
	case err != nil:
		return Frame{}, false, err
	case len(bytes.TrimSpace(line)) == 0:
		return Frame{}, false, nil
	}
	f, ferr := decodeFrame(line)
	if ferr != nil {
		e.kill(fmt.Sprintf("protocol error: stdout line %q: %v", snippet(line), ferr))
		return Frame{}, false, errKilled
	}
	return f, true, nil
}

// errKilled ends reading after a protocol error killed the extension.
var errKilled = errors.New("killed for a protocol error")

// handle dispatches one frame; false means the extension was killed.
func (e *extension) handle(f Frame) bool {
	switch f.Type {
	case TypeLog:
		e.logFrame(f)
		return true
	case TypeCapabilities:
		if e.handshook {
			e.log.Warn("xdev extension sent capabilities again; ignored")
			return true
		}
		e.handshook = true
		e.capsCh <- f // buffered, read once by the handshake
		return true
	}
	if !e.handshook {
		e.kill(fmt.Sprintf("protocol error: expected a capabilities frame, got %q", f.Type))
		return false
	}
	switch f.Type {
	case TypeResponse:
		e.mu.Lock()
		ch, ok := e.pending[f.ID]
		delete(e.pending, f.ID)
		e.mu.Unlock()
		if ok {
			ch <- f // buffered
		} else {
			// Answers to notifications (and late answers) land here.
			e.log.Debug("xdev extension answered an event nobody waits for", "id", f.ID)
		}
	case TypeAction:
		e.action(f)
	default:
		e.log.Warn("xdev extension sent a frame of unknown type; ignored", "type", redact.String(f.Type))
	}
	return true
}

func (e *extension) logFrame(f Frame) {
	level := slog.LevelInfo
	switch strings.ToLower(f.Level) {
	case "debug", "trace":
		level = slog.LevelDebug
	case "warn", "warning":
		level = slog.LevelWarn
	case "error", "fatal":
		level = slog.LevelError
	}
	e.log.Log(context.Background(), level, "xdev extension log", "text", redact.String(f.Text))
}

func snippet(b []byte) string {
	s := strings.TrimSpace(string(b))
	if len(s) > 80 {
		s = s[:80] + "…"
	}
	return redact.String(s)
}

// wants reports whether the extension declared an event.
func (e *extension) wants(event string) bool { return e.events[event] }

// call sends an event and waits for its response. A timeout kills the
// extension; ctx only abandons the wait.
func (e *extension) call(ctx context.Context, event string, payload any, timeout time.Duration) (Frame, error) {
	if e.isDead() {
		return Frame{}, e.deadErr()
	}
	id := e.nextID.Add(1)
	b, err := encodeEvent(id, event, payload)
	if err != nil {
		return Frame{}, fmt.Errorf("%s: %s payload: %w", e.label(), event, err)
	}
	ch := make(chan Frame, 1)
	e.mu.Lock()
	e.pending[id] = ch
	reading := e.turn.TakeLocked()
	e.mu.Unlock()
	defer func() {
		e.mu.Lock()
		delete(e.pending, id)
		e.mu.Unlock()
	}()
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	timedOut := func() (Frame, error) {
		e.kill(fmt.Sprintf("did not answer %s within %s", event, timeout))
		return Frame{}, fmt.Errorf("%s: %w: %s within %s; it was killed", e.label(), ErrTimeout, event, timeout)
	}
	held := reading // until readFor, which gives the role back itself
	defer func() {
		if held {
			e.releaseRole()
		}
	}()
	if written, err := e.writeDirect(b, timeout); err != nil {
		e.kill(fmt.Sprintf("writing %s to its stdin failed: %v", event, err))
		return Frame{}, e.deadErr()
	} else if !written {
		e.queued.Add(1)
		select {
		case e.writes <- b:
		case <-e.dead:
			e.queued.Add(-1)
			return Frame{}, e.deadErr()
		case <-timer.C:
			e.queued.Add(-1)
			return timedOut()
		case <-ctx.Done():
			e.queued.Add(-1)
			return Frame{}, ctx.Err()
		}
	}
	if reading {
		held = false
		switch f, outcome := e.readFor(ctx, id, ch, time.Now().Add(timeout)); outcome {
		case readAnswered:
			return f, nil
		case readTimedOut:
			return timedOut()
		case readCancelled:
			return Frame{}, ctx.Err()
		}
		// Reading ended (the extension is going away): wait as below.
	}
	select {
	case f := <-ch:
		return f, nil
	case <-e.dead:
		select { // an answer that raced the death still counts
		case f := <-ch:
			return f, nil
		default:
		}
		return Frame{}, e.deadErr()
	case <-timer.C:
		return timedOut()
	case <-ctx.Done():
		return Frame{}, ctx.Err()
	}
}

// notify sends a notification without waiting for anything: its response
// is read and discarded by the reader.
func (e *extension) notify(event string, payload any) {
	if e.isDead() || !e.wants(event) {
		return
	}
	b, err := encodeEvent(e.nextID.Add(1), event, payload)
	if err != nil {
		e.log.Warn("xdev notification not sent", "event", event, "err", err)
		return
	}
	e.queued.Add(1)
	select {
	case e.writes <- b:
	default:
		e.queued.Add(-1)
		e.log.Warn("xdev extension is not reading its stdin; notification dropped", "event", event)
	}
}

// writeDirect writes an event frame on the caller's goroutine when nothing
// is queued before it, saving the hand-off to the writer goroutine (a
// wake-up of another thread per event). A full pipe blocks it at most until
// the event's timeout, the deadline the extension would be killed at
// anyway. It reports false, nil when the frame must be queued instead.
func (e *extension) writeDirect(b []byte, timeout time.Duration) (bool, error) {
	if e.queued.Load() != 0 || !e.wmu.TryLock() {
		return false, nil
	}
	defer e.wmu.Unlock()
	if e.queued.Load() != 0 {
		return false, nil // queued frames go first
	}
	select {
	case <-e.stop:
		return false, nil // closing: the writer decides
	default:
	}
	if err := e.stdin.SetWriteDeadline(time.Now().Add(timeout)); err != nil {
		return false, nil
	}
	_, err := e.stdin.Write(b)
	_ = e.stdin.SetWriteDeadline(time.Time{})
	return err == nil, err
}

func encodeEvent(id int64, event string, payload any) ([]byte, error) {
	p, err := json.Marshal(payload)
	if err != nil {
		return nil, err
	}
	b, err := json.Marshal(Frame{Type: TypeEvent, ID: id, Event: event, Payload: p})
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// send writes a frame outside the event round trips (hello, answers to
// actions), waiting at most until ctx is done.
func (e *extension) send(ctx context.Context, f Frame) error {
	b, err := json.Marshal(f)
	if err != nil {
		return err
	}
	e.queued.Add(1)
	select {
	case e.writes <- append(b, '\n'):
		return nil
	case <-e.dead:
		e.queued.Add(-1)
		return e.deadErr()
	case <-ctx.Done():
		e.queued.Add(-1)
		return ctx.Err()
	}
}

// trySend queues a frame without waiting; a full queue drops it.
func (e *extension) trySend(f Frame) {
	b, err := json.Marshal(f)
	if err != nil {
		return
	}
	e.queued.Add(1)
	select {
	case e.writes <- append(b, '\n'):
	default:
		e.queued.Add(-1)
		e.log.Warn("xdev extension is not reading its stdin; frame dropped", "type", f.Type)
	}
}

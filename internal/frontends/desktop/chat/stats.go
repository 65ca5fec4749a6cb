package chat

import (
	"fmt"
	"sync"
	"time"
)

// Stats are the transcript's rendering figures (the binary's --stats).
type Stats struct {
	Frames     int64         // frames the transcript rendered
	Mean, Max  time.Duration // transcript work per frame
	PerSecond  float64       // frames per second while frames follow each other (streaming)
	FirstPaint time.Duration // from opening a session to its first rendered frame
	Rows, Live int           // rows in the transcript, rows with widgets
}

func (s Stats) String() string {
	return fmt.Sprintf("transcript: %d frames, %.1f frames/s, %.2f ms/frame mean, %.2f ms max; "+
		"open session → first frame %.1f ms; %d rows, %d with widgets",
		s.Frames, s.PerSecond, float64(s.Mean)/1e6, float64(s.Max)/1e6, float64(s.FirstPaint)/1e6, s.Rows, s.Live)
}

// Stats reads the figures (any goroutine, also after the app stopped).
func (t *Transcript) Stats() Stats {
	s := Stats{Frames: t.frames.Load(), Max: time.Duration(t.maxNanos.Load())}
	if s.Frames > 0 {
		s.Mean = time.Duration(t.syncNanos.Load() / s.Frames)
	}
	t.clock.mu.Lock()
	if t.clock.busy > 0 {
		s.PerSecond = float64(t.clock.busyFrames) / t.clock.busy.Seconds()
	}
	s.FirstPaint = t.clock.firstPaint
	t.clock.mu.Unlock()
	s.Live = int(t.liveRows.Load())
	t.mu.Lock()
	s.Rows = len(t.items)
	t.mu.Unlock()
	return s
}

// frameClock records when frames ran and how long opening a session took
// to show (any goroutine).
type frameClock struct {
	mu         sync.Mutex
	last       time.Time
	busy       time.Duration // the gaps between frames that followed each other
	busyFrames int64
	openedAt   time.Time // a session load started; zero once painted
	firstPaint time.Duration
}

// busyGap: frames closer than this belong to one burst of rendering (a
// streamed reply); longer gaps are idle time, left out of frames/s.
const busyGap = 100 * time.Millisecond

func (c *frameClock) opening() {
	c.mu.Lock()
	c.openedAt = time.Now()
	c.mu.Unlock()
}

// frame records a frame that showed rows (UI goroutine).
func (c *frameClock) frame(rows int) {
	now := time.Now()
	c.mu.Lock()
	defer c.mu.Unlock()
	if gap := now.Sub(c.last); !c.last.IsZero() && gap < busyGap {
		c.busy += gap
		c.busyFrames++
	}
	c.last = now
	if !c.openedAt.IsZero() && rows > 0 {
		c.firstPaint = now.Sub(c.openedAt)
		c.openedAt = time.Time{}
	}
}

// Opening marks that a session starts loading: its first frame is timed
// (any goroutine).
func (t *Transcript) Opening() { t.clock.opening() }

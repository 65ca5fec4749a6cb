package chat

// versions is which version of the last answer is shown (from 0) of how
// many (Regenerate keeps the answers it replaces).
type versions struct{ shown, total int }

// DropReply takes the items after the last user message off (Regenerate
// streams the new answer in their place). The rows are rebuilt from the
// items that stay (a new epoch); their markdown is parsed again only for
// the rows that come into view (any goroutine).
func (t *Transcript) DropReply() {
	t.mu.Lock()
	last := -1
	for i := len(t.items) - 1; i >= 0; i-- {
		if t.items[i].kind == itemUser {
			last = i
			break
		}
	}
	if last < 0 || last == len(t.items)-1 {
		t.mu.Unlock()
		return
	}
	t.items = t.items[:last+1]
	t.open, t.touched = nil, nil
	t.epoch++
	t.mu.Unlock()
	t.th.Kick()
}

// EditLastUser takes the last answer off the transcript and shows text as
// the last question: an edit of it is about to stream its answer (any
// goroutine).
func (t *Transcript) EditLastUser(text string) {
	t.DropReply()
	t.mu.Lock()
	for i := len(t.items) - 1; i >= 0; i-- {
		if it := t.items[i]; it.kind == itemUser {
			it.text.Reset()
			it.text.WriteString(text)
			t.touch(it)
			break
		}
	}
	t.mu.Unlock()
	t.th.Kick()
}

// LastAnswered is the last user message and whether an assistant message
// follows it (what Edit and Up can edit; any goroutine).
func (t *Transcript) LastAnswered() (string, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	answered := false
	for i := len(t.items) - 1; i >= 0; i-- {
		switch t.items[i].kind {
		case itemAssistant:
			answered = true
		case itemUser:
			return t.items[i].text.String(), answered
		}
	}
	return "", false
}

// setVersions records the last answer's versions and rebinds its footer.
func (t *Transcript) setVersions(vs versions) {
	t.mu.Lock()
	t.versions = vs
	for i := len(t.items) - 1; i >= 0 && t.items[i].kind != itemUser; i-- {
		if t.items[i].kind == itemAssistant {
			t.touch(t.items[i])
			break
		}
	}
	t.mu.Unlock()
	t.th.Kick()
}

// lastVersions is the last answer's versions (any goroutine).
func (t *Transcript) lastVersions() versions {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.versions
}

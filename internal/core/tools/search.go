package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"golang.org/x/text/transform"
)

// Limits of glob and grep (the real host's, but for the line cut).
const (
	GlobMaxResults     = 1000
	GrepMaxMatches     = 200
	GrepDefaultTimeout = 30 * time.Second
	GrepMaxTimeout     = 300 * time.Second
	// GrepLineCut bounds one matching line in the output: a minified file's
	// single line would otherwise fill the model's context 200 times over.
	GrepLineCut = 500
)

func glob(ctx context.Context, workspace string, raw json.RawMessage) (string, error) {
	var a struct {
		Pattern string `json:"pattern"`
	}
	if err := decodeArgs(raw, &a); err != nil {
		return "", err
	}
	if a.Pattern == "" {
		return "", errors.New("pattern is required")
	}
	root, err := Confine(workspace, ".")
	if err != nil {
		return "", err
	}
	pat, err := workspacePattern(workspace, root, a.Pattern)
	if err != nil {
		return "", err
	}
	if _, err := path.Match(strings.ReplaceAll(pat, "**", "*"), ""); err != nil {
		return "", fmt.Errorf("glob %q: %w", a.Pattern, err)
	}
	matches, truncated, err := globWalk(ctx, root, strings.Split(pat, "/"))
	if err != nil {
		return "", err
	}
	// As the real host does, a bare file name found nowhere at the top is
	// looked for at any depth: the model often knows a name, not a place.
	if len(matches) == 0 && !strings.Contains(pat, "/") {
		matches, truncated, err = globWalk(ctx, root, []string{"**", pat})
		if err != nil {
			return "", err
		}
	}
	if len(matches) == 0 {
		return "(no matches)", nil
	}
	sort.Strings(matches)
	out := strings.Join(matches, "\n")
	if truncated {
		out += fmt.Sprintf("\n... (truncated at %d results)", GlobMaxResults)
	}
	return out, nil
}

// workspacePattern makes a glob pattern relative to the workspace (slash,
// cleaned), refusing one that reaches out of it.
func workspacePattern(workspace, root, p string) (string, error) {
	p = filepath.ToSlash(p)
	if filepath.IsAbs(filepath.FromSlash(p)) {
		rel := ""
		for _, r := range []string{workspace, root} {
			if x, err := filepath.Rel(r, filepath.FromSlash(p)); err == nil && within(r, filepath.FromSlash(p)) {
				rel = filepath.ToSlash(x)
				break
			}
		}
		if rel == "" {
			return "", fmt.Errorf("%s: %w", p, ErrOutsideWorkspace)
		}
		p = rel
	}
	p = path.Clean(p)
	if p == ".." || strings.HasPrefix(p, "../") {
		return "", fmt.Errorf("%s: %w", p, ErrOutsideWorkspace)
	}
	return strings.TrimPrefix(p, "./"), nil
}

// globWalk lists the files under root whose relative path matches the
// pattern's segments, skipping .git, node_modules and what .gitignore
// ignores (hidden folders are listed: .github is often what is looked for). The walk
// starts at the pattern's literal leading folders, not the whole tree.
func globWalk(ctx context.Context, root string, pat []string) ([]string, bool, error) {
	start := 0
	for start < len(pat)-1 && !strings.ContainsAny(pat[start], `*?[\`) {
		start++
	}
	base := strings.Join(pat[:start], "/")
	var out []string
	truncated := false
	ig := newIgnorer(root)
	if base != "" {
		// The .gitignore files of the folders between the root and the start.
		parts := strings.Split(base, "/")
		for i := range parts {
			ig.enter(strings.Join(parts[:i+1], "/"))
		}
	}
	walkRoot := filepath.Join(root, filepath.FromSlash(base))
	err := filepath.WalkDir(walkRoot, func(p string, d fs.DirEntry, err error) error {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if err != nil {
			return nil // an unreadable folder or a start that is not there
		}
		r, _ := filepath.Rel(root, p)
		rel := filepath.ToSlash(r)
		if d.IsDir() {
			if p == walkRoot {
				return nil
			}
			if d.Name() == ".git" || d.Name() == "node_modules" || ig.ignored(rel, true) {
				return filepath.SkipDir
			}
			ig.enter(rel)
			return nil
		}
		if ig.ignored(rel, false) || !matchSegments(pat, strings.Split(rel, "/")) {
			return nil
		}
		if len(out) == GlobMaxResults {
			truncated = true
			return filepath.SkipAll
		}
		out = append(out, rel)
		return nil
	})
	if err != nil {
		return nil, false, fmt.Errorf("glob: %w", err)
	}
	return out, truncated, nil
}

func grep(ctx context.Context, workspace string, raw json.RawMessage) (string, error) {
	var a struct {
		Pattern        string `json:"pattern"`
		Path           string `json:"path"`
		Glob           string `json:"glob"`
		TimeoutSeconds int    `json:"timeout_seconds"`
	}
	if err := decodeArgs(raw, &a); err != nil {
		return "", err
	}
	if a.Pattern == "" {
		return "", errors.New("pattern is required")
	}
	if a.Path == "" {
		a.Path = "."
	}
	re, err := regexp.Compile(a.Pattern)
	if err != nil {
		return "", fmt.Errorf("invalid pattern: %w", err)
	}
	// A file holding no match anywhere is skipped with one search over its
	// bytes; the line by line pass runs only on the files that match. In
	// multi-line mode ^ and $ match at each line's ends, so a line that
	// matches always makes its file match (\A and \z do not follow the
	// mode: such a pattern goes line by line).
	pre := re
	if !strings.Contains(a.Pattern, `\A`) && !strings.Contains(a.Pattern, `\z`) {
		if m, err := regexp.Compile("(?m)" + a.Pattern); err == nil {
			pre = m
		}
	}
	to := GrepDefaultTimeout
	if a.TimeoutSeconds > 0 {
		to = min(time.Duration(a.TimeoutSeconds)*time.Second, GrepMaxTimeout)
	}
	ctx, cancel := context.WithTimeout(ctx, to)
	defer cancel()
	root, err := Confine(workspace, ".")
	if err != nil {
		return "", err
	}
	full, rel, err := confineRel(workspace, a.Path)
	if err != nil {
		return "", err
	}
	st, err := os.Stat(full)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", fmt.Errorf("%s not found", a.Path)
	case err != nil:
		return "", fmt.Errorf("grep %s: %w", a.Path, err)
	}
	if !st.IsDir() && !st.Mode().IsRegular() {
		return "", fmt.Errorf("%s is not a regular file", a.Path) // a FIFO would block the search
	}
	files := []string{rel}
	if st.IsDir() {
		if files, err = grepFiles(ctx, root, rel, a.Glob); err != nil {
			return "", err
		}
	}
	results := make([][]string, len(files))
	var next, total atomic.Int64
	var wg sync.WaitGroup
	// More workers than cores: a worker is mostly waiting in open and read,
	// and with one per core (2) grep took 1.4× grep -r's time over 50,000
	// files, with 4 0.95×.
	for range min(max(runtime.GOMAXPROCS(0), 4), 8, len(files)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Files are claimed in order and every claimed one is searched,
			// so the searched files are always a prefix of the list and the
			// first 200 matches are those of a serial search.
			for total.Load() < GrepMaxMatches && ctx.Err() == nil {
				i := int(next.Add(1) - 1)
				if i >= len(files) {
					return
				}
				results[i] = grepFile(ctx, filepath.Join(root, filepath.FromSlash(files[i])), files[i], re, pre)
				total.Add(int64(len(results[i])))
			}
		}()
	}
	wg.Wait()
	var out []string
	for _, r := range results {
		out = append(out, r...)
	}
	truncated := len(out) >= GrepMaxMatches
	if truncated {
		out = out[:GrepMaxMatches]
	}
	timedOut := errors.Is(ctx.Err(), context.DeadlineExceeded)
	if len(out) == 0 {
		if timedOut {
			return fmt.Sprintf("(no matches; timed out after %s — narrow the path/pattern or raise timeout_seconds)", to), nil
		}
		return "(no matches)", nil
	}
	res := strings.Join(out, "\n")
	switch {
	case truncated:
		res += fmt.Sprintf("\n... (truncated at %d matches)", GrepMaxMatches)
	case timedOut:
		res += fmt.Sprintf("\n... (timed out after %s; results incomplete — narrow the path/pattern or raise timeout_seconds)", to)
	}
	return res, nil
}

// grepFiles lists the files grep searches under the folder rel: not
// hidden, not ignored by .gitignore, matching the glob filter if any (a
// filter without "/" matches the file's name, one with "/" its path).
func grepFiles(ctx context.Context, root, rel, filter string) ([]string, error) {
	var fpat []string
	if filter != "" {
		if _, err := path.Match(strings.ReplaceAll(filter, "**", "*"), ""); err != nil {
			return nil, fmt.Errorf("glob %q: %w", filter, err)
		}
		fpat = strings.Split(strings.TrimPrefix(path.Clean(filepath.ToSlash(filter)), "./"), "/")
	}
	ig := newIgnorer(root)
	if rel != "." {
		parts := strings.Split(rel, "/")
		for i := range parts {
			ig.enter(strings.Join(parts[:i+1], "/"))
		}
	}
	var files []string
	start := filepath.Join(root, filepath.FromSlash(rel))
	err := filepath.WalkDir(start, func(p string, d fs.DirEntry, err error) error {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if err != nil || p == start {
			return nil
		}
		r, _ := filepath.Rel(root, p)
		r = filepath.ToSlash(r)
		hidden := strings.HasPrefix(d.Name(), ".")
		if d.IsDir() {
			if hidden || d.Name() == "node_modules" || ig.ignored(r, true) {
				return filepath.SkipDir
			}
			ig.enter(r)
			return nil
		}
		if hidden || !d.Type().IsRegular() || ig.ignored(r, false) {
			return nil
		}
		if fpat != nil {
			segs := strings.Split(r, "/")
			if len(fpat) == 1 {
				segs = segs[len(segs)-1:]
			}
			if !matchSegments(fpat, segs) {
				return nil
			}
		}
		files = append(files, r)
		return nil
	})
	if err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return nil, fmt.Errorf("grep: %w", err)
	}
	return files, nil
}

// grepFile gives the matching lines of one file as path:line:text; a
// binary or unreadable file gives none. A file up to MaxEditSize is read
// whole, a larger one in blocks of whole lines; each is first searched as
// a whole (one search rules most files and blocks out), then line by line.
func grepFile(ctx context.Context, full, rel string, re, pre *regexp.Regexp) []string {
	data, big, err := readSmall(full, MaxEditSize)
	if err != nil {
		return nil
	}
	if !big {
		if isBinary(data) {
			return nil
		}
		if enc := Detect(data); enc != UTF8 {
			text, err := Decode(data, enc)
			if err != nil {
				return nil
			}
			data = []byte(text)
		}
		if !pre.Match(data) {
			return nil
		}
		return grepLines(nil, data, 0, rel, re)
	}
	f, err := os.Open(full)
	if err != nil {
		return nil
	}
	defer f.Close()
	head := make([]byte, readDetectSample)
	n, _ := io.ReadFull(f, head)
	head = head[:n]
	if isBinary(head) || isUTF16(head) {
		return nil // a UTF-16 file this large is not searched
	}
	sample := head
	if i := bytes.LastIndexByte(head, '\n'); i >= 0 {
		sample = head[:i+1]
	}
	var src io.Reader = io.MultiReader(bytes.NewReader(head), f)
	switch enc := Detect(sample); enc {
	case GB18030, Big5, ShiftJIS:
		src = transform.NewReader(src, legacy[enc].NewDecoder())
	}
	var out []string
	buf := make([]byte, 0, 1<<20)
	for line := 0; len(out) < GrepMaxMatches && ctx.Err() == nil; {
		n, err := io.ReadFull(src, buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		end := err != nil
		// A block ends at its last whole line; a line longer than the
		// block is searched in block-sized pieces.
		cut := len(buf)
		if i := bytes.LastIndexByte(buf, '\n'); !end && i >= 0 {
			cut = i + 1
		}
		block := buf[:cut]
		if pre.Match(block) {
			out = grepLines(out, block, line, rel, re)
		}
		line += bytes.Count(block, []byte("\n"))
		if end {
			break
		}
		buf = buf[:copy(buf, buf[cut:])]
	}
	return out[:min(len(out), GrepMaxMatches)]
}

// grepLines appends the lines of text that match re, the first being
// line first+1, as path:line:text (a long one cut at GrepLineCut).
func grepLines(out []string, text []byte, first int, rel string, re *regexp.Regexp) []string {
	for i := 0; len(text) > 0 && len(out) < GrepMaxMatches; i++ {
		line := text
		if j := bytes.IndexByte(text, '\n'); j >= 0 {
			line, text = text[:j], text[j+1:]
		} else {
			text = nil
		}
		line = bytes.TrimSuffix(line, []byte("\r"))
		if !re.Match(line) {
			continue
		}
		if len(line) > GrepLineCut {
			cut := GrepLineCut
			for cut > 0 && !utf8.RuneStart(line[cut]) {
				cut--
			}
			line = append(line[:cut:cut], "…"...)
		}
		out = append(out, fmt.Sprintf("%s:%d:%s", rel, first+i+1, line))
	}
	return out
}

package plugin

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
)

// Install sources. A package is installed from a folder or from a git
// repository; the repository forms are those of the real plugin guide and
// of plugin READMEs:
//
//	git:github.com/owner/repo[@ref]       (git:<host>/<path>, cloned over https)
//	https://github.com/owner/repo/tree/<ref>/<path>   (the repository at ref, the package in path)
//	https://gitlab.com/group/repo/-/tree/<ref>/<path> (the same, GitLab's way)
//	https://host/owner/repo(.git), ssh://…, git://…, git@host:owner/repo
//	file:///path/to/repo(.git)            (a local repository, cloned; a plain folder's URL is the folder)
//	/path/to/repo.git                     (a bare repository or a .git folder given as a path: cloned)
//	owner/repo[@ref]                      (a GitHub repository)
//	github.com/owner/repo[/tree/…]        (a forge address without its scheme: https)
//	git:/path/to/repo                     (a local repository)
//
// Any URL form may end in a fragment naming the ref and the package's
// folder inside the repository: <url>#ref=<ref>&path=<dir> (either part may
// be left out). That is the form the host records for a package it took
// from a subfolder (a marketplace's plugin), so `plugin update` fetches the
// same folder again; plugin=<name> records a marketplace plugin whose
// manifest is its listing's entry (the listing is read again).

// Source is a parsed install source.
type Source struct {
	// Spec is what the host records as the package's origin: the source as
	// given for a repository, from which ParseSource gives this Source
	// again; "" for a folder.
	Spec string
	// Dir is the folder of a local source ("" for a repository).
	Dir string
	// URL is what git clones; Ref the branch, tag or commit ("" is the
	// default branch); Subdir the package's folder inside the repository
	// (slash-separated, cleaned, "" for its root).
	URL, Ref, Subdir string
	// Plugin picks a plugin of a marketplace at the source (fragment
	// plugin=<name>): recorded for a plugin whose manifest is its listing's
	// entry, which only the listing can give again.
	Plugin string
	// treeRest is what follows /tree/ in a GitHub URL: the ref and the
	// path, split where the repository's refs say (a branch may hold '/').
	treeRest string
}

// IsGit reports whether the source is a repository to clone.
func (s Source) IsGit() bool { return s.URL != "" }

// WithSubdir is the source of the folder sub (slash-separated, relative)
// inside s's package: the same repository and ref, or a folder inside a
// local folder.
func (s Source) WithSubdir(sub string) (Source, error) {
	sub, err := cleanSubdir(sub)
	if err != nil {
		return Source{}, err
	}
	if !s.IsGit() {
		return Source{Dir: filepath.Join(s.Dir, filepath.FromSlash(sub))}, nil
	}
	out := s
	out.Subdir = path.Join(s.Subdir, sub)
	if out.Subdir == "." {
		out.Subdir = ""
	}
	out.treeRest = ""
	out.Spec = canonicalSpec(out.URL, out.Ref, out.Subdir)
	return out, nil
}

// WithPlugin is the source of the marketplace plugin name at s.
func (s Source) WithPlugin(name string) Source {
	out := s
	out.Plugin, out.treeRest = name, ""
	if s.IsGit() {
		out.Spec = canonicalSpec(s.URL, s.Ref, s.Subdir, name)
	} else {
		out.Spec = canonicalSpec(fileURL(s.Dir), "", "", name)
	}
	return out
}

// canonicalSpec writes a repository source in the fragment form.
func canonicalSpec(u, ref, sub string, plugin ...string) string {
	var q []string
	if ref != "" {
		q = append(q, "ref="+url.QueryEscape(ref))
	}
	if sub != "" {
		q = append(q, "path="+url.QueryEscape(sub))
	}
	for _, p := range plugin {
		q = append(q, "plugin="+url.QueryEscape(p))
	}
	if len(q) == 0 {
		return u
	}
	return u + "#" + strings.Join(q, "&")
}

var (
	// shorthandRE is owner/repo (GitHub's name rules, loosely), with an
	// optional @ref.
	shorthandRE = regexp.MustCompile(`^([A-Za-z0-9][A-Za-z0-9-]*/[A-Za-z0-9._-]+?)(?:\.git)?(?:@([^@\s]+))?$`)
	// githubTreeRE is a GitHub page URL of a folder at a ref.
	githubTreeRE = regexp.MustCompile(`^https?://(?:www\.)?github\.com/([^/]+)/([^/]+?)(?:\.git)?/tree/(.+?)/?$`)
	// gitlabTreeRE is a GitLab (or Gitea-like "/-/tree/") folder page.
	gitlabTreeRE = regexp.MustCompile(`^(https?://[^/]+/.+?)/-/tree/(.+?)/?$`)
	// hostRE is a well-known forge's address without its scheme.
	hostRE  = regexp.MustCompile(`^(?:www\.)?(?:github\.com|gitlab\.com|bitbucket\.org|codeberg\.org)/[^/]+/[^/]+`)
	schemes = []string{"https://", "http://", "ssh://", "git://", "file://"}
)

// ParseSource reads an install source. An existing local path is a folder
// unless it is a git repository's own folder (a bare repository or a .git
// folder), which is cloned: its files are git's objects, not a package. A
// work tree given as a path stays a folder (it may be linked while it is
// being written). A GitHub /tree/ URL
// whose ref may hold '/' is resolved when it is cloned (Clone).
func ParseSource(source string) (Source, error) {
	s := strings.TrimSpace(source)
	if s == "" {
		return Source{}, errors.New("no install source given")
	}
	if fi, err := os.Stat(s); err == nil {
		abs, err := filepath.Abs(s)
		if err != nil {
			return Source{}, fmt.Errorf("install source %s: %w", s, err)
		}
		if fi.IsDir() && isGitDir(abs) {
			u := fileURL(abs)
			return Source{Spec: u, URL: u}, nil
		}
		return Source{Dir: abs}, nil
	}
	body, frag, hasFrag := strings.Cut(s, "#")
	if hostRE.MatchString(body) {
		// github.com/owner/repo as copied from an address bar without
		// its scheme: https, as the browser went there.
		body = "https://" + body
	}
	var src Source
	switch {
	case strings.HasPrefix(body, "git:") && !strings.HasPrefix(body, "git://"):
		rest := strings.TrimPrefix(body, "git:")
		if hasScheme(rest) || strings.HasPrefix(rest, "git@") {
			src.URL = rest
			break
		}
		// git:/path/to/repo (or git:C:\repo): a local repository. A host name
		// never starts with a slash, so "/srv/r.git" is a path on Windows too,
		// where it is not absolute (it names the current drive's root).
		if filepath.IsAbs(rest) || strings.HasPrefix(rest, "/") || strings.HasPrefix(rest, `\`) {
			src.URL = fileURL(rest)
			break
		}
		// git:<host>/<owner>/<repo>[@ref], the guide's form: over https.
		repo, ref := rest, ""
		if i := strings.LastIndex(rest, "@"); i > strings.LastIndex(rest, "/") {
			repo, ref = rest[:i], rest[i+1:]
		}
		if strings.Count(strings.Trim(repo, "/"), "/") < 2 {
			return Source{}, fmt.Errorf("install source %q: git: takes <host>/<owner>/<repo>[@ref], as git:github.com/owner/repo", s)
		}
		src.URL, src.Ref = "https://"+strings.Trim(repo, "/"), ref
	case githubTreeRE.MatchString(body):
		m := githubTreeRE.FindStringSubmatch(body)
		src.URL = "https://github.com/" + m[1] + "/" + m[2]
		src.treeRest = m[3]
		ref, sub, _ := strings.Cut(m[3], "/")
		src.Ref, src.Subdir = ref, sub
	case strings.HasPrefix(body, "file://") && plainFolder(body):
		// A file:// URL of a folder that is no repository is that folder.
		dir := fileURLPath(body)
		if hasFrag {
			if err := src.fragment(frag); err != nil {
				return Source{}, fmt.Errorf("install source %q: %w", s, err)
			}
			if src.Ref != "" {
				return Source{}, fmt.Errorf("install source %q: %s is a folder, not a repository: it has no ref", s, dir)
			}
		}
		out, err := Source{Dir: dir}.WithSubdir(src.Subdir)
		out.Plugin = src.Plugin
		return out, err
	case gitlabTreeRE.MatchString(body):
		m := gitlabTreeRE.FindStringSubmatch(body)
		src.URL, src.treeRest = m[1], m[2]
		ref, sub, _ := strings.Cut(m[2], "/")
		src.Ref, src.Subdir = ref, sub
	case hasScheme(body), strings.HasPrefix(body, "git@") && strings.Contains(body, ":"):
		src.URL = body
	case shorthandRE.MatchString(body):
		m := shorthandRE.FindStringSubmatch(body)
		src.URL, src.Ref = "https://github.com/"+m[1], m[2]
		if !hasFrag {
			return Source{Spec: canonicalSpec(src.URL, src.Ref, ""), URL: src.URL, Ref: src.Ref}, nil
		}
	default:
		return Source{}, fmt.Errorf("install source %q is not a folder here, a git URL, git:<host>/<owner>/<repo> or owner/repo", s)
	}
	if hasFrag {
		if err := src.fragment(frag); err != nil {
			return Source{}, fmt.Errorf("install source %q: %w", s, err)
		}
	}
	var err error
	if src.Subdir, err = cleanSubdir(src.Subdir); err != nil {
		return Source{}, fmt.Errorf("install source %q: %w", s, err)
	}
	src.Spec = s
	return src, nil
}

// fragment reads #ref=<ref>&path=<dir>.
func (s *Source) fragment(frag string) error {
	q, err := url.ParseQuery(frag)
	if err != nil {
		return fmt.Errorf("the fragment %q is not ref=<ref>&path=<dir>: %w", frag, err)
	}
	for k := range q {
		if k != "ref" && k != "path" && k != "plugin" {
			return fmt.Errorf("the fragment names %q; it takes ref, path and plugin", k)
		}
	}
	s.Plugin = q.Get("plugin")
	if r := q.Get("ref"); r != "" {
		s.Ref, s.treeRest = r, ""
	}
	if p := q.Get("path"); p != "" {
		s.Subdir, s.treeRest = p, ""
	}
	return nil
}

func hasScheme(s string) bool {
	for _, p := range schemes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// cleanSubdir applies the package path rule to a folder inside a
// repository: relative, not above its root.
func cleanSubdir(sub string) (string, error) {
	sub = strings.Trim(strings.TrimSpace(sub), "/")
	if sub == "" || sub == "." {
		return "", nil
	}
	c, err := cleanPath(sub, "path")
	if err != nil {
		return "", err
	}
	if c == "." {
		return "", nil
	}
	return c, nil
}

// isGitDir reports whether dir is a repository's own folder: a bare
// repository or a work tree's .git (HEAD, objects/ and refs/).
func isGitDir(dir string) bool {
	if fi, err := os.Stat(filepath.Join(dir, "HEAD")); err != nil || !fi.Mode().IsRegular() {
		return false
	}
	for _, d := range []string{"objects", "refs"} {
		if fi, err := os.Stat(filepath.Join(dir, d)); err != nil || !fi.IsDir() {
			return false
		}
	}
	return true
}

// fileURLPath is the local path of a file:// URL ("" when it has none).
func fileURLPath(u string) string {
	pu, err := url.Parse(u)
	if err != nil || pu.Path == "" {
		return ""
	}
	p := pu.Path
	if len(p) > 2 && p[0] == '/' && p[2] == ':' {
		p = p[1:] // /C:/x -> C:/x
	}
	return filepath.FromSlash(p)
}

// plainFolder reports whether a file:// URL names a folder that is neither
// a repository's own folder nor a work tree (git would refuse to clone it).
func plainFolder(u string) bool {
	p := fileURLPath(u)
	if p == "" {
		return false
	}
	if fi, err := os.Stat(p); err != nil || !fi.IsDir() {
		return false
	}
	if _, err := os.Stat(filepath.Join(p, ".git")); err == nil {
		return false
	}
	return !isGitDir(p)
}

// fileURL is the file:// URL of an absolute path (git clones a plain path
// "locally", ignoring --depth; file:// is a real transport).
func fileURL(abs string) string {
	p := filepath.ToSlash(abs)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // C:/x -> /C:/x
	}
	return "file://" + p
}

// GitURL tells whether source names a git repository rather than a local
// folder, and returns what to record and hand to Clone: the source as
// given for every repository form (Clone parses it again), owner/repo as
// https://github.com/owner/repo, a repository folder as its file:// URL.
func GitURL(source string) (string, bool) {
	s, err := ParseSource(source)
	if err != nil || !s.IsGit() {
		return "", false
	}
	return s.Spec, true
}

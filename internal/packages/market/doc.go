// Package market is the client of a package market: an index of
// reviewed packages (skills, plugins, MCP servers, themes) served over
// HTTP, searched and read here, and the download of one entry checked
// against the content hash a reviewer pinned for it.
//
// The index is one JSON document (Index) at the market's URL: a static
// file is a whole market, so a private market is a folder on any web
// server. Its fields follow what the real host's market shows (kind, name,
// version, summary, description, repository, tags, votes, installs, a
// fixed source and the reviewer's content hash); unknown fields are
// ignored so a newer market still reads.
//
// Trust. A reviewer approves a version against its content hash
// (ContentSHA256, the digest of the package's files: Digest). Stage
// downloads an entry and compares that digest before the package is
// written anywhere an install or a preview reads it: an archive is read
// and checked in memory and only then unpacked into the staging folder;
// a git source is cloned into the staging folder, checked, and removed on
// a mismatch. A mismatch is refused naming both digests. An entry with no
// pinned hash is staged but Staged.Pinned is false, and the preview says
// the content was not reviewed as downloaded. Either way the install goes
// through the usual FULL TRUST preview: the hash proves the bytes are the
// reviewed ones, not that they are harmless.
package market

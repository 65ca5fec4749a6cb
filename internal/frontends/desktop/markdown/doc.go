// Package markdown owns the parsing of untrusted Markdown (from models and
// plugins) into Fyne RichText segments and chat blocks: no HTML is
// rendered, no image is fetched, and a link is only a tappable segment
// whose tap goes to the caller's confirmation. It also splits a streaming
// reply into parts that never change once finished (Doc), so a view
// re-renders only the tail. It builds segments but no widgets, and knows
// nothing of the window that shows them.
package markdown

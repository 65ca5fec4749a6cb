// Package ndjson owns strict JSON-RPC 2.0 over NDJSON for Reasonix Extension
// Protocol v2. It is the one connection type that both the desktop host and
// the extension SDK speak, so both ends apply exactly the same rules.
//
// Framing
//   - One compact JSON object per line, terminated by "\n". A frame may be at
//     most protocol.FrameBytes (8 MiB) long, newline included.
//   - Reading never buffers more than one frame. An inbound line longer than
//     the cap is fatal: the connection ends with a *protocol.Error of reason
//     frame_too_large, and every pending call fails with it.
//   - An outbound frame over the cap fails only the Call or Notify that built
//     it (nothing is written). An oversized handler result is answered with
//     -32603 "response exceeds frame size limit" instead.
//   - Lines holding only whitespace are ignored. Bytes after the last newline
//     when the stream ends are not a frame and are dropped.
//
// Envelope
//   - "jsonrpc" must be the string "2.0". Outbound request ids come from a
//     per-connection counter starting at 1; inbound ids must be integers that
//     fit in int64 (strings, fractions, exponents, booleans are rejected; a
//     null id is only legal on an error response).
//   - "params" must be a JSON object; nil params are sent as {}.
//   - Requests (method) and responses (result or error) are mutually
//     exclusive, and so are result and error. The method must be a non-empty
//     string. A known member may appear only once. Unknown members are
//     tolerated.
//   - Unparseable JSON, or JSON that is not an object, is answered with
//     -32700 and id null. Valid JSON with a bad envelope is answered with
//     -32600 (reason protocol_error); the answer echoes the id when the frame
//     has a "method" member (it claims to be a request) and a valid integer
//     id, and carries id null otherwise, so a broken response can never be
//     mistaken for the answer to one of the peer's own calls. A broken
//     response whose id matches a pending call also fails that call.
//   - An unknown request method is answered with -32601 and data
//     {reason: unknown_method, retryable: false}. Unknown notifications and
//     responses to ids that match no pending call are ignored.
//   - Answers are encoded deterministically: jsonrpc, id, result|error, and an
//     error object as code, message, data {reason, retryable}.
//
// Concurrency
//   - Outbound frames are written in order by whichever goroutine holds the
//     writer. One ordered, bounded queue is drained by one writer goroutine,
//     which gathers whatever is queued into one write. When the writer is
//     idle and nothing is queued, a handler's answer is written by the
//     handler's goroutine itself, and so is a Call's request when the writer
//     has write deadlines (a pollable *os.File such as an os.Pipe end, or a
//     net.Conn): such a direct write lasts at most until the Call's ctx
//     deadline or 10ms, after which the writer goroutine writes the rest of
//     the frame, before anything else. Notifications, answers sent by the
//     reader (errors, busy) and frames produced while the writer is busy or
//     frames are queued go through the queue, so frames queued earlier are
//     always written first, and a run of notifications is gathered into few
//     writes. A write error is terminal.
//   - At most Options.MaxInflight inbound requests are handled at once, and a
//     request past the bound is answered at once with a retryable internal
//     "busy" error; a handler's slot is freed when its answer is written or
//     queued. A request that arrives while nothing else is waiting to be read
//     is handled on the reader goroutine, saving a hand-off to another
//     thread; if its handler is still running after 500µs, or makes a Call on
//     the connection, reading moves to a fresh goroutine and the handler keeps
//     its own, so handlers may block. Other requests run on worker
//     goroutines, one each. A handler panic is answered as internal and the
//     connection lives on.
//   - One goroutine reads at a time. When the reader has read an answer that
//     leaves no call pending, it leaves the reading to the next Call, which
//     reads its own answer on its own goroutine (and dispatches whatever
//     arrives first), saving the wake-up of a second thread per call. A
//     Call blocked reading still honours its ctx. This needs a reader whose
//     reads can be ended: an *os.File of a pipe, which on Linux a Call reads
//     on its own thread (spinning briefly, then in poll(2); see
//     internal/readturn), or any reader with read deadlines; otherwise
//     every Call waits for the reader goroutine. The reading starts out left
//     to calls (the first answer of a handshake is read by its caller too),
//     and returns to the reader goroutine 2ms after the last call, or at
//     once after a call named by Options.FollowedByTraffic.
//   - A notification registered with HandleNotificationInline runs on the
//     goroutine reading, as it is read (ahead of queued notifications).
//   - Inbound notifications run one at a time in arrival order on a dedicated
//     goroutine fed by a channel of 256 entries. When that channel is full
//     the reader blocks (back-pressure on the peer), so a notification handler
//     should not wait on a Call of the same connection while hundreds of
//     notifications are queued behind it.
//   - Call honours its context: when it is done the call returns ctx.Err()
//     wrapped and a late response is ignored. Handler contexts are cancelled
//     when the connection ends. When the reader sees EOF or a fatal error, or
//     Close is called, Err reports the terminal error (io.EOF for a clean peer
//     close, ErrClosed after Close), pending calls fail with an error wrapping
//     it, and Done is closed. Frames already queued are still written, then
//     the writer is closed if it is an io.Closer.
package ndjson

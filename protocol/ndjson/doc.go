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
//     string. A known member may appear only once, and no object inside
//     params, result or error may repeat a key (the answer names its path,
//     through protocol's one duplicate-key checker). Unknown members are
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
// Framing is pluggable: a Conn reads frames through a Reader and writes
// them through a Writer (see their doc comments for who calls them and
// when). NewReader and NewWriter are the default framer over any io.Reader
// and io.Writer, which the SDK uses. A Reader may also implement the
// optional extension points BufferedReader, Awaiter and Gatekeeper, which
// NewConn finds by type assertion: the desktop host's pipe framer
// (internal/foundation/transport: write deadlines, a stall limit, a Call's thread
// spinning briefly for its answer, the initialized barrier) plugs in
// through Options.Reader and Options.Writer. A plugin needs none of them;
// this package imports nothing of the host.
//
// Concurrency
//   - One reader goroutine reads every frame and dispatches it: a response
//     goes to its waiting Call, a request to a goroutine of its own, a
//     notification to the notification goroutine, a preempter
//     (HandlePreempt) runs on the reader itself as it is read. After it
//     readied another goroutine and nothing more is buffered, the reader
//     yields the CPU so that goroutine runs on this thread first.
//   - Outbound frames are written in order by whoever holds the pen: one
//     ordered, bounded queue is drained by one writer goroutine, which
//     gathers whatever is queued into one write; when nothing is queued and
//     nobody writes, a Call's request and a handler's answer are written
//     by their own goroutine (no hand-off on the critical path of a call).
//     Notifications, and answers sent by the reader (errors, busy), always
//     go through the queue, so a run of notifications is gathered into few
//     writes. A write error is terminal.
//   - At most Options.MaxInflight inbound requests are handled at once, and
//     a request past the bound is answered at once with a retryable
//     internal "busy" error; a handler's slot is freed when it returns. A
//     handler panic is answered as internal and the connection lives on.
//   - AfterResponse lets a handler run code once its answer is written (or
//     known never to be): the SDK sends a stream's chunks only after its
//     stream/open answer, and ends Serve after the shutdown answer, so.
//     Options.OnFrame is an inspector tap only: nothing depends on it.
//   - Inbound notifications run one at a time in arrival order on the
//     notification goroutine, fed by a channel of 256 entries. When that
//     channel is full the reader blocks (back-pressure on the peer), so a
//     notification handler should not wait on a Call of the same
//     connection while hundreds of notifications are queued behind it.
//   - Call honours its context: when it is done the call returns ctx.Err()
//     wrapped and a late response is ignored. When the reader sees EOF or a
//     fatal error, a write fails, or Close is called, Err reports the
//     terminal error (io.EOF for a clean peer close, ErrClosed after Close),
//     pending calls fail with an error wrapping it, handler contexts are
//     cancelled and Done is closed. Frames already queued are still written,
//     then the Writer is closed if it is an io.Closer. Close also waits
//     (Wait) until every goroutine the connection started has returned:
//     the reader (its Reader must end a blocked read when its context is
//     done), the writer, the notification goroutine and the handlers.
package ndjson

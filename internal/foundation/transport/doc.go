// Package transport is the host's fast pipe transport to plugin processes:
// the latency machinery that only the host needs, kept out of the public
// protocol/ndjson and sdk packages (plugins never compile it).
//
// It holds:
//   - Framer (Reader, Writer): the protocol/ndjson framer the host's v2
//     sidecar connections use. The Reader's Await keeps a Call's goroutine
//     spinning briefly (yielding the CPU) once the request is written, so a
//     quick answer does not cost a sleep and a wake-up. The Writer gives every
//     write a deadline: the caller's (a Call whose ctx ends mid-frame
//     returns, and the rest of the frame is written first by the next
//     write) and the stall limit (a plugin that takes no byte for that long
//     fails the connection with ErrWriteStalled).
//   - Pipe: the read end of a pipe whose watched reads wait on the reading
//     goroutine's own thread (on Linux: spinning briefly while yielding the
//     CPU to the peer just woken, then in poll(2)), so that the answer wakes
//     that very thread instead of the runtime's poller waking one thread
//     that readies the reader on another. Measured on a 2-vCPU VM, a request
//     to one of several idle children answered about a third sooner.
//   - Watch: ends a blocked read at a deadline or on demand (a cancelled
//     context, a closed stream) on a Pipe or any reader with read deadlines.
//   - Turn: the hand-over of one byte stream's reading between a background
//     reader goroutine and callers that read their own answers (xdev v1).
//     An answer read by a background goroutine must be handed to the
//     waiting caller, and readying that caller wakes a second thread on the
//     critical path of every call; a call made while nobody reads does the
//     reading itself, dispatching whatever arrives before its answer.
//     Exactly one goroutine reads at a time: the one holding the turn; every
//     state change happens under the owner's mutex (the *Locked methods). A
//     freed turn goes back to the background reader after a delay without
//     calls, so that what the peer sends unasked is still read promptly.
//   - LineReader: newline-framed reading with a length cap that keeps a line
//     cut short by a deadline for the next read (xdev v1 lines, v2 frames).
//
// A caller blocked in a read must still honour its deadline and context:
// Watch ends the read, which leaves unread bytes in the pipe (LineReader
// keeps a line cut short for the next read).
package transport

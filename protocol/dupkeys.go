package protocol

import "github.com/reasonix/reasonix-desktop/protocol/internal/jsonscan"

// CheckDuplicateKeys reports a member name repeated in one object anywhere
// in data (one JSON value, already known to be valid): one decoder would
// take the first value and another the last, so such a message is refused
// wherever the repeat is. The error is a *DecodeError whose Path is where
// the repeated member is ("runtime.command", "fields[2].key"), the first
// repeat in document order. A message without a repeat costs one pass and
// no allocation (but for objects of more than eight members). It is safe
// for concurrent use.
func CheckDuplicateKeys(data []byte) error {
	if path, found := jsonscan.DuplicateKey(data); found {
		return &DecodeError{Path: path, Msg: "duplicate key"}
	}
	return nil
}

//go:build !unix

package tools

import (
	"io"
	"os"
)

// readSmall reads a whole file of at most limit bytes; big is true (and
// data nil) for a larger one, which the caller streams instead.
func readSmall(path string, limit int64) (data []byte, big bool, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, false, err
	}
	if st.Size() > limit {
		return nil, true, nil
	}
	data, err = io.ReadAll(io.LimitReader(f, limit+1))
	if int64(len(data)) > limit {
		return nil, true, nil
	}
	return data, false, err
}

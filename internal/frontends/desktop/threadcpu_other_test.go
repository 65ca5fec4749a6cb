//go:build !linux

package desktop

import (
	"testing"
	"time"
)

// threadCPU is not measured off Linux: cpu-ms/key reads 0 there.
func threadCPU(*testing.B) time.Duration { return 0 }

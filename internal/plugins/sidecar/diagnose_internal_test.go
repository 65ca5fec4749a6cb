package sidecar

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func peHeader(machine uint16) []byte {
	b := make([]byte, 0x100)
	copy(b, "MZ")
	binary.LittleEndian.PutUint32(b[0x3c:], 0x80)
	copy(b[0x80:], "PE\x00\x00")
	binary.LittleEndian.PutUint16(b[0x84:], machine)
	return b
}

func machOHeader(cpu uint32) []byte {
	b := make([]byte, 32)
	binary.LittleEndian.PutUint32(b, 0xfeedfacf)
	binary.LittleEndian.PutUint32(b[4:], cpu)
	return b
}

// TestInspectFileKnowsEveryExecutableFormat: a PE or Mach-O file is named as
// what it is and is "for this machine" only on its own OS and CPU; before,
// every .exe read as "not a binary", and a Windows start that failed for any
// reason was reported as a command that is not runnable.
func TestInspectFileKnowsEveryExecutableFormat(t *testing.T) {
	javaClass := make([]byte, 16)
	binary.BigEndian.PutUint32(javaClass, 0xcafebabe)
	binary.BigEndian.PutUint32(javaClass[4:], 52)
	fat := make([]byte, 16)
	binary.BigEndian.PutUint32(fat, 0xcafebabe)
	binary.BigEndian.PutUint32(fat[4:], 2)
	tests := []struct {
		name     string
		head     []byte
		kind     string
		goos     string
		arch     string // "" matches any CPU
		isBinary bool
	}{
		{"windows amd64", peHeader(0x8664), "PE x86-64", "windows", "amd64", true},
		{"windows arm64", peHeader(0xaa64), "PE ARM64", "windows", "arm64", true},
		{"macOS amd64", machOHeader(0x01000007), "Mach-O x86-64", "darwin", "amd64", true},
		{"macOS arm64", machOHeader(0x0100000c), "Mach-O ARM64", "darwin", "arm64", true},
		{"macOS universal", fat, "Mach-O universal", "darwin", "", true},
		{"java class", javaClass, "not a binary or a #! script", "", "", false},
		{"MZ without PE", append([]byte("MZ"), make([]byte, 0x40)...), "not a binary or a #! script", "", "", false},
	}
	dir := t.TempDir()
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, string(rune('a'+i)))
			if err := os.WriteFile(path, tt.head, 0o755); err != nil {
				t.Fatal(err)
			}
			f := inspectFile(path)
			if f.Kind != tt.kind {
				t.Fatalf("kind %q, want %q", f.Kind, tt.kind)
			}
			want := tt.isBinary && tt.goos == runtime.GOOS && (tt.arch == "" || tt.arch == runtime.GOARCH)
			if f.ForThisMachine != want {
				t.Fatalf("ForThisMachine %v on %s/%s, want %v", f.ForThisMachine, runtime.GOOS, runtime.GOARCH, want)
			}
		})
	}
}

// TestInspectFileOfThisTestBinary: the running test binary is for this
// machine, whatever its format.
func TestInspectFileOfThisTestBinary(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	f := inspectFile(exe)
	if !f.ForThisMachine || strings.HasPrefix(f.Kind, "not a binary") {
		t.Fatalf("this test binary: %+v", f)
	}
}

//go:build race

package intercept_test

// raceEnabled: the test binary runs under the race detector, which makes
// every byte the host copies, scans and hashes several times slower.
const raceEnabled = true

//go:build !race

package intercept_test

// raceEnabled: see race_test.go.
const raceEnabled = false

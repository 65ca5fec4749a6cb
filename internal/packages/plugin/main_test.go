package plugin

import (
	"testing"

	"go.uber.org/goleak"
)

// The store tests run concurrent writers: none may outlive the package's
// tests. (internal/testing/testutil imports this package, so its Run cannot be
// used here.)
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

package host

// StateDegraded is an Active plugin whose circuit opened: an optional
// plugin that timed out, failed or broke the protocol at a hook point and is
// skipped for the rest of its generation (intercept.Chain.Degraded). A
// reload or restart starts it afresh.
const StateDegraded = "Degraded"

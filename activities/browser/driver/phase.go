package driver

// Phase is where an attempt is, told to DoOptions.OnPhase as it goes. The words are those
// of the activities' heartbeat phases (activities.Phase), which the adapter passes them on
// as; the driver does not import the activities' contract, which carries the Temporal SDK.
type Phase string

// The phases of an attempt, in the order it goes through them (waiting only for a step
// that waits for its target or a condition).
const (
	PhaseObserving Phase = "observing"
	PhaseWaiting   Phase = "waiting"
	PhaseActing    Phase = "acting"
	PhaseChecking  Phase = "checking"
)

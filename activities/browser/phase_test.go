package browser

import (
	"testing"

	"github.com/webagent-dev/webagent/activities"
	"github.com/webagent-dev/webagent/activities/browser/driver"
)

// TestDriverPhasesAreTheActivities: the phases the driver reports are heartbeated as they
// are, so each must be the activities' phase of the same name.
func TestDriverPhasesAreTheActivities(t *testing.T) {
	for d, a := range map[driver.Phase]activities.Phase{
		driver.PhaseObserving: activities.PhaseObserving,
		driver.PhaseWaiting:   activities.PhaseWaiting,
		driver.PhaseActing:    activities.PhaseActing,
		driver.PhaseChecking:  activities.PhaseChecking,
	} {
		if string(d) != string(a) {
			t.Errorf("the driver's phase %q is heartbeated as %q, which is not the activities' %q", d, d, a)
		}
	}
}

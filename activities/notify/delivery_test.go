package notify

import (
	"strings"
	"testing"
)

// TestDeliveryID: a delivery's ID depends only on the run, the activity (which Temporal
// keeps across its retries), the event and the step; it differs when any does, and holds
// only characters Verify accepts.
func TestDeliveryID(t *testing.T) {
	id := deliveryID("w", "r", "7", "waiting", 3)
	if deliveryID("w", "r", "7", "waiting", 3) != id || !validID(id) || strings.Contains(id, ".") {
		t.Fatalf("unstable or invalid: %s", id)
	}
	for _, other := range []string{
		deliveryID("w2", "r", "7", "waiting", 3),
		deliveryID("w", "r2", "7", "waiting", 3),
		deliveryID("w", "r", "8", "waiting", 3),
		deliveryID("w", "r", "7", "ended", 3),
		deliveryID("w", "r", "7", "waiting", 4),
		deliveryID("w\x00r", "", "7", "waiting", 3),
	} {
		if other == id {
			t.Errorf("the same ID for another delivery: %s", id)
		}
	}
}

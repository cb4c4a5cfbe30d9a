package driver_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/webagent-dev/webagent/activities/browser/driver"
	"github.com/webagent-dev/webagent/activities/page"
)

// TestObservationCollectsTextBlocks: the headings and what the page announces (an alert, a
// toast at the foot of a long page) reach the observation, the toast marked below the
// viewport, and a hidden alert does not.
func TestObservationCollectsTextBlocks(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		_, _ = w.Write([]byte(`<!doctype html><title>Orders</title><h1>Orders</h1>
<div role="alert"><h2>Payment failed</h2> Your card was declined.</div>
<div role="alert" style="display:none">Hidden</div><button>Retry</button>
<div style="height:3000px"></div><div class="toast">Order #1042 saved</div>`))
	}))
	defer srv.Close()
	s, _, err := newPool(t).Open(t.Context(), "blocks", driver.OpenOptions{URL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	obs, err := s.Observe(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	want := []page.TextBlock{{Kind: "heading", Text: "Orders"}, {Kind: "alert", Text: "Payment failed Your card was declined."}, {Kind: "status", Text: "Order #1042 saved", Where: "below"}}
	if len(obs.Blocks) != len(want) {
		t.Fatalf("blocks %+v, want %+v", obs.Blocks, want)
	}
	for i := range want {
		if obs.Blocks[i] != want[i] {
			t.Errorf("block %d: %+v, want %+v", i, obs.Blocks[i], want[i])
		}
	}
}

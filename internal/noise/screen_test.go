package noise

import (
	"math"
	"testing"

	"github.com/webagent-dev/webagent/activities/model"
)

// Every element's centre, as the oracle puts it on the tool's grid and the agent maps it
// back to the screenshot's pixels, lands on that element.
func TestScreenGridRoundTrip(t *testing.T) {
	app := newSimApp(SimURL, seed)
	pages := map[string]func(){
		"list":   func() {},
		"menu":   func() { app.menuFor = "Q4-bugs" },
		"new":    func() { app.menuFor, app.dialog = "", "new" },
		"rename": func() { app.dialog = "rename" },
	}
	for _, name := range []string{"list", "menu", "new", "rename"} {
		pages[name]()
		s := app.screen()
		for _, e := range s.Obs.Elements {
			gx, gy := s.Grid(e)
			px := math.Round(float64(gx) / model.Grid * screenW)
			py := math.Round(float64(gy) / model.Grid * screenH)
			if got, ok := s.Obs.At(px, py); !ok || got.Index != e.Index {
				t.Errorf("%s: #%d %s %q at grid (%d, %d) = (%.0f, %.0f) px: got #%d", name, e.Index, e.Role, e.Name, gx, gy, px, py, got.Index)
			}
		}
	}
}

// cu_neighbour_row moves the true point to the same element in the next row, up or down.
func TestNeighbourRow(t *testing.T) {
	s := newSimApp(SimURL, seed).screen()
	truth := s.toolCall(promptStep{Action: "CLICK"}, s.Obs.Elements[6]) // Q4-bugs's "Project actions"
	if got, _ := calledAt(s, truth); got.Row != "Q4-bugs Medium Team ⋯" {
		t.Fatalf("the true call lands on %+v", got)
	}
	rows := map[string]bool{}
	for _, aux := range []float64{0, 0.6} {
		e, ok := neighbourRow(s, truth, aux)
		if !ok || e.Name != "Project actions" {
			t.Fatalf("aux %v: %+v %v", aux, e, ok)
		}
		rep := pointAt(s, truth, e)
		if got, _ := calledAt(s, rep.Call); got.Index != e.Index {
			t.Errorf("aux %v: the point lands on #%d, not #%d", aux, got.Index, e.Index)
		}
		rows[e.Row] = true
	}
	if !rows["Website relaunch High Team ⋯"] || !rows["Q4-bugs-old Low Private ⋯"] {
		t.Errorf("neighbour rows %v: want the row above and the row below", rows)
	}
	if cut := cutCall(truth); cut.Call.Args["y"] != nil || cut.Call.Args["x"] == nil {
		t.Errorf("a cut click_at keeps x only: %v", cut.Call.Args)
	}
}

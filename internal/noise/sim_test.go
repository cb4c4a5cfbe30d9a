package noise

import (
	"os"
	"slices"
	"strings"
	"testing"
)

// TestSimTruthful: with no noise every scenario takes the model's path and succeeds,
// exactly as the app's state says, and the run counts what the stand-in served.
func TestSimTruthful(t *testing.T) {
	s := NewSim(t)
	// A plan that leaves the row to the goal ("the Project actions button") is ambiguous
	// on the page: with the tool on, the tool decides it, truthfully, and the run succeeds.
	loose := ComputerUseScenarios()[0]
	loose.Name, loose.Plan = "archive (computer use, row left to the goal)", slices.Clone(loose.Plan)
	loose.Plan[0].Target = `the "Project actions" button`
	for _, sc := range append(append(Scenarios(), ComputerUseScenarios()...), loose) {
		r := s.Run(sc, 0, 1)
		if r.Planner != "gemini" || !r.Success() || r.Miss != "" || r.Err != "" || !r.UsageEqual() {
			t.Errorf("%s: %+v", sc.Name, r)
		}
		// Every step of the scenarios resolves DOM-first without noise; the loose plan's
		// first does not.
		if tool := s.gemini.Calls("computer_use"); (sc.Name == loose.Name) != (len(tool) > 0) {
			t.Errorf("%s: %d calls of the computer-use tool", sc.Name, len(tool))
		}
	}
}

// TestSimNoise runs every scenario at each noise level over NOISE_SIM_SEEDS seeds (a few
// by default), prints the table, and holds the bar at the highest level: no false
// success, no effect done twice, no retry on a vetoed element, usage counted as served.
func TestSimNoise(t *testing.T) {
	s := NewSim(t)
	n := Seeds(t, "NOISE_SIM_SEEDS", 25)
	var runs, cu []Run
	for _, l := range Levels(t, "0 0.1 0.2") {
		for seed := int64(1); seed <= int64(n); seed++ {
			for _, sc := range Scenarios() {
				runs = append(runs, s.Run(sc, l, seed))
			}
			for _, sc := range ComputerUseScenarios() {
				cu = append(cu, s.Run(sc, l, seed))
			}
		}
	}
	t.Logf("\n%s", Table("workflow level (simulated demo app)", runs))
	t.Logf("\n%s", Table("workflow level, computer use on: "+names(ComputerUseScenarios()), cu))
	runs = append(runs, cu...)
	if f := Findings(runs); f != "" {
		t.Logf("findings:\n%s", f)
	}
	if os.Getenv("NOISE_SHOW_FAILED") != "" {
		t.Logf("runs that did not succeed:\n%s", Failures(runs))
	}
	AssertBar(t, runs)
}

func names(scs []Scenario) string {
	var out []string
	for _, sc := range scs {
		out = append(out, sc.Name)
	}
	return strings.Join(out, ", ")
}

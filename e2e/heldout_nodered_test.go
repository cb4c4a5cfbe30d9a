//go:build heldout

package e2e

import (
	"fmt"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/activities"
	"github.com/webagent-dev/webagent/internal/testenv"
	"github.com/webagent-dev/webagent/workflows"
)

// The held-out check: Node-RED's tests build only with -tags heldout, so that they are
// run at the end, against an agent nobody tuned to them.

// nrSeed is the flow every goal starts from: a tab "Home" with an inject node wired to a
// debug node.
const nrSeed = `[
{"id":"f1","type":"tab","label":"Home","disabled":false,"info":""},
{"id":"n1","type":"inject","z":"f1","name":"Morning alarm","props":[{"p":"payload"}],"repeat":"","crontab":"","once":false,"onceDelay":0.1,"topic":"","payload":"wake up","payloadType":"str","x":200,"y":120,"wires":[["n2"]]},
{"id":"n2","type":"debug","z":"f1","name":"Log","active":true,"tosidebar":true,"console":false,"tostatus":false,"complete":"payload","targetType":"msg","statusVal":"","statusType":"auto","x":440,"y":120,"wires":[]}
]`

// nrImport is a flow a person pastes into Node-RED's import dialog, or imports as a file.
const nrImport = `[{"id":"e1","type":"inject","name":"Evening lights","props":[{"p":"payload"}],"payload":"on","payloadType":"str","repeat":"","crontab":"","once":false,"onceDelay":0.1,"topic":"","x":200,"y":240,"wires":[]}]`

// TestHeldOutNodeRED drives Node-RED — a real flow editor nobody here wrote, installed from
// the npm registry — with everyday goals and no model: add and rename a flow, rename a
// node by double-clicking it, drag a node in from the palette, delete one from its
// right-click menu, disable a flow, import a flow pasted or from a file. Each goal runs on
// a fresh Node-RED; the run's status must be success and the deployed flows.json must
// hold what the goal asked for.
func TestHeldOutNodeRED(t *testing.T) {
	if testenv.NodeREDMain() == "" {
		t.Skip("Node-RED is not installed: run deploy/setup.sh")
	}
	s := newStack(t)
	s.poolWorker(t)
	goal := func(t *testing.T, g string, deployed func(n *testenv.NodeRED) string, files ...activities.RunFile) {
		t.Helper()
		n := testenv.StartNodeRED(t, nrSeed)
		res := s.result(t, s.start(t, workflows.GoalInput{Goal: g, StartURL: n.URL + "/", Files: files}))
		var why string
		n.Eventually(10*time.Second, func() bool { why = deployed(n); return why == "" })
		if res.Execution.Status != workflows.StatusSuccess || !res.Validation.Verified {
			t.Errorf("goal %q: status %s (verified %v): %s; errors %v", g, res.Execution.Status, res.Validation.Verified, res.Validation.Reason, res.Errors)
		}
		if why != "" {
			for _, st := range res.Steps {
				t.Logf("step %s %s: %v", st.Step, st.Status, st.Actions)
			}
			t.Errorf("goal %q: the deployed flows disagree: %s", g, why)
		}
		if why != "" && res.Execution.Status == workflows.StatusSuccess {
			t.Errorf("the run claimed success but the deployed flows did not change as asked")
		}
	}
	// count is how many deployed entries have the type and name.
	count := func(n *testenv.NodeRED, typ, name string) int { return len(n.Find(typ, name)) }

	t.Run("add a flow", func(t *testing.T) {
		goal(t, `click the "Add Flow" button, click "Deploy", then check that "Flow 1" is visible`, func(n *testenv.NodeRED) string {
			if c := count(n, "tab", ""); c != 2 {
				return fmt.Sprintf("%d tabs deployed", c)
			}
			return ""
		})
	})
	t.Run("rename a flow", func(t *testing.T) {
		goal(t, `double-click "Home", type "Living room" into "Name", click "Done", click "Deploy", then check that "Living room" is visible`, func(n *testenv.NodeRED) string {
			if count(n, "tab", "Living room") != 1 || count(n, "tab", "") != 1 {
				return fmt.Sprintf("tabs deployed: %v", n.Find("tab", ""))
			}
			return ""
		})
	})
	t.Run("rename a node", func(t *testing.T) {
		goal(t, `double-click "Morning alarm", type "Wake-up call" into "Name", click "Done", click "Deploy", then check that "Wake-up call" is visible`, func(n *testenv.NodeRED) string {
			if count(n, "inject", "Wake-up call") != 1 || count(n, "inject", "") != 1 {
				return fmt.Sprintf("inject nodes deployed: %v", n.Find("inject", ""))
			}
			return ""
		})
	})
	t.Run("disable a flow", func(t *testing.T) {
		goal(t, `double-click "Home", click "Enabled", click "Done", click "Deploy", then check that "Successfully deployed" is visible`, func(n *testenv.NodeRED) string {
			if tabs := n.Find("tab", "Home"); len(tabs) != 1 || tabs[0]["disabled"] != true {
				return fmt.Sprintf("tabs deployed: %v", n.Find("tab", ""))
			}
			return ""
		})
	})
	t.Run("delete a node from its menu", func(t *testing.T) {
		goal(t, `right-click "Log", click "Delete", click "Deploy", then check that "Log" is not visible`, func(n *testenv.NodeRED) string {
			if count(n, "debug", "") != 0 || count(n, "inject", "Morning alarm") != 1 {
				return fmt.Sprintf("deployed: %v", n.Flows())
			}
			return ""
		})
	})
	t.Run("drag a node in", func(t *testing.T) {
		goal(t, `drag "function" from the palette onto the workspace, click "Deploy", then check that "Successfully deployed" is visible`, func(n *testenv.NodeRED) string {
			if count(n, "function", "") != 1 {
				return fmt.Sprintf("deployed: %v", n.Flows())
			}
			return ""
		})
	})
	t.Run("import a pasted flow", func(t *testing.T) {
		goal(t, `open the main menu, click "Import", type '`+nrImport+`' into the text area, click the "Import" button, click "Deploy", then check that "Evening lights" is visible`, func(n *testenv.NodeRED) string {
			if count(n, "inject", "Evening lights") != 1 {
				return fmt.Sprintf("deployed: %v", n.Flows())
			}
			return ""
		})
	})
	t.Run("import a flow file", func(t *testing.T) {
		// The file is given to the run (a run reads no path on the worker).
		goal(t, `open the main menu, click "Import", upload "evening.json" with "select a file to import", click the "Import" button, click "Deploy", then check that "Evening lights" is visible`, func(n *testenv.NodeRED) string {
			if count(n, "inject", "Evening lights") != 1 {
				return fmt.Sprintf("deployed: %v", n.Flows())
			}
			return ""
		}, activities.RunFile{Name: "evening.json", Data: []byte(nrImport)})
	})
}

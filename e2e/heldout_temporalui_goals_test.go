//go:build heldout

package e2e

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// temporaluiGoal is one everyday goal in the Temporal Web UI: what it says three ways, how
// its effect is judged in the server (done: "" when the namespace holds exactly that
// effect), how the harness makes that effect itself through the UI's own requests (do),
// and a near miss of it (miss: a change the judge must not take for the goal).
type temporaluiGoal struct {
	name      string
	phrasings [3]string
	done      func(t *testing.T, u *testenv.TemporalUI) string
	do, miss  func(t *testing.T, b *testenv.TemporalUIBrowser)
}

// The goals' own words: a reason, a note and a signal's input.
const (
	temporaluiReason  = "Customer ordered twice"
	temporaluiNote    = "Paused during the EU data center move"
	temporaluiShipped = `{"carrier": "UPS", "tracking": "1Z4829"}`
)

var temporaluiGoals = []temporaluiGoal{
	{
		name: "terminate order-1042 with a reason",
		phrasings: [3]string{
			`click "order-1042", click "More Actions", click "Terminate", type "Customer ordered twice" into "Enter a reason", click "Terminate"`,
			`Open order-1042 from the workflow list, then open More Actions and pick Terminate. Put Customer ordered twice in the reason field and confirm with the Terminate button.`,
			`Please terminate the workflow "order-1042": click its ID in the Workflows list, press More Actions, choose "Terminate", type "Customer ordered twice" in the field labelled Enter a reason and click Terminate in the dialog.`,
		},
		done: func(t *testing.T, u *testenv.TemporalUI) string {
			return temporaluiOnly(t, u, "workflow", "order-1042", func(seed, got string) string {
				reason := testenv.TemporalUIField(got, "reason")
				if !temporaluiSaid(strings.TrimSuffix(reason, "Terminated from the Web UI"), temporaluiReason) {
					return fmt.Sprintf("was not terminated with the reason %q: %s", temporaluiReason, got)
				}
				return temporaluiIs(got, temporaluiWith(seed, "status", "Terminated")+"; reason="+reason)
			})
		},
		do:   func(t *testing.T, b *testenv.TemporalUIBrowser) { b.Terminate(t, "order-1042", temporaluiReason) },
		miss: func(t *testing.T, b *testenv.TemporalUIBrowser) { b.Terminate(t, "order-1402", temporaluiReason) },
	},
	{
		name: "find invoice-sync-7 and request its cancellation",
		phrasings: [3]string{
			`click "Add Filter", click "WorkflowId", type "invoice-sync-7" into "Enter value...", click "Apply", click "invoice-sync-7", click "Request Cancellation", click "Confirm"`,
			`Filter the workflows by WorkflowId: hit Add Filter, pick WorkflowId, enter invoice-sync-7 as the value and press Apply. Then open invoice-sync-7 from the results, click Request Cancellation and Confirm.`,
			`Use the "Add Filter" button above the list to choose the WorkflowId filter, type "invoice-sync-7" in the Value box and click "Apply"; open the invoice-sync-7 workflow it finds, press "Request Cancellation" and confirm with "Confirm".`,
		},
		done: func(t *testing.T, u *testenv.TemporalUI) string {
			return temporaluiOnly(t, u, "workflow", "invoice-sync-7", func(seed, got string) string {
				return temporaluiIs(got, temporaluiWith(seed, "status", "Canceled")+"; cancel=requested")
			})
		},
		do: func(t *testing.T, b *testenv.TemporalUIBrowser) {
			if ids := b.Find(t, `WorkflowId="invoice-sync-7"`); len(ids) != 1 || ids[0] != "invoice-sync-7" {
				t.Fatalf("the filter WorkflowId = invoice-sync-7 finds %v", ids)
			}
			b.RequestCancellation(t, "invoice-sync-7")
		},
		miss: func(t *testing.T, b *testenv.TemporalUIBrowser) { b.RequestCancellation(t, "invoice-sync-17") },
	},
	{
		name: "send order-1041 the ship signal with its data",
		phrasings: [3]string{
			`click "order-1041", click "More Actions", click "Send a Signal", click "Signal name", click "ship", type '{"carrier": "UPS", "tracking": "1Z4829"}' into "Data", click "Submit"`,
			`Open order-1041, then More Actions > Send a Signal. Choose ship as the Signal name, put {"carrier": "UPS", "tracking": "1Z4829"} in Data and press Submit.`,
			`order-1041 has shipped: open it from the Workflows list, click "More Actions" and "Send a Signal", select the signal ship in the Signal name dropdown, enter {"carrier": "UPS", "tracking": "1Z4829"} as the Data and hit Submit.`,
		},
		done: func(t *testing.T, u *testenv.TemporalUI) string {
			return temporaluiOnly(t, u, "workflow", "order-1041", func(seed, got string) string {
				name, input, _ := strings.Cut(testenv.TemporalUIField(got, "signal"), " ")
				if name != "ship" || !temporaluiSameJSON(input, temporaluiShipped) {
					return fmt.Sprintf("has no signal ship with %s: %s", temporaluiShipped, got)
				}
				return temporaluiIs(got, temporaluiWith(seed, "status", "Completed")+"; signal=ship "+input)
			})
		},
		do:   func(t *testing.T, b *testenv.TemporalUIBrowser) { b.Signal(t, "order-1041", "ship", temporaluiShipped) },
		miss: func(t *testing.T, b *testenv.TemporalUIBrowser) { b.Signal(t, "order-1401", "ship", temporaluiShipped) },
	},
	{
		name: "pause nightly-reports-eu with a note",
		phrasings: [3]string{
			`click "Schedules", click "nightly-reports-eu", click "Pause", type "Paused during the EU data center move" into "Reason", click "Pause"`,
			`Go to Schedules in the menu on the left and open nightly-reports-eu. Hit Pause, write Paused during the EU data center move as the reason, then press Pause again to confirm.`,
			`In the left-hand menu click Schedules, then the schedule "nightly-reports-eu"; click its Pause button, type "Paused during the EU data center move" in the Reason field of the "Pause Schedule?" dialog and click Pause.`,
		},
		done: func(t *testing.T, u *testenv.TemporalUI) string {
			return temporaluiOnly(t, u, "schedule", "nightly-reports-eu", func(seed, got string) string {
				note := testenv.TemporalUIField(got, "note")
				if !temporaluiSaid(note, temporaluiNote) {
					return fmt.Sprintf("is not paused with the note %q: %s", temporaluiNote, got)
				}
				return temporaluiIs(got, temporaluiWith(temporaluiWith(seed, "paused", "true"), "note", note))
			})
		},
		do: func(t *testing.T, b *testenv.TemporalUIBrowser) {
			b.PauseSchedule(t, "nightly-reports-eu", temporaluiNote)
		},
		miss: func(t *testing.T, b *testenv.TemporalUIBrowser) { b.PauseSchedule(t, "nightly-report", temporaluiNote) },
	},
	{
		name: "trigger nightly-report now",
		phrasings: [3]string{
			`click "Schedules", click "nightly-report", click "Schedule Actions", click "Trigger", click "Trigger"`,
			`Open Schedules from the left menu and pick nightly-report. Open the Schedule Actions menu next to Pause, choose Trigger, then press Trigger in the Trigger Immediately dialog.`,
			`Run the nightly-report schedule now: click Schedules on the left, open "nightly-report", click the arrow labelled Schedule Actions beside the Pause button, pick "Trigger" and confirm with the "Trigger" button.`,
		},
		done: func(t *testing.T, u *testenv.TemporalUI) string {
			return temporaluiJudge(t, u, map[[2]string]func(seed, got string, ok bool) string{
				{"schedule", "nightly-report"}: func(seed, got string, ok bool) string {
					return temporaluiIs(got, temporaluiWith(seed, "actions", "1"))
				},
				{"workflow", "nightly-report-{time}"}: func(seed, got string, ok bool) string {
					return temporaluiIs(got, `type=NightlyReport; queue=reports; status=Completed; input={"region":"all"}`)
				},
			})
		},
		do:   func(t *testing.T, b *testenv.TemporalUIBrowser) { b.TriggerSchedule(t, "nightly-report") },
		miss: func(t *testing.T, b *testenv.TemporalUIBrowser) { b.TriggerSchedule(t, "nightly-reports-eu") },
	},
	{
		name: "delete the schedule nightly-reports-eu",
		phrasings: [3]string{
			`click "Schedules", click "nightly-reports-eu", click "Schedule Actions", click "Delete", click "Delete"`,
			`Go to Schedules (left menu), open nightly-reports-eu, open Schedule Actions and choose Delete, then confirm with Delete.`,
			`Delete the schedule "nightly-reports-eu": click Schedules in the menu on the left, click nightly-reports-eu, press the Schedule Actions arrow next to Pause, click Delete and hit Delete in the "Delete Schedule?" dialog.`,
		},
		done: func(t *testing.T, u *testenv.TemporalUI) string {
			return temporaluiJudge(t, u, map[[2]string]func(seed, got string, ok bool) string{
				{"schedule", "nightly-reports-eu"}: func(seed, got string, ok bool) string {
					if ok {
						return "is still there: " + got
					}
					return ""
				},
			})
		},
		do:   func(t *testing.T, b *testenv.TemporalUIBrowser) { b.DeleteSchedule(t, "nightly-reports-eu") },
		miss: func(t *testing.T, b *testenv.TemporalUIBrowser) { b.DeleteSchedule(t, "nightly-report") },
	},
	{
		name: "start the workflow order-1500",
		phrasings: [3]string{
			`click "Start Workflow", type "order-1500" into "Workflow ID", type "orders" into "Task Queue", type "OrderFulfillment" into "Workflow Type", click "Start Workflow"`,
			`Click Start Workflow above the list, fill in Workflow ID order-1500, Task Queue orders and Workflow Type OrderFulfillment, then hit Start Workflow.`,
			`Start a new workflow from the Workflows page: press "Start Workflow", enter order-1500 in the field labelled Workflow ID, "orders" in Task Queue and "OrderFulfillment" in Workflow Type, and click the Start Workflow button at the bottom.`,
		},
		done: func(t *testing.T, u *testenv.TemporalUI) string {
			return temporaluiOnly(t, u, "workflow", "order-1500", func(seed, got string) string {
				input := testenv.TemporalUIField(got, "input")
				return temporaluiIs(got, "type=OrderFulfillment; queue=orders; status=Running; input="+input)
			})
		},
		do: func(t *testing.T, b *testenv.TemporalUIBrowser) {
			b.StartWorkflow(t, "order-1500", "orders", "OrderFulfillment", "")
		},
		miss: func(t *testing.T, b *testenv.TemporalUIBrowser) {
			b.StartWorkflow(t, "order-1050", "orders", "OrderFulfillment", "")
		},
	},
}

// temporaluiJudge says "" when the namespace is its seed but for the entries checks names
// (kind and key), each of which its check accepts: given the seed's value, the value now and
// whether there is one ("" from the check); else what it found.
func temporaluiJudge(t *testing.T, u *testenv.TemporalUI, checks map[[2]string]func(seed, got string, ok bool) string) string {
	got, want := u.State(t), u.Seed()
	var why []string
	for k, check := range checks {
		v, ok := got[k[0]][k[1]]
		if w := check(want[k[0]][k[1]], v, ok); w != "" {
			why = append(why, fmt.Sprintf("%s %s %s", k[0], k[1], w))
		}
		if ok {
			want[k[0]][k[1]] = v
		} else {
			delete(want[k[0]], k[1])
		}
	}
	if d := got.Diff(want); d != "" {
		why = append(why, d)
	}
	return strings.Join(why, "; ")
}

// temporaluiOnly is temporaluiJudge with one entry, which must be there.
func temporaluiOnly(t *testing.T, u *testenv.TemporalUI, kind, key string, check func(seed, got string) string) string {
	return temporaluiJudge(t, u, map[[2]string]func(seed, got string, ok bool) string{
		{kind, key}: func(seed, got string, ok bool) string {
			if !ok {
				return "is not there"
			}
			return check(seed, got)
		},
	})
}

// temporaluiWith is an entry's value with its field name set to v.
func temporaluiWith(value, name, v string) string {
	fields := strings.Split(value, "; ")
	for i, f := range fields {
		if k, _, ok := strings.Cut(f, "="); ok && k == name {
			fields[i] = name + "=" + v
		}
	}
	return strings.Join(fields, "; ")
}

// temporaluiIs says "" when got is want, else how it differs.
func temporaluiIs(got, want string) string {
	if got == want {
		return ""
	}
	return fmt.Sprintf("is %q, not %q", got, want)
}

// temporaluiSaid says whether text is what a goal says to type, but for case, spaces
// around it and a final full stop.
func temporaluiSaid(text, want string) bool {
	norm := func(s string) string { return strings.TrimSuffix(strings.TrimSpace(s), ".") }
	return strings.EqualFold(norm(text), norm(want))
}

// temporaluiSameJSON says whether two JSON texts hold the same value.
func temporaluiSameJSON(a, b string) bool {
	var x, y any
	return json.Unmarshal([]byte(a), &x) == nil && json.Unmarshal([]byte(b), &y) == nil && reflect.DeepEqual(x, y)
}

package e2e

import (
	"strings"
	"testing"

	"github.com/webagent-dev/webagent/activities"
	"github.com/webagent-dev/webagent/internal/lab"
	"github.com/webagent-dev/webagent/workflows"
)

// TestEverydayIdioms runs the goals people write for the idioms of real apps on the lab's
// chores list, each judged by the list the server keeps: a row's delete button that shows
// only while the row is hovered, checkboxes the page styles away behind their labels,
// renaming by double-click (the text has no handler: the list listens), a context menu on
// right-click, and clearing a field. Each step must be done as asked — the actions say
// which — and the run says success only when the server agrees.
func TestEverydayIdioms(t *testing.T) {
	s := newStack(t)
	s.worker(t)
	url := strings.TrimSuffix(s.appURL, "/projects") + "/static/lab/chores.html"
	for _, tt := range []struct {
		name, goal, want, action string
	}{
		{"hover-revealed delete button", `click the delete button in the row "Buy milk", then check that "Buy milk" is not visible`,
			"Water the plants, Call Ann", `hovered over the row "Buy milk"`},
		{"styled checkbox in a row", `check the checkbox in the row "Call Ann", then check that "2 chores left" is visible`,
			"Buy milk, Water the plants, Call Ann (done)", "set #"},
		{"a label for a hidden checkbox", `check "Mark all as done", then check that "0 chores left" is visible`,
			"Buy milk (done), Water the plants (done), Call Ann (done)", "set #"},
		{"double-click to edit", `double-click "Water the plants", clear "Edit chore", type "Water the garden" into "Edit chore", press Enter, then check that "Water the garden" is visible`,
			"Buy milk, Water the garden, Call Ann", `double-clicked text "Water the plants"`},
		{"right-click menu", `right-click "Call Ann", click "Delete", then check that "Call Ann" is not visible`,
			"Buy milk, Water the plants", `right-clicked text "Call Ann"`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s.app.ResetChores()
			res := s.result(t, s.start(t, workflows.GoalInput{Goal: tt.goal, StartURL: url}))
			list, _ := s.app.Chores()
			if got := lab.Line(list); got != tt.want {
				t.Errorf("the server's list is %q, want %q", got, tt.want)
			}
			if res.Execution.Status != workflows.StatusSuccess || !res.Validation.Verified {
				t.Errorf("status %s (verified %v): %+v", res.Execution.Status, res.Validation.Verified, res.Errors)
			}
			var acts []string
			for _, st := range res.Steps {
				acts = append(acts, st.Actions...)
			}
			if all := strings.Join(acts, "\n"); !strings.Contains(all, tt.action) {
				t.Errorf("the steps should say %q:\n%s", tt.action, all)
			}
		})
	}
}

// TestDragOnTheBoard drags a card to another column of the lab's board and its volume
// slider to a value, from goals as a person writes them, judged by what the board saved.
func TestDragOnTheBoard(t *testing.T) {
	s := newStack(t)
	s.worker(t)
	url := strings.TrimSuffix(s.appURL, "/projects") + "/static/lab/board.html"
	for _, tt := range []struct{ goal, want, action string }{
		{`drag "Write the report" onto "Done", then check that "Done: 1" is visible`, `"Write the report":"Done"`, `dragged #`},
		{`drag the "Volume" slider to 40, then check that "Volume: 40" is visible`, `"volume":40`, "moved the slider"},
	} {
		t.Run(tt.goal, func(t *testing.T) {
			res := s.result(t, s.start(t, workflows.GoalInput{Goal: tt.goal, StartURL: url}))
			if got := string(s.app.LabState("board")); !strings.Contains(got, tt.want) {
				t.Errorf("the board saved %s; want %s in it", got, tt.want)
			}
			if res.Execution.Status != workflows.StatusSuccess {
				t.Errorf("status %s: %+v", res.Execution.Status, res.Errors)
			}
			if acts := strings.Join(res.Steps[0].Actions, "\n"); !strings.Contains(acts, tt.action) {
				t.Errorf("step 1 should say %q:\n%s", tt.action, acts)
			}
		})
	}
}

// TestUploadGivenFiles uploads files given to the run — into a file field, and through a
// button that opens the file chooser — and checks what the page sent to its server; a
// goal that uploads a file the run was not given is refused before anything runs.
func TestUploadGivenFiles(t *testing.T) {
	s := newStack(t)
	s.worker(t)
	url := strings.TrimSuffix(s.appURL, "/projects") + "/static/lab/upload.html"
	files := []activities.RunFile{{Name: "report.txt", Data: []byte("quarterly numbers")}, {Name: "notes.txt", Data: []byte("remember the milk")}}
	for _, tt := range []struct{ goal, want string }{
		{`upload "report.txt" into "Attachment", then check that "Attached: report.txt" is visible`, `"name":"report.txt","how":"field","text":"quarterly numbers"`},
		{`upload "notes.txt" with the "Import" button, then check that "Imported: notes.txt" is visible`, `"name":"notes.txt","how":"import","text":"remember the milk"`},
	} {
		t.Run(tt.goal, func(t *testing.T) {
			res := s.result(t, s.start(t, workflows.GoalInput{Goal: tt.goal, StartURL: url, Files: files}))
			if got := string(s.app.LabState("upload")); !strings.Contains(got, tt.want) {
				t.Errorf("the page sent %s; want %s in it", got, tt.want)
			}
			if res.Execution.Status != workflows.StatusSuccess {
				t.Errorf("status %s: %+v", res.Execution.Status, res.Errors)
			}
		})
	}
	t.Run("a file the run was not given", func(t *testing.T) {
		res := s.result(t, s.start(t, workflows.GoalInput{Goal: `upload "secrets.txt" into "Attachment"`, StartURL: url, Files: files}))
		if n := len(res.Errors); res.Execution.Status == workflows.StatusSuccess || n == 0 || !strings.Contains(res.Errors[n-1].Message, "which the run was not given") {
			t.Errorf("status %s, errors %+v", res.Execution.Status, res.Errors)
		}
	})
}

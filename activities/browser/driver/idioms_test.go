package driver_test

import (
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/activities/browser/driver"
	"github.com/webagent-dev/webagent/internal/lab"
	"github.com/webagent-dev/webagent/plan"
)

// TestIdiomsOfRealApps acts on the lab's chores list as a person would and reads the
// server's list after each step: the step must do what it says on the element it names.
func TestIdiomsOfRealApps(t *testing.T) {
	pool := newPool(t)
	for _, tt := range []struct {
		name  string
		steps []plan.Step
		want  string
	}{
		{"a row's box, styled away behind its label", []plan.Step{{Action: plan.Check, TargetDescription: `the checkbox in the row "Call Ann"`}}, "Buy milk, Water the plants, Call Ann (done)"},
		{"a label that stands for its hidden box", []plan.Step{{Action: plan.Check, TargetDescription: "Mark all as done"}}, "Buy milk (done), Water the plants (done), Call Ann (done)"},
		{"a delete button shown on hover", []plan.Step{{Action: plan.Click, TargetDescription: `the delete button in the row "Buy milk"`}}, "Water the plants, Call Ann"},
		{"renaming by double-click", []plan.Step{
			{Action: plan.DoubleClick, TargetDescription: "Water the plants"},
			{Action: plan.Clear, TargetDescription: "Edit chore"},
			{Action: plan.Type, TargetDescription: "Edit chore", Value: "Water the garden"},
			{Action: plan.Press, Key: "Enter"},
		}, "Buy milk, Water the garden, Call Ann"},
		{"a context menu", []plan.Step{{Action: plan.RightClick, TargetDescription: "Call Ann"}, {Action: plan.Click, TargetDescription: "Delete"}}, "Buy milk, Water the plants"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ctx := t.Context()
			s, app := openLab(t, pool, tt.name, "chores.html")
			for _, step := range plan.WithTargets(tt.steps) {
				out, err := s.Do(ctx, step, driver.DoOptions{WaitBudget: 2 * time.Second})
				if err != nil {
					t.Fatal(err)
				}
				if !out.OK {
					t.Fatalf("%s: %+v (actions %q)", step, out.Feedback, out.Actions)
				}
				t.Logf("%s: %q", step, out.Actions)
			}
			deadline := time.Now().Add(2 * time.Second)
			var got string
			for time.Now().Before(deadline) {
				list, _ := app.Chores()
				if got = lab.Line(list); got == tt.want {
					return
				}
				time.Sleep(50 * time.Millisecond)
			}
			t.Errorf("the server's list is %q, want %q", got, tt.want)
		})
	}
}

// TestDragAndSlide drags a card onto another column of the lab's board, and its volume
// slider to a value, and reads what the board saved on the server.
func TestDragAndSlide(t *testing.T) {
	pool := newPool(t)
	for _, tt := range []struct {
		name string
		step plan.Step
		want string
	}{
		{"a card onto a column", plan.Step{Action: plan.Drag, TargetDescription: "Write the report", To: "Done"}, `"Write the report":"Done"`},
		{"a slider to a value", plan.Step{Action: plan.Drag, TargetDescription: `"Volume" slider`, To: "40"}, `"volume":40`},
		{"a slider the page draws, by its keys", plan.Step{Action: plan.Drag, TargetDescription: `"Brightness" slider`, To: "7"}, `"brightness":7`},
		{"an item up its list", plan.Step{Action: plan.Drag, TargetDescription: "Laundry", Move: &plan.Move{Dir: "up", Places: 1}}, `"order":["Taxes","Laundry","Garden","Dentist"]`},
		{"an item to a place in its list", plan.Step{Action: plan.Drag, TargetDescription: "Taxes", Move: &plan.Move{To: 4}}, `"order":["Garden","Laundry","Dentist","Taxes"]`},
		{"an element in a direction", plan.Step{Action: plan.Drag, TargetDescription: "Sticker", Move: &plan.Move{Dir: "right"}}, `"sticker":130`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ctx := t.Context()
			s, app := openLab(t, pool, tt.name, "board.html")
			out, err := s.Do(ctx, tt.step.WithTarget(), driver.DoOptions{WaitBudget: 2 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			if !out.OK {
				t.Fatalf("%+v (actions %q)", out.Feedback, out.Actions)
			}
			t.Logf("%q", out.Actions)
			if got := labSaved(app, "board", holds(tt.want)); !strings.Contains(got, tt.want) {
				t.Errorf("the board saved %s; want %s in it", got, tt.want)
			}
		})
	}
}

// openLab opens a lab page of a fresh demo app in a session of pool named name, closed
// with the test; the app is the page's server, where the test reads what it saved.
func openLab(t *testing.T, pool *driver.Pool, name, page string) (*driver.Session, *lab.Server) {
	t.Helper()
	app := lab.New()
	srv := httptest.NewServer(app)
	t.Cleanup(srv.Close)
	s, _, err := pool.Open(t.Context(), name, driver.OpenOptions{URL: srv.URL + "/static/lab/" + page})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _, _ = pool.Close(name) })
	return s, app
}

// labSaved waits, up to 2 s, for what the lab page last saved under name to be done, and
// returns it: what it last was, when it never was.
func labSaved(app *lab.Server, name string, done func(string) bool) string {
	got := string(app.LabState(name))
	for deadline := time.Now().Add(2 * time.Second); !done(got) && time.Now().Before(deadline); got = string(app.LabState(name)) {
		time.Sleep(50 * time.Millisecond)
	}
	return got
}

// holds is labSaved's test for a saved value that holds want.
func holds(want string) func(string) bool {
	return func(got string) bool { return strings.Contains(got, want) }
}

// TestSelectText selects an element's whole text as a person highlights it: a paragraph by
// its place, a field by its label; the page's own selection is what the lab page saves.
func TestSelectText(t *testing.T) {
	pool := newPool(t)
	for _, tt := range []struct{ target, want string }{
		{"2nd paragraph", `"selected":"The second paragraph says a little more, over two lines of the page's source."`},
		{`"Notes"`, `"selected":"remember the milk"`},
	} {
		t.Run(tt.target, func(t *testing.T) {
			s, app := openLab(t, pool, tt.target, "select.html")
			out, err := s.Do(t.Context(), plan.Step{Action: plan.SelectText, TargetDescription: tt.target}.WithTarget(), driver.DoOptions{WaitBudget: 2 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			if !out.OK {
				t.Fatalf("%+v (actions %q)", out.Feedback, out.Actions)
			}
			if got := labSaved(app, "select", holds(tt.want)); !strings.Contains(got, tt.want) {
				t.Errorf("the page saved %s; want %s in it", got, tt.want)
			}
		})
	}
	t.Run("the paragraph, when there are two", func(t *testing.T) {
		s, _ := openLab(t, pool, "two", "select.html")
		out, err := s.Do(t.Context(), plan.Step{Action: plan.SelectText, TargetDescription: "paragraph"}.WithTarget(), driver.DoOptions{WaitBudget: time.Second})
		if err != nil || out.OK || out.Feedback == nil || !strings.Contains(out.Feedback.Details, "exactly one paragraph") {
			t.Errorf("want a refusal naming the count: %+v, %v", out, err)
		}
	})
}

// TestEveryNamedControl clicks every "Like" button of one author's posts, the count left
// to the page (two of four, one a scroll away), each once.
func TestEveryNamedControl(t *testing.T) {
	s, _ := openLab(t, newPool(t), "every", "panels.html")
	ctx := t.Context()
	out, err := s.Do(ctx, plan.Step{Action: plan.Click, TargetDescription: `every "Like" button for "@amy"`}.WithTarget(), driver.DoOptions{WaitBudget: 2 * time.Second})
	if err != nil || !out.OK {
		t.Fatalf("%v: %+v (actions %q)", err, out.Feedback, out.Actions)
	}
	check, err := s.Do(ctx, plan.Step{Action: plan.Assert, Value: "Liked: 1, 3"}, driver.DoOptions{WaitBudget: 2 * time.Second})
	if err != nil || !check.OK {
		t.Errorf("want posts 1 and 3 liked, once each: %+v (actions %q)", check.Feedback, out.Actions)
	}
}

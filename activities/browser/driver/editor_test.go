package driver_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/activities/browser/driver"
	"github.com/webagent-dev/webagent/internal/lab"
	"github.com/webagent-dev/webagent/plan"
)

// TestWordsAndSuggestions plans two goals as the offline planner reads them and does
// them on the lab's editor page: a word of a rich-text editor made bold with the
// toolbar's icon button, and a country chosen from the suggestions a field offers, by how
// it starts and ends. What the page saved is the judge; a word the text holds twice, or
// a suggestion the page does not offer, is refused with nothing styled or chosen.
func TestWordsAndSuggestions(t *testing.T) {
	pool := newPool(t)
	for _, tt := range []struct {
		name, goal string
		done       bool
		why        string
		html       string // what the editor holds at the end
		country    string
	}{
		{"a word made bold", "Using the text editor, give the text Wednesday the style bold.", true, "",
			"Buy milk on <b>Wednesday</b>, and more milk on Friday.", ""},
		{"everything made italic", "Using the text editor, give everything the style italics.", true, "",
			"<i>Buy milk on Wednesday, and more milk on Friday.</i>", ""},
		{"a word the text holds twice", "Using the text editor, give the text milk the style bold.", false, `holds "milk" 2 times`,
			"Buy milk on Wednesday, and more milk on Friday.", ""},
		{"a suggestion by its start and end", `Enter an item that starts with "Nor" and ends with "way" into the "Country" field.`, true, "",
			"", "Norway"},
		{"a suggestion the field does not offer", `Enter an item that starts with "Nor" and ends with "land" into the "Country" field.`, false, `ends with "land"`,
			"", "Nor"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			steps, err := plan.Parse(tt.goal)
			if err != nil {
				t.Fatal(err)
			}
			s, app := openLab(t, pool, tt.name, "editor.html")
			done, why := doAll(t, s, steps)
			if done != tt.done || !strings.Contains(why, tt.why) {
				t.Errorf("done %v (%s); want %v, %q", done, why, tt.done, tt.why)
			}
			waitSaved(t, app, tt.html, tt.country)
		})
	}
}

// doAll does the steps until one fails, and says whether all were done, or why not.
func doAll(t *testing.T, s *driver.Session, steps []plan.Step) (bool, string) {
	t.Helper()
	for _, step := range plan.WithTargets(steps) {
		out, err := s.Do(t.Context(), step, driver.DoOptions{WaitBudget: 2 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %q", step, out.Actions)
		if !out.OK {
			if out.Feedback == nil {
				return false, "failed with no feedback"
			}
			return false, out.Feedback.Details
		}
	}
	return true, ""
}

// waitSaved waits for the editor page to have saved what the test wants (an empty want
// is not looked at).
func waitSaved(t *testing.T, app *lab.Server, html, country string) {
	t.Helper()
	var got struct{ HTML, Country string }
	labSaved(app, "editor", func(saved string) bool {
		_ = json.Unmarshal([]byte(saved), &got)
		return (html == "" || got.HTML == html) && (country == "" || got.Country == country)
	})
	if (html != "" && got.HTML != html) || (country != "" && got.Country != country) {
		t.Errorf("the page saved %q and %q; want %q and %q", got.HTML, got.Country, html, country)
	}
}

// TestResizeByGrip makes a text area taller and narrower by its corner, as a person does,
// and is refused, with the sizes it saw, by one the page does not let be resized: a plain
// failure, which the size shows did nothing, not a step done without evidence.
func TestResizeByGrip(t *testing.T) {
	pool := newPool(t)
	s, _ := openLab(t, pool, "resize", "editor.html")
	for _, tt := range []struct {
		goal string
		done bool
		why  string
	}{
		{`make "Notes" taller`, true, "(taller)"},
		{`resize "Notes" so that the width is smaller than its initial size`, true, "(narrower)"},
		{`make "Log" wider`, false, "as it was"},
	} {
		steps, err := plan.Parse(tt.goal)
		if err != nil {
			t.Fatal(err)
		}
		out, err := s.Do(t.Context(), plan.WithTargets(steps)[0], driver.DoOptions{WaitBudget: time.Second})
		if err != nil {
			t.Fatal(err)
		}
		said := strings.Join(out.Actions, "; ")
		if out.Feedback != nil {
			said = out.Feedback.Details
		}
		if out.OK != tt.done || !strings.Contains(said, tt.why) {
			t.Errorf("%s: done %v (%s); want %v, %q", tt.goal, out.OK, said, tt.done, tt.why)
		}
		if !tt.done && (out.Unchanged || out.ActedInPart) {
			// The size says nothing was done: a failure, not "done, unverified".
			t.Errorf("%s: unchanged %v, acted in part %v; want a plain failure", tt.goal, out.Unchanged, out.ActedInPart)
		}
	}
}

// TestLabelDrawnOverItsItem double-clicks and right-clicks a node of a flow editor's
// canvas by its name, which the page draws over the node's shape and which takes no
// pointer events: the shape under the name, the node's own, takes them.
func TestLabelDrawnOverItsItem(t *testing.T) {
	pool := newPool(t)
	s, app := openLab(t, pool, "flow", "flow.html")
	for _, tt := range []struct {
		goal, want string
	}{
		{`double-click "Morning alarm"`, `{"opened":"Morning alarm"}`},
		{`right-click "Log"`, `{"menu":"Log"}`},
	} {
		steps, err := plan.Parse(tt.goal)
		if err != nil {
			t.Fatal(err)
		}
		if done, why := doAll(t, s, steps); !done {
			t.Fatalf("%s: %s", tt.goal, why)
		}
		if got := labSaved(app, "flow", func(got string) bool { return got == tt.want }); got != tt.want {
			t.Errorf("%s: the page saved %s, want %s", tt.goal, got, tt.want)
		}
	}
}

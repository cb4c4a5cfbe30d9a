package workflows

import (
	"reflect"
	"testing"

	"github.com/webagent-dev/webagent/activities"
	"github.com/webagent-dev/webagent/plan"
)

// TestLastClicks: the asks a plan's final clicks make of the page, with the names the
// goal went by; none for a sign-in's click, a click that changed nothing, or a plan that
// ends with a form still open.
func TestLastClicks(t *testing.T) {
	step := func(a plan.Action, desc, value string, before string) StepRecord {
		s := plan.Step{Action: a, TargetDescription: desc, Value: value}.WithTarget()
		rec := StepRecord{Step: s, Status: StepCompleted}
		rec.before.TextKey, rec.before.ElementsKey = before, before+".json"
		return rec
	}
	signIn := []StepRecord{
		step(plan.Type, `"Username"`, "admin", "k0"),
		step(plan.Type, `"Password"`, "{{secret:app_password}}", "k1"),
		step(plan.Click, `"Log In"`, "", "k2"),
	}
	stop := append(append([]StepRecord{}, signIn...), step(plan.Click, `"Stop" in the row "/inventory"`, "", "k3"))
	if got, want := lastClicks(stop, nil), []activities.DoneAsk{{Verb: "stop", Names: []string{"/inventory"}, Before: "k3", Item: "/inventory", Last: true,
		Clicked: "Stop", Controls: "k3.json", Row: "/inventory"}}; !reflect.DeepEqual(got, want) {
		t.Errorf("stop: %+v, want %+v", got, want)
	}
	del := append(append([]StepRecord{}, signIn...),
		step(plan.Click, `"Old Kiosks"`, "", "k3"), step(plan.Click, `"Delete Group"`, "", "k4"),
		step(plan.Check, `"Confirm"`, "", "k5"), step(plan.Click, `"OK"`, "", "k6"))
	got := lastClicks(del, nil)
	if len(got) != 3 || got[0].Verb != "ok" || got[1].Verb != "delete" || got[1].Before != "k4" || !reflect.DeepEqual(got[1].Names, []string{"Old Kiosks", "Group"}) {
		t.Errorf("delete: %+v", got)
	}
	if got[1].Item != "Old Kiosks" || got[0].Item != "" {
		t.Errorf("delete: the item a click before selected: %+v", got)
	}
	selected := append(append([]StepRecord{}, signIn...), step(plan.Click, `"family-recipes"`, "", "k3"), step(plan.Click, `"Stop Torrent"`, "", "k4"))
	if got := lastClicks(selected, nil); len(got) != 1 || got[0].Item != "family-recipes" {
		t.Errorf("selected, then stopped: %+v", got)
	}
	sentence := append(append([]StepRecord{}, signIn...), step(plan.Click, `"Show all of the programs in this group"`, "", "k3"), step(plan.Click, `"Stop"`, "", "k4"))
	if got := lastClicks(sentence, nil); len(got) == 0 || got[0].Item != "" {
		t.Errorf("a long name is no item: %+v", got)
	}
	if got := lastClicks(signIn, nil); got != nil {
		t.Errorf("a sign-in asks nothing: %+v", got)
	}
	missed := append([]StepRecord{}, stop...)
	missed[len(missed)-1].Unverified = true
	if got := lastClicks(missed, nil); got != nil {
		t.Errorf("a click that changed nothing asks nothing: %+v", got)
	}
	typed := append(append([]StepRecord{}, signIn...), step(plan.Type, `"Name"`, "Lyon", "k3"))
	if got := lastClicks(typed, nil); got != nil {
		t.Errorf("a plan ending with a form asks nothing: %+v", got)
	}
}

// TestGoneItems: the lists a plan that ends by removing an item asks to see again
// without it: the item opened before the removal, or the row the removal was aimed at.
func TestGoneItems(t *testing.T) {
	step := func(a plan.Action, desc, url, before string) StepRecord {
		rec := StepRecord{Step: plan.Step{Action: a, TargetDescription: desc}.WithTarget(), Status: StepCompleted}
		rec.before.TextKey, rec.before.URL = before, url
		return rec
	}
	opened := []StepRecord{step(plan.Click, `"Books"`, "u0", ""), step(plan.Click, `"Winter Crossing"`, "list", "k1"),
		step(plan.Click, `"Delete this book"`, "book", "k2"), step(plan.Click, `"OK"`, "book", "k3")}
	if got, want := goneItems(opened, nil), []activities.GoneAsk{{Name: "Winter Crossing", URL: "list", Before: "k1"}}; !reflect.DeepEqual(got, want) {
		t.Errorf("opened: %+v, want %+v", got, want)
	}
	row := []StepRecord{step(plan.Click, `"Users"`, "u0", ""), step(plan.Click, `"Remove User" in the row "omar"`, "users", "k1")}
	if got, want := goneItems(row, nil), []activities.GoneAsk{{Name: "omar", URL: "users", Before: "k1"}}; !reflect.DeepEqual(got, want) {
		t.Errorf("row: %+v, want %+v", got, want)
	}
	renamed := []StepRecord{step(plan.Click, `"Books"`, "u0", ""), step(plan.Click, `"Winter Crossing"`, "list", "k1"), step(plan.Click, `"Rename"`, "book", "k2")}
	if got := goneItems(renamed, nil); got != nil {
		t.Errorf("a rename asks nothing: %+v", got)
	}
	// An item opened in place, emptied, and left: a page that removes an emptied item
	// shows it no more. Emptied and then typed into, it is changed, not gone.
	emptied := []StepRecord{step(plan.DoubleClick, `"Bean salad with lemon."`, "recipes", "k1"), step(plan.Clear, "its text", "recipes", "k2"),
		step(plan.Click, "outside it", "recipes", "k3")}
	if got, want := goneItems(emptied, nil), []activities.GoneAsk{{Name: "Bean salad with lemon.", URL: "recipes", Before: "k1"}}; !reflect.DeepEqual(got, want) {
		t.Errorf("emptied: %+v, want %+v", got, want)
	}
	retyped := []StepRecord{emptied[0], emptied[1], step(plan.Type, `"the focused field"`, "recipes", "k3"), emptied[2]}
	if got := goneItems(retyped, nil); got != nil {
		t.Errorf("an item emptied and typed into asks nothing: %+v", got)
	}
}

// TestLastFormStays: a form, one click (an editor's Publish), and a last click that stays
// on the form's page (Publish now) gives its values for a form kept and stored only; the
// same last click leading to another address gives them as a form taken.
func TestLastFormStays(t *testing.T) {
	step := func(a plan.Action, desc, value, url string) StepRecord {
		rec := StepRecord{Step: plan.Step{Action: a, TargetDescription: desc, Value: value}.WithTarget(), Status: StepCompleted, URL: url}
		rec.before.TextKey, rec.before.URL, rec.before.ElementsKey = "t-"+desc, "editor", "e-"+desc
		return rec
	}
	steps := []StepRecord{step(plan.Type, `"Title"`, "Spring Garden Open Day", "editor"), step(plan.Click, `"Publish"`, "", "editor"), step(plan.Click, `"Publish now"`, "", "editor")}
	typed, before, closed, stays := lastForm(steps, nil)
	if !stays || closed != "" || before.TextKey != `t-"Title"` || len(typed) != 1 || typed[0] != "Spring Garden Open Day" {
		t.Errorf("stayed: %q %q %q %v", typed, before.TextKey, closed, stays)
	}
	steps[2].URL = "entries/spring-garden-open-day"
	if _, _, closed, stays := lastForm(steps, nil); stays || closed == "" {
		t.Errorf("led elsewhere: %q %v", closed, stays)
	}
}

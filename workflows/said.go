package workflows

import (
	"strings"
	"unicode"

	"github.com/webagent-dev/webagent/activities"
	"github.com/webagent-dev/webagent/plan"
)

// lastClicks asks, for a plan that states no check and ends with clicks, whether the page
// says in its own words that one of them did what it is for (activities.DoneAsk): "OK -
// Stopped application at context path [/inventory]" after `click "Stop" in the row
// "/inventory"`. The plan's final run of clicks, key presses, hovers and ticks must each
// have completed with evidence (it changed the page). Each of the run's last three clicks
// after the sign-in asks, with its first word as the verb, the page before it, and the
// names the goal's steps went by (rows, items clicked, values typed; never a sign-in's),
// its own name aside. None when the run is empty.
func lastClicks(steps []StepRecord, params map[string]string) []activities.DoneAsk {
	start, ok := finalRun(steps)
	if !ok {
		return nil
	}
	signIn := signInSteps(steps)
	var asks []activities.DoneAsk
	for k := len(steps) - 1; k >= start && len(asks) < 3; k-- {
		s := steps[k].Step.Bind(params)
		if s.Action != plan.Click || s.Target == nil || signIn[k] || steps[k].before.TextKey == "" {
			continue
		}
		verb := firstWord(s.Target.Name)
		if verb == "" {
			continue
		}
		if names := goalNames(steps, params, signIn, k); len(names) > 0 {
			asks = append(asks, activities.DoneAsk{Verb: verb, Names: names, Before: steps[k].before.TextKey, Item: actedOn(steps, params, signIn, k), Last: k == len(steps)-1,
				Clicked: s.Target.Name, Controls: steps[k].before.ElementsKey, Row: s.Target.Row})
		}
	}
	return asks
}

// actedOn is the item the click of step k acted on, when the goal named it: the row it
// was aimed at, or else the item the step just before clicked (or ticked in its row) to select it
// ("click family-recipes, click Stop Torrent"), when that step completed with evidence
// and its name is short (an item's, not a sentence). The page must show the item on one
// line alone, before and after, for its state to count (activities.DoneAsk). "" otherwise.
func actedOn(steps []StepRecord, params map[string]string, signIn map[int]bool, k int) string {
	if t := steps[k].Step.Bind(params).Target; t != nil && t.Row != "" {
		return t.Row
	}
	if k == 0 || signIn[k-1] {
		return ""
	}
	prev := steps[k-1]
	s := prev.Step.Bind(params)
	if s.Target == nil || prev.Status != StepCompleted || prev.Unverified {
		return ""
	}
	if s.Target.Row != "" && (s.Action == plan.Click || s.Action == plan.RightClick || s.Action == plan.Check) {
		return s.Target.Row
	}
	if s.Action != plan.Click && s.Action != plan.RightClick {
		return ""
	}
	if len(strings.Fields(s.Target.Name)) > 4 {
		return ""
	}
	return s.Target.Name
}

// finalRun is where the plan's final run of clicks, keys, hovers and ticks starts, and
// whether there is one whose every step completed with evidence (it changed the page).
func finalRun(steps []StepRecord) (int, bool) {
	start := len(steps)
	for start > 0 && closing(steps[start-1].Step.Action) {
		start--
	}
	for _, s := range steps[start:] {
		if s.Status != StepCompleted || s.Unverified {
			return start, false
		}
	}
	return start, start < len(steps)
}

// closing reports the actions a plan may end with after its last form: clicks, keys,
// hovers on the way and boxes ticked in a confirmation.
func closing(a plan.Action) bool {
	return a == plan.Click || a == plan.Press || a == plan.Hover || a == plan.Check
}

// signInSteps marks the steps of the goal's sign-ins: each run of form steps that types a
// secret, with the click or key that sends it, and any step aimed at a part of a sign-in
// form.
func signInSteps(steps []StepRecord) map[int]bool {
	in := map[int]bool{}
	for j := 0; j < len(steps); {
		end := j
		for end < len(steps) && steps[end].Step.Action.FillsForm() {
			end++
		}
		secret := false
		for _, s := range steps[j:end] {
			secret = secret || plan.HasSecret(s.Step.Value)
		}
		if secret {
			if end < len(steps) && taking(steps[end].Step.Action) {
				end++
			}
			for i := j; i < end; i++ {
				in[i] = true
			}
		}
		if end == j {
			end++
		}
		j = end
	}
	for j, s := range steps {
		if s.Step.Target != nil && s.Step.Target.SignIn != "" {
			in[j] = true
		}
	}
	return in
}

// goalNames are the names the goal's steps went by: the rows and items its steps were
// aimed at and the values it typed (not where the page hides them), each of three letters
// or more, once. Never the sign-in's, nor step skip's own name, though what that step's
// command names after its verb counts ("Delete events-2024@…").
func goalNames(steps []StepRecord, params map[string]string, signIn map[int]bool, skip int) []string {
	own := ""
	if t := steps[skip].Step.Bind(params).Target; t != nil {
		own = strings.ToLower(t.Name)
	}
	seen := map[string]bool{}
	var names []string
	add := func(n string) {
		n = strings.TrimSpace(n)
		key := strings.ToLower(n)
		if len([]rune(n)) < 3 || seen[key] || key == own || plan.HasSecret(n) {
			return
		}
		seen[key] = true
		names = append(names, n)
	}
	for j, rec := range steps {
		if signIn[j] {
			continue
		}
		s := rec.Step.Bind(params)
		if s.Target != nil {
			add(s.Target.Row)
			if s.Action == plan.Click || s.Action == plan.Hover {
				if j != skip {
					add(s.Target.Name)
				} else if f := strings.Fields(s.Target.Name); len(f) > 1 {
					// What the command names after its verb is what it acts on
					// ("Delete events-2024@lists.example.org").
					add(strings.Join(f[1:], " "))
				}
			}
		}
		if (s.Action == plan.Type || s.Action == plan.Append) && !rec.hidden {
			add(s.Value)
		}
	}
	return names
}

// firstWord is the first word of a control's name, in lower case, when it is all letters
// ("Stop" of "Stop", "remove" of "Remove Selected"); "" otherwise.
func firstWord(name string) string {
	f := strings.Fields(name)
	if len(f) == 0 {
		return ""
	}
	w := strings.ToLower(strings.Trim(f[0], ".,:;!…"))
	for _, r := range w {
		if !unicode.IsLetter(r) {
			return ""
		}
	}
	return w
}

// removing are the first words of the commands that take an item out of the list it is
// in: what the list shows again without it is the evidence they did.
var removing = map[string]bool{
	"delete": true, "remove": true, "undeploy": true, "uninstall": true, "unsubscribe": true, "archive": true,
	"trash": true, "drop": true, "destroy": true, "discard": true, "revoke": true, "purge": true, "erase": true,
	"unregister": true, "deregister": true,
}

// goneItems asks, for a plan that ends by removing an item (its final run's last click
// whose first word removes: "Delete this book", "Remove User"), whether the final page is
// the list the item was found in again, without it (activities.GoneAsk). The items are
// what the plan went by before that click or with it: a row a click was aimed at, or the
// item clicked open, each with the page it was found on. As lastClicks, every step of
// the final run must have completed with evidence. None otherwise.
func goneItems(steps []StepRecord, params map[string]string) []activities.GoneAsk {
	start, ok := finalRun(steps)
	if !ok {
		return nil
	}
	removal := -1
	for k := len(steps) - 1; k >= start; k-- {
		if s := steps[k].Step.Bind(params); s.Action == plan.Click && s.Target != nil && removing[firstWord(s.Target.Name)] {
			removal = k
			break
		}
	}
	if removal < 0 {
		removal = clearedItem(steps, start)
	}
	if removal < 0 {
		return nil
	}
	signIn := signInSteps(steps)
	var asks []activities.GoneAsk
	for k := removal; k >= 0 && len(asks) < 3; k-- {
		s, before := steps[k].Step.Bind(params), steps[k].before
		if signIn[k] || s.Target == nil || before.TextKey == "" || before.URL == "" {
			continue
		}
		if s.Target.Row != "" {
			asks = append(asks, activities.GoneAsk{Name: s.Target.Row, URL: before.URL, Before: before.TextKey, Elements: before.ElementsKey})
		} else if k < removal && (s.Action == plan.Click || s.Action == plan.DoubleClick) && len([]rune(s.Target.Name)) >= 3 {
			asks = append(asks, activities.GoneAsk{Name: s.Target.Name, URL: before.URL, Before: before.TextKey, Elements: before.ElementsKey})
		}
	}
	return asks
}

// clearedItem is the index of a plan's last step when it empties an item opened in place
// and then only takes the focus away ("double-click "Bean salad", clear its text, click
// outside it"): a page that removes an emptied item (a wiki's paragraph) shows it no
// more, the evidence goneItems asks for. -1 otherwise; start is the final run's first
// closing step (finalRun), every step from there completed.
func clearedItem(steps []StepRecord, start int) int {
	k := start - 1
	if k < 0 || steps[k].Step.Action != plan.Clear || steps[k].Status != StepCompleted || steps[k].Unverified {
		return -1
	}
	for _, s := range steps[start:] {
		if t := s.Step.Parts(); s.Step.Action != plan.Press && !(s.Step.Action == plan.Click && t.Outside) {
			return -1
		}
	}
	return k
}

package activities

import "github.com/webagent-dev/webagent/plan"

// ValidateGoalInput asks whether the goal was reached, on the final page: the plan's
// closing checks must still hold there.
type ValidateGoalInput struct {
	SessionID string `json:"sessionId"`
	KeyPrefix string `json:"keyPrefix"`
	Goal      string `json:"goal"`
	// Checks are the plan's closing ASSERT steps, looked at again on the final page.
	Checks []plan.Step       `json:"checks,omitempty"`
	Params map[string]string `json:"params,omitempty"`
	// StepsCompleted and StepsPlanned say how far the run got.
	StepsCompleted int `json:"stepsCompleted"`
	StepsPlanned   int `json:"stepsPlanned"`
	// Baseline, when set, names the text of the page before a step whose effect the
	// checks look for: a check that held there as well is no evidence of the step.
	Baseline string `json:"baseline,omitempty"`
	// Typed are the values the goal's last form was given (its run of TYPE steps before
	// the clicks that end the plan; never a sign-in's), when the plan states no closing
	// check: each shown on the final page as text, outside every field, and not shown
	// before they were typed (TypedBefore names that page's text), is evidence that the
	// form was taken (Shown).
	Typed       []string `json:"typed,omitempty"`
	TypedBefore string   `json:"typedBefore,omitempty"`
	// TypedClosed names the controls of the page after the one click that came between
	// the form and the last (a dialog's OK): none of Typed may be in a field there, or the
	// form was not closed by it and nothing it shows at the end is evidence.
	TypedClosed string `json:"typedClosed,omitempty"`
	// TypedAt is the address of the page before the form: a value that page showed is
	// shown anew when the final page, at that address, shows it more often than it did
	// (a journal listing every account: one more transaction on it names them once more).
	TypedAt string `json:"typedAt,omitempty"`
	// KeptTyped are the values of a last form followed by one click and a last click that
	// stayed on its page (an editor's "Publish", then "Publish now"): evidence only of a
	// form kept on the page and stored (Kept), never as shown. TypedBefore names the page
	// before them too. (A field of its own: a worker of the version before ignores it, and
	// takes no evidence where it took none.)
	KeptTyped []string `json:"keptTyped,omitempty"`
	// Done asks, for a plan that states no check and ends with clicks that each changed the
	// page, whether the page says in words of its own that one of them did what it is for
	// (Said).
	Done []DoneAsk `json:"done,omitempty"`
	// Gone asks, for a plan that ends by removing what it found in a list, whether the
	// final page is that list again without it (Removed).
	Gone []GoneAsk `json:"gone,omitempty"`
}

// GoneAsk is a list a goal found an item in (the page at URL, whose text Before names,
// showed Name) before a later click removed it ("Delete", "Remove User"): the evidence is
// the final page being that list again (the same address, and most of the other lines it
// showed) without Name.
type GoneAsk struct {
	Name   string `json:"name"`
	URL    string `json:"url"`
	Before string `json:"before"`
	// Elements names the list's controls then: an item a page names only on its control
	// (a cover's link, named by its title) is found there.
	Elements string `json:"elements,omitempty"`
}

// DoneAsk is what the page's own word that a click did what it is for must hold: a line
// the final page shows, outside every field, that the page before the click (Before
// names its text) did not; holding a past form of Verb (the click's first word: "Stop" →
// "stopped") and one of Names (the rows, items and values the goal's steps named, the
// click's own name aside) as words of their own; with no word of failure and no question.
type DoneAsk struct {
	Verb   string   `json:"verb"`
	Names  []string `json:"names"`
	Before string   `json:"before"`
	// Item is what the click acted on, when the goal named it: the row the click was
	// aimed at, or the item a click just before it selected ("family-recipes", then
	// "Stop Torrent"). Its own line on the final page saying the state the click is
	// for ("stopped", "running" after Start), where its line before did not, is
	// evidence too (State).
	Item string `json:"item,omitempty"`
	// Last says the click is the plan's last step.
	Last bool `json:"last,omitempty"`
	// Clicked is the name of the control clicked, Controls the page's controls before
	// the click (Snapshot.ElementsKey) and Row the row the click was aimed at, if any:
	// the control gone from the page (or the row) and its opposite standing in its place
	// ("Enable monitoring" where "Disable monitoring" stood) is evidence too (Flipped).
	Clicked  string `json:"clicked,omitempty"`
	Controls string `json:"controls,omitempty"`
	Row      string `json:"row,omitempty"`
}

// ValidateGoalResult is the verdict of the page's own checks.
type ValidateGoalResult struct {
	Success    bool     `json:"success"`
	Confidence float64  `json:"confidence"`
	Reason     string   `json:"reason"`
	Final      Snapshot `json:"final"`
	// Inconclusive says the checks hold now but held before the step too (Baseline).
	Inconclusive bool `json:"inconclusive,omitempty"`
	// Shown says which of the values typed (Typed) the final page shows as text, outside
	// every field: the evidence for a goal that states no check. Empty when they are not
	// all shown so.
	Shown string `json:"shown,omitempty"`
	// NotShown says, when Shown is empty, which value was not shown so, and why.
	NotShown string `json:"notShown,omitempty"`
	// Said is the line of the final page that says a click did what it was for (Done):
	// the evidence for a goal that states no check and whose last form, if any, the page
	// does not show.
	Said string `json:"said,omitempty"`
	// State is the line of the final page that shows the item a last click acted on
	// (DoneAsk.Item) in the state that click is for, where its line before the click
	// did not: "report-weekly  running  pid 4121" after Start in its row.
	State string `json:"state,omitempty"`
	// Flipped says which control of the final page stands where a last click's control
	// stood before it, its opposite ("Enable monitoring" for "Disable monitoring"): the
	// page now offers to undo what the click did, so the click did it.
	Flipped string `json:"flipped,omitempty"`
	// Kept says, for a form that stays on the page once stored (an editor, a settings
	// page), that its fields hold the values the goal gave it and the line in which the
	// page says, after the goal's last click, which stores ("Save", "Publish now"), that
	// it was stored: "Entry saved".
	Kept string `json:"kept,omitempty"`
	// Removed says which item the final page, the list it was found in (Gone), no
	// longer shows.
	Removed string `json:"removed,omitempty"`
}

package browser

import (
	"fmt"
	"strings"

	"github.com/webagent-dev/webagent/activities"
	"github.com/webagent-dev/webagent/activities/page"
)

// opposites are the words of a control's name whose opposite is another word, each way:
// a control named with one ("Disable monitoring") is undone by the control named with the
// other ("Enable monitoring"). A word and the same word with "un" before it ("Publish",
// "Unpublish"; "Mark as read", "Mark as unread") are opposites too (unWord); "Add to X"
// and "Remove from X" are (oppositeNames). Verbs that only look or show ("Show", "Expand",
// "Open") are none: what they flip is the view, not what the goal is for.
var opposites = func() map[string]string {
	m := map[string]string{}
	for _, p := range [][2]string{
		{"enable", "disable"}, {"activate", "deactivate"}, {"start", "stop"}, {"pause", "resume"},
		{"close", "reopen"}, {"connect", "disconnect"}, {"join", "leave"}, {"on", "off"},
		{"approve", "revoke"}, {"allow", "deny"}, {"enabled", "disabled"},
	} {
		m[p[0]], m[p[1]] = p[1], p[0]
	}
	return m
}()

// flipped says which control of the final page stands where ask's clicked control stood
// on the page before the click, named as its opposite (oppositeNames): the page now offers
// to undo what the click did. It holds only when the click's control is gone and its
// opposite came: before, the page (or the click's row) had the control and no opposite;
// after, at the same address, it has an opposite and not the control. A page that shows
// both ("Start" and "Stop" on every process) or that still shows the control (one of
// several rows, the click aimed at none) tells nothing. When the goal named the item the
// click acted on, the final page must still show it (seen: its text outside its fields).
// "" when there is no such evidence.
func flipped(before, final page.Observation, seen string, ask activities.DoneAsk) string {
	names := oppositeNames(ask.Clicked)
	if len(names) == 0 || !sameAddress(before.URL, final.URL) {
		return ""
	}
	if ask.Row == "" && ask.Item != "" && !hasName(page.NormalizeText(seen), page.Norm(ask.Item)) {
		return ""
	}
	clicked := []string{page.Norm(ask.Clicked)}
	if controlsNamed(before, ask.Row, clicked) == "" || controlsNamed(before, ask.Row, names) != "" ||
		controlsNamed(final, ask.Row, clicked) != "" {
		return ""
	}
	if got := controlsNamed(final, ask.Row, names); got != "" {
		return fmt.Sprintf("%q stands where %q stood", got, ask.Clicked)
	}
	return ""
}

// controlsNamed is the name of the first control of o named one of names (normalized), or
// "": when row is set, of a control whose row holds it as a name of its own (hasName).
func controlsNamed(o page.Observation, row string, names []string) string {
	r := page.Norm(row)
	for _, e := range o.Elements {
		if e.Disabled || e.Editable() || (r != "" && !hasName(page.NormalizeText(e.Row), r)) {
			continue
		}
		n := page.Norm(e.Name)
		for _, want := range names {
			if n == want {
				return strings.TrimSpace(e.Name)
			}
		}
	}
	return ""
}

// oppositeNames are the names (normalized) that undo a control named name: one word of it
// changed for its opposite (opposites, unWord), or "add to" and "remove from" swapped.
// None for a name that starts with a verb that only looks (quietVerbs).
func oppositeNames(name string) []string {
	words := strings.Fields(page.Norm(name))
	if len(words) == 0 || len(words) > 6 || quietVerbs[words[0]] {
		return nil
	}
	var out []string
	for i, w := range words {
		for _, o := range []string{opposites[w], unWord(w)} {
			if o != "" {
				swapped := append(append(append([]string{}, words[:i]...), o), words[i+1:]...)
				out = append(out, strings.Join(swapped, " "))
			}
		}
	}
	if len(words) > 2 {
		switch words[0] + " " + words[1] {
		case "add to":
			out = append(out, "remove from "+strings.Join(words[2:], " "))
		case "remove from":
			out = append(out, "add to "+strings.Join(words[2:], " "))
		}
	}
	return out
}

// unWord is a word's opposite made with "un": the word without it ("unlock" → "lock"), or
// with it ("publish" → "unpublish"); none for a word too short to be a verb or a state.
func unWord(w string) string {
	if strings.IndexFunc(w, func(r rune) bool { return r < 'a' || r > 'z' }) >= 0 {
		return ""
	}
	if strings.HasPrefix(w, "un") && len(w) >= 5 {
		return w[2:]
	}
	if len(w) >= 3 {
		return "un" + w
	}
	return ""
}

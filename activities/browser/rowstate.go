package browser

import (
	"regexp"
	"slices"
	"strings"

	"github.com/webagent-dev/webagent/activities"
	"github.com/webagent-dev/webagent/activities/page"
)

// resulting are the states a click leaves its item in, besides the verb's past form,
// where English names the state by another word: a program started is "running", a
// user disabled "inactive". Only words that say the state itself; "not running" is a
// failure's line and never counts.
var resulting = map[string][]string{
	"start": {"running", "active", "online"}, "resume": {"running", "active"}, "unpause": {"running", "active"},
	"restart": {"running"}, "enable": {"active"}, "activate": {"active"}, "disable": {"inactive"},
	"deactivate": {"inactive"}, "stop": {"inactive"}, "publish": {"live"}, "unpublish": {"draft"},
	"reopen": {"open"},
}

// stateWords are the words that say ask's click left its item in the state it is for:
// the verb's past forms and the states of resulting.
func stateWords(verb string) []string {
	v := strings.ToLower(verb)
	return append(pastForms(v), resulting[v]...)
}

// rowState is the line of final (the page's text outside its fields, after the click)
// that shows ask's item in the state the click is for, where its line before did not:
// the item's own row changed to say so. The item must be on one line alone of each page
// (an item's row, not a name every row repeats, as "Edit"), as a word of its own
// ("family-recipes" is not in "family-recipes-2022"), and so must the state word; a
// line of failure or a question is no evidence. "" when there is none.
func rowState(final, before string, ask activities.DoneAsk) string {
	words := stateWords(ask.Verb)
	item := page.Norm(ask.Item)
	if len(words) == 0 || len([]rune(item)) < 3 {
		return ""
	}
	if _, ok := onlyLine(before, item); !ok || saidBefore(before, item, words) {
		return ""
	}
	line, ok := onlyLine(final, item)
	l := page.NormalizeText(line)
	if !ok || len(l) > 300 || strings.HasSuffix(strings.TrimSpace(line), "?") || failure.MatchString(l) || !hasAnyName(l, words) {
		return ""
	}
	return page.OneLine(strings.TrimSpace(line))
}

// negated finds a state said not to hold ("not started", "never run"): a line before the
// click that says so does not show the state.
var negated = regexp.MustCompile(`\b(not|never)\s+\S+`)

// onlyLine is the one line of text that holds the name n (normalized) as a whole, and
// whether there is exactly one.
func onlyLine(text, n string) (string, bool) {
	found, count := "", 0
	for _, line := range strings.Split(text, "\n") {
		if hasName(page.NormalizeText(line), n) {
			found, count = line, count+1
		}
	}
	return found, count == 1
}

// hasAnyName reports whether l holds one of words as a name of its own (hasName).
func hasAnyName(l string, words []string) bool {
	return slices.ContainsFunc(words, func(w string) bool { return hasName(l, w) })
}

// hasName reports whether l (normalized) holds the name n as a whole: no letter or
// digit next to it, nor a joining mark that goes on into one ("report-weekly" is not
// in "report-weekly-2", nor "running" in "running.log"); a full stop or a colon that
// ends a sentence or a label is no join.
func hasName(l, n string) bool { return holdsWhole(l, n, joinedBefore, joinedAfter) }

// joiners join two words into one name: "family-recipes-2022", "api_gateway",
// "billing:invoice-sync", "notes.txt", "lists@example.org", "/inventory/old".
const joiners = "-_:.@/"

// joinedBefore reports whether the text before a name ends in a word it is part of.
func joinedBefore(s string) bool {
	r := lastRune(s)
	if wordRune(r) {
		return true
	}
	return strings.ContainsRune(joiners, r) && wordRune(lastRune(strings.TrimSuffix(s, string(r))))
}

// joinedAfter reports whether the text after a name goes on with a word it is part of.
func joinedAfter(s string) bool {
	r := firstRune(s)
	if wordRune(r) {
		return true
	}
	return strings.ContainsRune(joiners, r) && wordRune(firstRune(strings.TrimPrefix(s, string(r))))
}

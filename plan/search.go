package plan

import (
	"fmt"
	"strings"
)

// searchWords is how many words, unquoted, a search may be for.
const searchWords = 4

// searchFor is "search for "Corner"", "search the wiki for badge reader", "search for
// Backup in the search box above the list": the words typed into the page's search box (or
// the field named after "in"), then Enter pressed there. The words after "search the" say
// where the search looks (the wiki, the workflows): the page's one search box is where it
// looks; a page with none, or with two, is refused by the resolver, never guessed.
var searchFor = seq(word("search"), opt(opt(word("the")), grab("scope", seq(asciiWord, optLazy(asciiWord)))), word("for"), grab("v", some),
	opt(word("in", "into"), the, grab("t", some)), end)

// useToSearch is "use the Search box in the menu on the left to look for "badge reader"":
// the same search, in the field named before "to".
var useToSearch = seq(word("use"), the, grab("t", some), word("to"), word("search for", "look for", "look up", "search"), grab("v", some), end)

// readSearch reads a search as its two steps.
func readSearch(c string, quotes []string) ([]Step, string, bool) {
	c = stripFillers(c)
	if u := read(useToSearch, c); u != nil {
		c = "search for " + u.get("v") + " in the " + u.get("t")
	}
	m := read(searchFor, c)
	if m == nil {
		return nil, "", false
	}
	v, unclear := exactValue(m.get("v"), quotes)
	if unclear != "" {
		return nil, unclear, true
	}
	if len(quotesIn(m.get("v"))) == 0 && len(strings.Fields(v)) > searchWords {
		// "Search for thriller movies directed by Slater from year 1993" says what is
		// sought, which a form of several fields may be for: not the words to type.
		return nil, fmt.Sprintf("%q says what to look for rather than the words to search for: quote them, as in search for \"badge reader\"", v), true
	}
	typed := Step{Action: Type, Value: v, TargetDescription: "the search box"}
	if d := m.get("t"); d != "" {
		// The field named, held exactly as any step's target is (exact reads it masked).
		var reason string
		if typed, reason = exact(Step{Action: Type, Value: v, TargetDescription: cleanOperand(d, quotes)}, d, quotes, ""); reason != "" {
			return nil, reason, true
		}
	}
	return []Step{typed, {Action: Press, Value: "Enter"}}, "", true
}

package plan

// Paths through a menu: "select File > Save as", and a path written alone as a step.

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

var (
	// menuPath is "Select File > Save as": a path through a menu, one click per item.
	menuPath = seq(verbsFor(sMenuPath), the, opt(word("menu"), opt(word("item", "path"))), grab("t", some), opt(word("from", "in"), word("the menu")), end)
)

// parseMenuPath reads a path through a menu ("Select Jinny>Lynett", 'open "File" > "Save
// as"') as a person takes it: the pointer over each item that opens the next, then a click
// on the last. (A click on a parent item chooses it on many menus.) ok is false when the
// sentence is not of that shape; reason says why a path cannot be read exactly.
func parseMenuPath(c string, quotes []string) (steps []Step, reason string, ok bool) {
	var path string
	if mp := read(menuPath, c); mp != nil {
		path = mp.get("t")
	} else if path, ok = barePath(c, quotes); !ok {
		if path, ok = listPath(c, quotes); !ok {
			return nil, "", false
		}
	}
	var place string
	path, place = cutMenuPlace(path)
	parts := splitMenuPath(path)
	if len(parts) < 2 {
		if path, ok = listPath(c, quotes); !ok {
			return nil, "", false
		}
		parts = splitMenuPath(path)
	}
	for _, p := range parts {
		p = strings.TrimSpace(p)
		name := unmask(p, quotes, false)
		if name == "" {
			return nil, fmt.Sprintf("the menu path %q has an empty item", unmask(path, quotes, true)), true
		}
		if len(quotesIn(p)) > 0 && strings.TrimSpace(replaceQuotes(p, "")) != "" {
			return nil, fmt.Sprintf("in the menu path %q the item %q is not one name: quote each item alone", unmask(path, quotes, true), unmask(p, quotes, true)), true
		}
		// An item of a path is named by its words whatever they are: "Options" is one
		// item, not several.
		if len(quotesIn(p)) == 0 && strings.ContainsAny(p, ",;") {
			// "Party > Parties, search for Cartwright": the last item ends at the comma, and
			// what follows is no part of its name.
			return nil, fmt.Sprintf("in the menu path %q the item %q is not one name: quote each item alone, and write the step after it as a step", unmask(path, quotes, true), unmask(p, quotes, true)), true
		}
		if bare := len(quotesIn(p)) == 0 && len(strings.Fields(p)) <= 4 && !startsSpaced(articleStart, strings.TrimSpace(p)); !bare {
			if r := exactTarget(p, quotes); r != "" {
				return nil, r, true
			}
		}
		if n := len(steps); n > 0 {
			steps[n-1].Opens = name
		}
		steps = append(steps, Step{Action: Hover, TargetDescription: strings.TrimSpace(strconv.Quote(name) + " " + place)})
	}
	steps[len(steps)-1].Action = Click
	return steps, "", true
}

// menuPlace is where a path's items are, written after its last one: "in the left menu",
// "in the menu on the left", "from the sidebar".
var menuPlace = seq(word("in", "on", "from"), the, opt(word("left", "right", "side", "main", "top", "navigation")),
	word("menu", "sidebar", "navigation", "nav", "menu bar"), opt(positionWords), end)

// cutMenuPlace parts a path from the place written after it ("Security > Settings in the
// left menu"), which holds for each of its items.
func cutMenuPlace(path string) (string, string) {
	ts := tokenize(path)
	for k := len(ts) - 1; k > 0; k-- {
		if ts[k].kind == tWord && (ts[k].low == "in" || ts[k].low == "on" || ts[k].low == "from") && read(menuPlace, path[ts[k].start:]) != nil {
			return strings.TrimSpace(path[:ts[k].start]), path[ts[k].start:]
		}
	}
	return path, ""
}

// barePath is a path through a menu written alone as a step, with no verb ("New >
// Folder", "Configuration → Access Control"): each item a name of at most four words that
// starts with a capital, or a quoted name, as a menu writes it.
func barePath(c string, quotes []string) (string, bool) {
	whole := strings.TrimRight(strings.TrimSpace(c), ".!")
	path, _ := cutMenuPlace(whole)
	parts := splitMenuPath(path)
	if len(parts) < 2 {
		return "", false
	}
	strong, weak := 0, 0
	for _, p := range parts {
		p = strings.TrimSpace(p)
		switch {
		case len(strings.Fields(p)) == 0 || len(strings.Fields(p)) > 4:
			return "", false
		case len(quotesIn(p)) > 0 || capitalised(p) || addressLike(p):
			strong++
		case lowerName.MatchString(p):
			weak++
		default:
			return "", false
		}
	}
	// An item in lower case, one word, is a name between names ("My lists, choir, Admin,
	// Subscribers": a mailing list's), not prose, when two names or more are around it.
	return whole, weak == 0 || (strong >= 2 && weak <= strong)
}

// lowerName is one word in lower case as a page writes an item's name: "choir",
// "choir-news", "web_02".
var lowerName = regexp.MustCompile(`^[\p{Ll}\d][\p{Ll}\d._-]*$`)

// goThrough is "go to Virtual Hosts, example.org, Users": a way through pages or menus
// written as a list after one verb of going.
var goThrough = seq(word("go to", "open", "navigate to", "head to", "go into"), grab("t", some), end)

// listPath reads such a list as the path it is ("Virtual Hosts > example.org > Users"),
// when every item is a name as a page writes it (see barePath): two or more, joined by
// commas, ", then" or ", and then".
func listPath(c string, quotes []string) (string, bool) {
	m := read(goThrough, c)
	if m == nil {
		return "", false
	}
	items := strings.Split(m.get("t"), ",")
	if len(items) < 2 {
		return "", false
	}
	for i, it := range items {
		it = strings.TrimSpace(it)
		for _, lead := range []string{"and then ", "then ", "and "} {
			it = strings.TrimSpace(strings.TrimPrefix(it, lead))
		}
		items[i] = it
	}
	path := strings.Join(items, " > ")
	if _, ok := barePath(path, quotes); !ok {
		return "", false
	}
	return path, true
}

package browser

import (
	"context"
	"fmt"
	"strings"

	"github.com/webagent-dev/webagent/activities"
	"github.com/webagent-dev/webagent/activities/page"
)

// listGone looks for the list a goal found an item in, shown again at the end without
// it (in.Gone): the evidence that the click that removed it did.
// seen is the final page's text outside its fields.
func listGone(ctx context.Context, reads *evidenceReads, res *activities.ValidateGoalResult, in activities.ValidateGoalInput, seen string) error {
	var final []string
	for _, ask := range in.Gone {
		if ask.Before == "" || !sameAddress(res.Final.URL, ask.URL) {
			continue
		}
		if final == nil {
			var err error
			if final, err = pageLines(ctx, reads, seen, res.Final.ElementsKey); err != nil {
				return err
			}
		}
		b, err := reads.text(ctx, ask.Before, "the list before")
		if err != nil {
			return err
		}
		before, err := pageLines(ctx, reads, b, ask.Elements)
		if err != nil {
			return err
		}
		if listWithout(final, before, ask.Name) {
			res.Removed = fmt.Sprintf("%q, which the list at %s showed, is gone from it", ask.Name, ask.URL)
			return nil
		}
	}
	return nil
}

// pageLines are a page's lines of text and the names of its controls (stored under
// elements, when that is set, and read through reads: the final page's controls are
// read once, whichever evidence asks first), each normalized.
func pageLines(ctx context.Context, reads *evidenceReads, text, elements string) ([]string, error) {
	var lines []string
	for _, l := range strings.Split(text, "\n") {
		if l = page.NormalizeText(l); l != "" {
			lines = append(lines, l)
		}
	}
	if elements == "" {
		return lines, nil
	}
	obs, err := reads.controls(ctx, elements, "the page's controls")
	if err != nil {
		return nil, err
	}
	for _, e := range obs.Elements {
		if n := page.NormalizeText(e.Name); n != "" {
			lines = append(lines, n)
		}
	}
	return lines, nil
}

// sameAddress reports whether a and b are one page's address, but for a slash at the
// end of its path.
func sameAddress(a, b string) bool {
	trim := func(u string) string {
		// An empty route ("#/", "#") is the page's root, as no fragment is: a list an
		// app's script draws at "/" shows at "/#/" again after a delete.
		u = strings.TrimSuffix(strings.TrimSuffix(u, "#/"), "#")
		if i := strings.IndexAny(u, "?#"); i >= 0 {
			return strings.TrimSuffix(u[:i], "/") + u[i:]
		}
		return strings.TrimSuffix(u, "/")
	}
	return a != "" && trim(a) == trim(b)
}

// listWithout reports whether final is the list before was, without name (each a page's
// lines and control names, normalized): before showed name and final does not, and at
// least three of before's other lines, six in ten of them, are still there (the same
// list, not another page at that address).
func listWithout(final, before []string, name string) bool {
	n := page.Norm(name)
	holds := func(lines []string) bool {
		for _, l := range lines {
			if hasPhrase(l, n) {
				return true
			}
		}
		return false
	}
	if !holds(before) || holds(final) {
		return false
	}
	fin := strings.Join(final, "\n")
	total, kept := 0, 0
	for _, l := range before {
		if len(l) > 200 || strings.Contains(l, n) {
			continue
		}
		total++
		if strings.Contains(fin, l) {
			kept++
		}
	}
	return total >= 3 && kept*10 >= total*6
}

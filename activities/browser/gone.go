package browser

import (
	"context"
	"fmt"
	"strings"

	"github.com/webagent-dev/webagent/activities"
	"github.com/webagent-dev/webagent/activities/browser/driver"
	"github.com/webagent-dev/webagent/activities/page"
)

// listGone looks for the list a goal found an item in, shown again at the end without
// it (in.Gone): the evidence that the click that removed it did.
func (a *Activities) listGone(ctx context.Context, s *driver.Session, res *activities.ValidateGoalResult, in activities.ValidateGoalInput) error {
	var seen string
	for _, ask := range in.Gone {
		if ask.Before == "" || !sameAddress(res.Final.URL, ask.URL) {
			continue
		}
		if seen == "" {
			var err error
			if seen, err = s.SeenText(ctx, false); err != nil {
				return err
			}
		}
		b, err := a.Store.Get(ctx, ask.Before)
		if err != nil {
			return fmt.Errorf("read the list before (%s): %w", ask.Before, err)
		}
		if listWithout(seen, string(b), ask.Name) {
			res.Removed = fmt.Sprintf("%q, which the list at %s showed, is gone from it", ask.Name, ask.URL)
			return nil
		}
	}
	return nil
}

// sameAddress reports whether a and b are one page's address, but for a slash at the
// end of its path.
func sameAddress(a, b string) bool {
	trim := func(u string) string {
		if i := strings.IndexAny(u, "?#"); i >= 0 {
			return strings.TrimSuffix(u[:i], "/") + u[i:]
		}
		return strings.TrimSuffix(u, "/")
	}
	return a != "" && trim(a) == trim(b)
}

// listWithout reports whether final is the list before was, without name: before showed
// name and final does not, and at least three lines before showed, six in ten of those
// that do not hold name, are still there (the same list, not another page at that
// address).
func listWithout(final, before, name string) bool {
	n := page.Norm(name)
	fin := page.NormalizeText(final)
	if !hasPhrase(page.NormalizeText(before), n) || hasPhrase(fin, n) {
		return false
	}
	total, kept := 0, 0
	for _, line := range strings.Split(before, "\n") {
		l := page.NormalizeText(line)
		if l == "" || len(l) > 200 || strings.Contains(l, n) {
			continue
		}
		total++
		if strings.Contains(fin, l) {
			kept++
		}
	}
	return total >= 3 && kept*10 >= total*6
}

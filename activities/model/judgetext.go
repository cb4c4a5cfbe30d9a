package model

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"unicode"

	"github.com/webagent-dev/webagent/activities"
)

// goalTerms are the things a goal names: its quoted strings, then its names — runs of
// words that start with a capital or hold a digit ("Q4-bugs", "Ada Lovelace", "1042").
// The judge reads the page's text around them.
func goalTerms(goal string) []string {
	var terms, words []string
	rest := strings.NewReplacer("“", `"`, "”", `"`).Replace(goal)
	for {
		i := strings.IndexByte(rest, '"')
		j := strings.IndexByte(rest[i+1:], '"')
		if i < 0 || j < 0 {
			break
		}
		if q := strings.TrimSpace(rest[i+1 : i+1+j]); q != "" {
			terms = append(terms, q)
		}
		rest = rest[:i] + " . " + rest[i+2+j:]
	}
	flush := func() {
		if n := strings.Join(words, " "); len(n) > 1 {
			terms = append(terms, n)
		}
		words = nil
	}
	for _, w := range strings.Fields(rest) {
		t := strings.TrimFunc(w, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
		if t == "" || !(unicode.IsUpper([]rune(t)[0]) || strings.ContainsFunc(t, unicode.IsDigit)) {
			flush()
			continue
		}
		words = append(words, t)
		if t != w { // punctuation ends a name
			flush()
		}
	}
	flush()
	return terms
}

// around is the text around each term's first few occurrences (case aside), width bytes
// either side, joined in page order and cut at limit bytes; "" when no term occurs.
func around(text string, terms []string, width, limit int) string {
	find, fold := strings.ToLower(text), true
	if len(find) != len(text) { // lower case changed the bytes: look for the terms as written
		find, fold = text, false
	}
	var spans [][2]int
	for _, t := range terms {
		if fold {
			t = strings.ToLower(t)
		}
		for at, n := 0, 0; n < 3; n++ {
			i := strings.Index(find[at:], t)
			if i < 0 {
				break
			}
			i += at
			spans = append(spans, [2]int{max(0, i-width), min(len(text), i+len(t)+width)})
			at = i + len(t)
		}
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i][0] < spans[j][0] })
	var b strings.Builder
	end := -1
	for _, s := range spans {
		if s[1] <= end {
			continue
		}
		if s[0] <= end { // overlaps the last: extend it
			s[0] = end
		} else if b.Len() > 0 {
			b.WriteString("\n[…]\n")
		}
		if b.Len()+s[1]-s[0] > limit {
			break
		}
		b.WriteString(strings.ToValidUTF8(text[s[0]:s[1]], ""))
		end = s[1]
	}
	return b.String()
}

// judgeText is what the judge reads of the final page: the text around what the goal
// names or, when the page names none of it, the page's head and its foot, where a
// confirmation toast often is.
func judgeText(full, goal string) string {
	if s := around(full, goalTerms(goal), 300, 6000); s != "" {
		return s
	}
	if len(full) <= 5000 {
		return full
	}
	return truncateText(full, 4000) + "\n" + strings.ToValidUTF8(full[len(full)-1000:], "")
}

// trajectoryShots are the screenshots of the last 3 steps that changed the page, and the
// run's path with those steps marked, for the judge.
func trajectoryShots(ctx context.Context, st Store, path []activities.TrajectoryStep) ([]Image, []string, error) {
	var changed []int
	for i, s := range path {
		if s.After.ScreenshotKey != "" {
			changed = append(changed, i)
		}
	}
	if len(changed) > 3 {
		changed = changed[len(changed)-3:]
	}
	lines := make([]string, len(path))
	for i, s := range path {
		lines[i] = s.Line
	}
	var imgs []Image
	for n, i := range changed {
		png, err := st.Get(ctx, path[i].After.ScreenshotKey)
		if err != nil {
			return nil, nil, err
		}
		label := fmt.Sprintf("Screenshot %d, after: %s", n+1, path[i].Line)
		imgs = append(imgs, Image{Label: label, PNG: png})
		lines[i] += fmt.Sprintf(" [screenshot %d]", n+1)
	}
	return imgs, lines, nil
}

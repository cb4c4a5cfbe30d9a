package browser

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/webagent-dev/webagent/activities"
	"github.com/webagent-dev/webagent/activities/page"
)

// pageSaid looks, on the final page, for the page's own word that one of the last clicks
// did what it is for (in.Done): "OK - Stopped application at context path [/inventory]"
// after a click on Stop in the row of /inventory.
// seen is the final page's text outside its fields.
func pageSaid(ctx context.Context, reads *evidenceReads, res *activities.ValidateGoalResult, in activities.ValidateGoalInput, seen string) error {
	for _, ask := range in.Done {
		if ask.Before == "" {
			continue
		}
		b, err := reads.text(ctx, ask.Before, "the page before the click")
		if err != nil {
			return err
		}
		if line := saysDone(seen, b, ask); line != "" {
			res.Said = line
			return nil
		}
		if line := rowState(seen, b, ask); line != "" {
			res.State = line
			return nil
		}
		if ask.Controls == "" || ask.Clicked == "" || res.Final.ElementsKey == "" {
			continue
		}
		before, err := reads.controls(ctx, ask.Controls, "the page's controls before the click")
		if err != nil {
			return err
		}
		final, err := reads.controls(ctx, res.Final.ElementsKey, "the final page's controls")
		if err != nil {
			return err
		}
		if f := flipped(before, final, seen, ask); f != "" {
			res.Flipped = f
			return nil
		}
	}
	return nil
}

// saysDone is the first line of final (the text the page shows, outside its fields) that
// before did not hold and that says ask's click did what it is for, or "".
func saysDone(final, before string, ask activities.DoneAsk) string {
	forms := pastForms(ask.Verb)
	if len(forms) == 0 {
		return ""
	}
	was := page.NormalizeText(before)
	for _, line := range strings.Split(final, "\n") {
		l := page.NormalizeText(line)
		if l == "" || len(l) > 200 || strings.Contains(was, l) || strings.HasSuffix(strings.TrimSpace(line), "?") || failure.MatchString(l) {
			continue
		}
		if !hasAnyWord(l, forms) {
			continue
		}
		for _, n := range ask.Names {
			if hasName(l, page.Norm(n)) && !saidBefore(before, page.Norm(n), forms) {
				return page.OneLine(strings.TrimSpace(line))
			}
		}
	}
	return ""
}

// saidBefore reports whether a line of before that names n already said one of forms
// of it ("family-recipes  Stopped  0 B/s" before a click on Stop: a row whose speed
// changed since is no news), unless it said the opposite ("Not started").
func saidBefore(before, n string, forms []string) bool {
	for _, line := range strings.Split(before, "\n") {
		l := page.NormalizeText(line)
		if hasName(l, n) && hasAnyName(negated.ReplaceAllString(l, ""), forms) {
			return true
		}
	}
	return false
}

// failure finds a line that says something did not happen, or went wrong.
var failure = regexp.MustCompile(`\b(not|no|never|cannot|can't|couldn't|wasn't|weren't|isn't|didn't|unable|fail|failed|fails|failure|error|errors|denied|invalid|refused|rejected|unsuccessful|forbidden)\b`)

// quietVerbs are the first words of clicks that look rather than change: their past forms
// ("opened", "viewed", "edited") say what a page was, not that the goal was done.
var quietVerbs = map[string]bool{
	"open": true, "show": true, "view": true, "go": true, "see": true, "display": true, "search": true, "find": true,
	"filter": true, "sort": true, "select": true, "choose": true, "pick": true, "edit": true, "expand": true,
	"collapse": true, "back": true, "next": true, "previous": true, "continue": true, "log": true, "sign": true,
	"login": true, "ok": true, "yes": true, "confirm": true, "more": true, "load": true, "refresh": true,
	"reload": true, "read": true, "check": true, "browse": true, "visit": true, "list": true, "preview": true,
}

// irregular are the past forms of the verbs a click may start with that do not end in -ed.
var irregular = map[string][]string{
	"send": {"sent"}, "set": {"set"}, "reset": {"reset"}, "put": {"put"}, "make": {"made"}, "build": {"built"},
	"rebuild": {"rebuilt"}, "run": {"ran", "run"}, "take": {"taken", "took"}, "give": {"given", "gave"},
	"write": {"written", "wrote"}, "shut": {"shut"}, "hide": {"hidden", "hid"}, "begin": {"begun", "began"},
	"upload": {"uploaded"}, "quit": {"quit"}, "unset": {"unset"}, "undo": {"undone"}, "redo": {"redone"},
}

// pastForms are the words that say verb was done ("stopped", "deleted", "applied",
// "sent"); none for a verb that only looks (quietVerbs) or a word that is no verb.
func pastForms(verb string) []string {
	v := strings.ToLower(verb)
	if len(v) < 2 || quietVerbs[v] || strings.IndexFunc(v, func(r rune) bool { return r < 'a' || r > 'z' }) >= 0 {
		return nil
	}
	if f, ok := irregular[v]; ok {
		return f
	}
	last := v[len(v)-1]
	vowel := func(b byte) bool { return strings.IndexByte("aeiou", b) >= 0 }
	switch {
	case last == 'e':
		return []string{v + "d"}
	case last == 'y' && !vowel(v[len(v)-2]):
		return []string{v[:len(v)-1] + "ied"}
	case len(v) >= 3 && !vowel(last) && vowel(v[len(v)-2]) && !vowel(v[len(v)-3]) && !strings.ContainsRune("wxy", rune(last)):
		// stop → stopped, ban → banned, submit → submitted; and the single form too
		// (open → opened, edit → edited), as English does either.
		return []string{v + string(last) + "ed", v + "ed"}
	}
	return []string{v + "ed"}
}

// hasAnyWord reports whether l (normalized) holds one of words as a word of its own.
func hasAnyWord(l string, words []string) bool {
	return slices.ContainsFunc(words, func(w string) bool { return hasPhrase(l, w) })
}

// hasPhrase reports whether l holds p with no letter or digit just before or after it.
func hasPhrase(l, p string) bool {
	return holdsWhole(l, p, func(s string) bool { return wordRune(lastRune(s)) }, func(s string) bool { return wordRune(firstRune(s)) })
}

// holdsWhole reports whether l holds p (of three letters or more) somewhere the text before
// it does not run on into it (joined) nor the text after it (joins).
func holdsWhole(l, p string, joined, joins func(string) bool) bool {
	if len([]rune(p)) < 3 {
		return false
	}
	for i := 0; ; {
		j := strings.Index(l[i:], p)
		if j < 0 {
			return false
		}
		at := i + j
		if !joined(l[:at]) && !joins(l[at+len(p):]) {
			return true
		}
		i = at + 1
	}
}

func wordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

func lastRune(s string) rune {
	r := []rune(s)
	if len(r) == 0 {
		return ' '
	}
	return r[len(r)-1]
}

func firstRune(s string) rune {
	for _, r := range s {
		return r
	}
	return ' '
}

package browser

import (
	"context"
	"fmt"
	"strings"

	"github.com/webagent-dev/webagent/activities"
	"github.com/webagent-dev/webagent/activities/page"
)

// storing are the first words of the clicks that store what a form holds ("Save",
// "Apply changes", "Update", "Publish now"): after one, a form that stays on the page (an
// editor, a settings page) shows the values it was given in its fields, and the page
// says it stored them in a word of its own.
var storing = map[string]bool{
	"save": true, "apply": true, "update": true, "submit": true, "publish": true, "store": true, "change": true,
}

// storedWords are the words a page says a form was stored in after a storing click of
// verb: its own past forms, and for the clicks that only store, any word of storing
// ("Settings updated" after "Save"). After "Publish", "saved" counts only where the line
// does not say it was saved as a draft ("Entry saved", not "Draft saved").
func storedWords(verb, line string) []string {
	v := strings.ToLower(verb)
	words := pastForms(v)
	switch {
	case v == "publish" && !hasName(line, "draft"):
		words = append(words, "saved")
	case v != "publish":
		words = append(words, "saved", "applied", "updated", "submitted", "stored", "changed")
	}
	return words
}

// keptForm looks for the evidence a form that stays on the page gives when it was
// stored: the goal's last click stores (storing), every value of the last form is what
// one of the final page's fields holds (the same form, with the goal's values), and a
// line of the final page that neither the page before the form nor the page before that
// click showed says in the page's own words that it was stored, with no word of failure
// and no question. seen is the final page's text outside its fields.
func keptForm(ctx context.Context, reads *evidenceReads, res *activities.ValidateGoalResult, in activities.ValidateGoalInput, seen string) error {
	typed := in.Typed
	if len(typed) == 0 {
		typed = in.KeptTyped
	}
	if len(typed) == 0 || len(in.Done) == 0 || !in.Done[0].Last || !storing[strings.ToLower(in.Done[0].Verb)] || in.Done[0].Before == "" {
		return nil
	}
	fields, err := reads.fieldTexts(ctx)
	if err != nil {
		return err
	}
	if !allInFields(typed, fields) {
		return nil
	}
	var before []string
	for _, key := range []string{in.TypedBefore, in.Done[0].Before} {
		if key == "" {
			continue
		}
		b, err := reads.text(ctx, key, "the page before the form")
		if err != nil {
			return err
		}
		before = append(before, page.NormalizeText(b))
	}
	if line := saysStored(seen, before, in.Done[0].Verb); line != "" {
		quoted := make([]string, len(typed))
		for i, v := range typed {
			quoted[i] = fmt.Sprintf("%q", v)
		}
		res.Kept = fmt.Sprintf("%s in its fields, and %q", strings.Join(quoted, ", "), line)
	}
	return nil
}

// allInFields reports whether each of typed is the whole value of one of fields, spelled
// as typed (spacing aside): a field the page filled back in another spelling holds what
// the page stored, not what the goal gave.
func allInFields(typed, fields []string) bool {
	exact := func(s string) string { return strings.TrimSpace(page.OneLine(s)) }
	for _, v := range typed {
		want, found := exact(v), false
		for _, f := range fields {
			if exact(f) == want {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// saysStored is the first short line of final that says a form was stored after a click
// of verb (storedWords) and that no page of before held, with no word of failure and no
// question; "" if none.
func saysStored(final string, before []string, verb string) string {
	for _, line := range strings.Split(final, "\n") {
		l := page.NormalizeText(line)
		if l == "" || len(l) > 100 || strings.HasSuffix(strings.TrimSpace(line), "?") || failure.MatchString(l) || !hasAnyName(l, storedWords(verb, l)) {
			continue
		}
		old := false
		for _, b := range before {
			old = old || strings.Contains(b, l)
		}
		if !old {
			return page.OneLine(strings.TrimSpace(line))
		}
	}
	return ""
}

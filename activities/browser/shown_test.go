package browser

import (
	"testing"

	"github.com/webagent-dev/webagent/activities/page"
)

// TestShownValues: the values a form was given are evidence it was taken only when the
// final page shows every one of them as text, none of them is still in a field, and the
// page before them did not show them.
func TestShownValues(t *testing.T) {
	typed := []string{"Fiona", "Green", "fiona@example.org"}
	list := page.NormalizeText("Contacts\nFiona Green\nFiona Green\nEmail fiona@example.org")
	for _, c := range []struct {
		name   string
		seen   string
		fields []string
		before string
		shown  bool
	}{
		{"all shown, the form gone", list, nil, "", true},
		{"one not shown", page.NormalizeText("Contacts\nFiona Green"), nil, "", false},
		{"still in a field", list, []string{"fiona@example.org"}, "", false},
		{"shown before the form", list, nil, page.NormalizeText("Fiona Green fiona@example.org"), false},
		{"a page shown before that named something else", list, nil, page.NormalizeText("Contacts"), true},
		// A page that asks to confirm shows the values in its question: the form is taken
		// only once it is answered (Sympa's "Do you really want to add …?", its Confirm).
		{"only in the question the page asks", page.NormalizeText("Do you really want to add Fiona Green (fiona@example.org) to hiking-club? Confirm Cancel"), nil, "", false},
		{"asked, and shown as done too", page.NormalizeText("Add Fiona Green, fiona@example.org? Fiona Green fiona@example.org was added."), nil, "", true},
	} {
		if got, why := shownValues(typed, c.seen, c.fields, c.before, nil); (got != "") != c.shown || (got == "") == (why == "") {
			t.Errorf("%s: shownValues = %q, %q; want shown %v", c.name, got, why, c.shown)
		}
	}
}

// TestShownAgain: on the page the form sits on (a journal that lists every account), a
// value the page showed before is shown anew when more of its lines show it now, none of
// them a line of failure; not when it shows as often as before, nor on a line of failure.
func TestShownAgain(t *testing.T) {
	before := "Journal\n2026-11-01 Transfer to savings\nassets:bank:checking $-500.00\nassets:bank:savings $500.00"
	added := before + "\n2026-11-26 Transfer to savings\nassets:bank:checking $-500.00\nassets:bank:savings $500.00"
	typed := []string{"2026-11-26", "Transfer to savings", "assets:bank:savings", "assets:bank:checking"}
	for _, c := range []struct {
		name  string
		final string
		shown bool
	}{
		{"one more transaction", added, true},
		{"the same journal", before + "\n2026-11-26", false},
		{"said to have failed", before + "\nCould not add 2026-11-26 Transfer to savings: assets:bank:savings assets:bank:checking", false},
	} {
		again := func(v string) bool { return shownMore(c.final, before, v) }
		got, why := shownValues(typed, page.NormalizeText(c.final), nil, page.NormalizeText(before), again)
		if (got != "") != c.shown {
			t.Errorf("%s: shownValues = %q, %q; want shown %v", c.name, got, why, c.shown)
		}
	}
	if got, _ := shownValues(typed, page.NormalizeText(added), nil, page.NormalizeText(before), nil); got != "" {
		t.Errorf("at another address, a value shown before is no evidence: %q", got)
	}
}

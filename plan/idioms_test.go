package plan

import (
	"reflect"
	"strings"
	"testing"
)

// TestIdiomRows: each idiom reads its example sentence as the plain sentences it means,
// and the planner makes of both the same plan; a row is a phrasing, checked as one.
func TestIdiomRows(t *testing.T) {
	for _, id := range idioms {
		got, perr := rewriteIdioms(id.example)
		if perr != nil || strings.TrimRight(got, ".") != strings.TrimRight(id.means, ".") {
			t.Errorf("%s: %q written as %q (%v), want %q", id.name, id.example, got, perr, id.means)
			continue
		}
		a, errA := Parse(id.example)
		b, errB := Parse(id.means)
		if errA != nil || errB != nil || !reflect.DeepEqual(a, b) {
			t.Errorf("%s: %q planned as %v (%v), its meaning as %v (%v)", id.name, id.example, a, errA, b, errB)
		}
	}
}

// TestIdiomsStayExact: sentences that look like an idiom but are not one are not read as
// one; what an idiom cannot write exactly is refused with the reason.
func TestIdiomsStayExact(t *testing.T) {
	refused := map[string]string{
		`Click on a "spaceship" widget.`:                                 "not a kind of control",
		`Click the "Like" button on 40 posts by @lacus.`:                 "not a count",
		"Find the email by Rochella and forward it.":                     "",
		"Delete the email.":                                              "",
		`Type "abc" in all fancy letters in the text input.`:             "",
		"Find the email by Rochella and reply to them with some thanks.": "",
	}
	for g, why := range refused {
		s, err := Parse(g)
		if err == nil {
			t.Errorf("%q read as %v", g, s)
		} else if why != "" && !strings.Contains(err.Error(), why) {
			t.Errorf("%q: %v, want a reason with %q", g, err, why)
		}
	}
}

// TestReadingRows: each row of the planner's table reads its example sentences, and no
// row before it takes them.
func TestReadingRows(t *testing.T) {
	for i, r := range readings {
		for _, ex := range r.examples {
			masked, quotes := mask(ex)
			for j, earlier := range readings[:i] {
				if _, _, ok := earlier.read(masked, quotes); ok {
					t.Errorf("%q, an example of %q, is taken by row %d %q", ex, r.name, j, earlier.name)
				}
			}
			if _, _, ok := r.read(masked, quotes); !ok {
				t.Errorf("%q is not read by its row %q", ex, r.name)
			}
		}
	}
}

// TestRefusalRows: each refusal rule refuses its example, and every rule before it lets
// the example pass, so the reason given is the row's own.
func TestRefusalRows(t *testing.T) {
	for i, r := range unquotedRules {
		for _, earlier := range unquotedRules[:i] {
			if earlier.refuse(r.example) != "" {
				t.Errorf("%q, the example of %q, is refused first by %q", r.example, r.name, earlier.name)
			}
		}
		if r.refuse(r.example) == "" {
			t.Errorf("%q is not refused by its rule %q", r.example, r.name)
		}
	}
	for _, a := range unsupportedActions {
		masked, _ := mask(a.example)
		if reason := unsupported(masked); !strings.HasPrefix(reason, a.name+" ") {
			t.Errorf("%q, the example of %q, gives %q", a.example, a.name, reason)
		}
	}
}

// TestEveryNamedElement: "on all posts by @x" is every such control, the count left to the
// page; "every" before anything but a quoted name is refused.
func TestEveryNamedElement(t *testing.T) {
	steps, err := Parse(`Click the "Like" button on all posts by @lacus and then click Submit.`)
	if err != nil || len(steps) != 2 {
		t.Fatalf("%v %v", steps, err)
	}
	if tg := WithTargets(steps)[0].Target; !tg.Every || tg.Name != "Like" || tg.Row != "@lacus" || tg.Kind != "icon" {
		t.Errorf("target %+v", tg)
	}
	if s, err := Parse("click every checkbox"); err == nil {
		t.Errorf("read as %v", s)
	}
}

// TestStyledWordsAsWritten: an unquoted word to style is taken as written, its
// punctuation too, and a colour (which the toolbar shows as swatches no text names) is
// not read.
func TestStyledWordsAsWritten(t *testing.T) {
	steps, err := Parse("Using the text editor, give the text integer. the style underlined and press Submit.")
	if err != nil || len(steps) != 3 || steps[0].Value != "integer." || steps[1].TargetDescription != "underline button" {
		t.Errorf("got %s, %v", dump(steps), err)
	}
	if steps, err := Parse("Using the text editor, give the text lorem the color yellow."); err == nil {
		t.Errorf("a colour was read: %s", dump(steps))
	}
}

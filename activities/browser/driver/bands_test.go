package driver_test

import (
	"testing"
	"time"

	"github.com/webagent-dev/webagent/activities/browser/driver"
	"github.com/webagent-dev/webagent/plan"
)

// TestThePagesBandsAndPictures: from the fifteenth pool (read after its blind run): a wiki
// whose sign-in is a padlock in its footer, drawn by an icon font, named only by its title
// (`click the "Reclaim this Wiki" lock in the footer`). The footer was read as part of the
// name, and the lock as a word the reader could not place; a "Help" link in the header,
// the content, an article's own footer and the page's footer said where by the band it is
// in. What the control shows and where it is must both hold: a star is not the lock, and
// an article's footer is not the page's. The padlock's dialog asks for its one field by a
// line above it, no label: "the reclaim code box" is the field that line asks for.
func TestThePagesBandsAndPictures(t *testing.T) {
	pool := newPool(t)
	runUnseen(t, pool, []unseenCase{
		{"a padlock in the footer, named by its title", "bands.html", "bands", []string{
			`click the "Reclaim this Wiki" lock in the footer`,
			`click the "Reclaim this Wiki" padlock`,
			`Click the lock icon in the footer.`,
		}, `{"clicked":"lock"}`},
		{"a dialog's one field, named by the line that asks for it", "bands.html", "bands", []string{
			`click the "Reclaim this Wiki" lock in the footer, type "s3cret-code" into the reclaim code box, click "Submit"`,
			`click the "Reclaim this Wiki" lock, enter s3cret-code in the reclaim code field and press Submit`,
			`Click the lock icon in the footer, type "s3cret-code" into "reclaim code", then click Submit.`,
		}, `{"reclaimed":"s3cret-code"}`},
		{"a link said by the band of the page it is in", "bands.html", "bands", []string{
			`click "Help" in the footer`,
			`click Help in the page footer`,
			`Click the "Help" link in the footer.`,
		}, `{"clicked":"footer-help"}`},
		{"the same link in the header", "bands.html", "bands", []string{
			`click "Help" in the header`,
			`click Help in the page header`,
			`Click the Help link in the header.`,
		}, `{"clicked":"header-help"}`},
	})
	for _, goal := range []string{
		`click the "Reclaim this Wiki" star in the footer`, // it shows a lock
		`click the "Favourite this page" lock`,             // it shows a star
		`click "Recent Changes" in the footer`,             // it is in the header
		`click "Help"`,                                     // four of them
	} {
		t.Run("refused/"+goal, func(t *testing.T) {
			steps, err := plan.Parse(goal)
			if err != nil {
				t.Fatalf("%q: %v", goal, err)
			}
			s, app := openLab(t, pool, "bands-refused", "bands.html")
			out, err := s.Do(t.Context(), steps[0], driver.DoOptions{WaitBudget: 2 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			if out.OK || out.Acted {
				t.Fatalf("%q acted (actions %q); what it names is not on the page", goal, out.Actions)
			}
			if got := string(app.LabState("bands")); got != "" {
				t.Errorf("%q: the page saved %s", goal, got)
			}
			t.Logf("%q refused: %s", goal, out.Feedback)
		})
	}
}

// TestAParagraphEditedInPlace: the Federated Wiki's paragraphs (its first phrasings, run
// after its sign-in was mended): a double-click opens a box in the paragraph's place, and
// the box saves when a click outside it takes the focus away. There is no Save button, so
// "click outside it" is the step that saves: a blank spot of the page, away from the box.
func TestAParagraphEditedInPlace(t *testing.T) {
	runUnseen(t, newPool(t), []unseenCase{
		{"a paragraph changed, then a click outside it", "inplace.html", "story", []string{
			`double-click the paragraph "Water the beds every evening in July.", change its text to "Water the beds every evening in July and August.", then click outside it`,
			`double-click "Water the beds every evening in July.", type "Water the beds every evening in July and August." into the focused field and click somewhere else on the page`,
			`Double-click the paragraph "Water the beds every evening in July.", replace its text with "Water the beds every evening in July and August." and click somewhere outside the box.`,
		}, `"Water the beds every evening in July and August."`},
		{"a paragraph emptied, which removes it", "inplace.html", "story", []string{
			`double-click the paragraph "Oil the wheelbarrow in April.", delete all of its text, then click outside it`,
			`double-click "Oil the wheelbarrow in April.", clear its text and click on an empty part of the page`,
			`Double-click "Oil the wheelbarrow in April.", remove all the text, then click somewhere outside the box.`,
		}, `{"story":["Beds one to four will grow tomatoes and squash.","Water the beds every evening in July."]}`},
	})
}

//go:build heldout

package e2e

import (
	"testing"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// calibreGoal is an everyday goal on calibre's web interface, written three ways as a
// person writes it from what the pages show; done reads the library's metadata.db and says
// "" when the goal's effect is there and nothing else the pages change did, else what it
// found; do makes the effect with the requests the pages send along the goal's path, and
// miss a near miss the judge must not take for it (the book's twin, a neighbouring value,
// the field's old values dropped).
type calibreGoal struct {
	name      string
	phrasings [3]string
	done      func(t testing.TB, c *testenv.Calibre) string
	do, miss  func(t testing.TB, b *testenv.CalibreBrowser)
}

const (
	calibreRenamed   = "The Long Winter Crossing"
	calibreSeries    = "Garden Guides"
	calibrePublisher = "Harbourside Editions"
	calibreCoAuthor  = "Tomas Brandt"
)

var calibreGoals = []calibreGoal{
	{
		name: "rename a book",
		phrasings: [3]string{
			`click "Calibre Library", click the book "Winter Crossing", click "Edit the metadata for this book", click "Title", type "The Long Winter Crossing" into "Title", click "OK", click "Apply changes"`,
			`Open the Calibre Library, then open Winter Crossing and hit the edit icon (Edit the metadata for this book) at the top right. Tap Title, change it to "The Long Winter Crossing", press OK and then Apply changes.`,
			`In calibre, click Calibre Library and click the cover of the book Winter Crossing. On its page press the pencil icon in the top bar to edit the metadata, tap the Title row, replace the text in the Title field with The Long Winter Crossing, click OK, then click the "Apply changes" button to save it.`,
		},
		done: func(t testing.TB, c *testenv.Calibre) string {
			return c.Differs(t, testenv.CalibreBookChange("Winter Crossing", map[string]string{"title": calibreRenamed}))
		},
		do: func(t testing.TB, b *testenv.CalibreBrowser) {
			calibreEdit(t, b, "", "Winter Crossing", "title", calibreRenamed)
		},
		miss: func(t testing.TB, b *testenv.CalibreBrowser) {
			calibreEdit(t, b, "", "Winter Crossing", "title", "Long Winter Crossing")
		},
	},
	{
		name: "add a tag to a book",
		phrasings: [3]string{
			`click "Calibre Library", click the book "The Quiet Harbour", click "Edit the metadata for this book", click "Tags", type "Fiction, Sea, Favourites" into "Tags", click "OK", click "Apply changes"`,
			`Open Calibre Library and go to The Quiet Harbour. Click the edit icon (Edit the metadata for this book), tap Tags and add Favourites after the existing tags so that the field reads "Fiction, Sea, Favourites"; hit OK, then Apply changes.`,
			`Please tag The Quiet Harbour as a favourite: click "Calibre Library", open the book The Quiet Harbour, press the pencil icon at the top right, then tap the Tags row. Keep Fiction and Sea and add the tag Favourites, so the field labelled Tags says Fiction, Sea, Favourites. Click OK and then the Apply changes button.`,
		},
		done: func(t testing.TB, c *testenv.Calibre) string {
			return c.Differs(t, testenv.CalibreBookChange("The Quiet Harbour", map[string]string{"tags": "Favourites, Fiction, Sea"}))
		},
		do: func(t testing.TB, b *testenv.CalibreBrowser) {
			calibreEdit(t, b, "", "The Quiet Harbour", "tags", []string{"Fiction", "Sea", "Favourites"})
		},
		miss: func(t testing.TB, b *testenv.CalibreBrowser) {
			calibreEdit(t, b, "", "The Quiet Harbour", "tags", []string{"Favourites"})
		},
	},
	{
		name: "put a book in a series",
		phrasings: [3]string{
			`click "Calibre Library", click the book "Gardening Through the Seasons", click "Edit the metadata for this book", click "Series", type "Garden Guides" into "Name", type "2" into "Number", click "OK", click "Apply changes"`,
			`Open Calibre Library, then the book Gardening Through the Seasons; click Edit the metadata for this book (the pencil at the top), tap Series, put Garden Guides as the Name and 2 as the Number, press OK and then Apply changes.`,
			`Open the Calibre Library and click the cover of "Gardening Through the Seasons". Hit the edit icon in the top bar, tap the Series row and fill in the Name field with Garden Guides and the field labelled Number with 2. Then click OK, and click Apply changes so the book is saved as number 2 of the Garden Guides series.`,
		},
		done: func(t testing.TB, c *testenv.Calibre) string {
			return c.Differs(t, testenv.CalibreBookChange("Gardening Through the Seasons", map[string]string{"series": calibreSeries, "series_index": "2"}))
		},
		do:   func(t testing.TB, b *testenv.CalibreBrowser) { calibreSetSeries(t, b, 2) },
		miss: func(t testing.TB, b *testenv.CalibreBrowser) { calibreSetSeries(t, b, 1) },
	},
	{
		name: "rate a book",
		phrasings: [3]string{
			`click "Calibre Library", click the book "A Short History of Tunnels", click "Edit the metadata for this book", click "Rating", click the five stars "★★★★★", click "OK", click "Apply changes"`,
			`Open Calibre Library > A Short History of Tunnels, press the edit icon (Edit the metadata for this book), tap Rating and pick the five stars, then OK and Apply changes.`,
			`Give A Short History of Tunnels five stars: click Calibre Library, open that book (not the one about bridges), click the pencil icon at the top right, tap the Rating row, choose the last option, the one with five stars, hit OK and then the Apply changes button.`,
		},
		done: func(t testing.TB, c *testenv.Calibre) string {
			return c.Differs(t, testenv.CalibreBookChange("A Short History of Tunnels", map[string]string{"rating": "10"}))
		},
		do: func(t testing.TB, b *testenv.CalibreBrowser) {
			calibreEdit(t, b, "", "A Short History of Tunnels", "rating", 10)
		},
		miss: func(t testing.TB, b *testenv.CalibreBrowser) {
			calibreEdit(t, b, "", "A Short History of Tunnels", "rating", 8)
		},
	},
	{
		name: "change a book's publisher",
		phrasings: [3]string{
			`click "Calibre Library", click the book "The Clockmaker's Daughter", click "Edit the metadata for this book", click "Publisher", type "Harbourside Editions" into "Publisher", click "OK", click "Apply changes"`,
			`Open Calibre Library, then The Clockmaker's Daughter. Click the edit icon at the top right, tap Publisher, replace Ashford & Lane with "Harbourside Editions", press OK then Apply changes.`,
			`In the Calibre Library, click the cover of the book "The Clockmaker's Daughter" and press the pencil icon (Edit the metadata for this book). Tap the Publisher row, change the Publisher field to Harbourside Editions, hit OK, and then click Apply changes to save it.`,
		},
		done: func(t testing.TB, c *testenv.Calibre) string {
			return c.Differs(t, testenv.CalibreBookChange("The Clockmaker's Daughter", map[string]string{"publisher": calibrePublisher}))
		},
		do: func(t testing.TB, b *testenv.CalibreBrowser) {
			calibreEdit(t, b, "", "The Clockmaker's Daughter", "publisher", calibrePublisher)
		},
		miss: func(t testing.TB, b *testenv.CalibreBrowser) {
			calibreEdit(t, b, "", "The Clockmaker's Apprentice", "publisher", calibrePublisher)
		},
	},
	{
		name: "delete a book",
		phrasings: [3]string{
			`click "Calibre Library", click the book "Gardening for Small Spaces", click "Delete this book", click "OK"`,
			`Open Calibre Library, open Gardening for Small Spaces and delete it with the trash icon at the top right (Delete this book), then confirm with OK.`,
			`We no longer have Gardening for Small Spaces, so remove it from calibre: click Calibre Library, click that book's cover, press the bin icon in the top bar and answer OK when it asks "Are you sure?". Gardening Through the Seasons must stay.`,
		},
		done: func(t testing.TB, c *testenv.Calibre) string {
			return c.Differs(t, testenv.CalibreBookChange("Gardening for Small Spaces", nil))
		},
		do: func(t testing.TB, b *testenv.CalibreBrowser) {
			b.Delete(t, b.Book(t, "", "Gardening for Small Spaces"))
		},
		miss: func(t testing.TB, b *testenv.CalibreBrowser) {
			b.Delete(t, b.Book(t, "", "Gardening Through the Seasons"))
		},
	},
	{
		name: "search and add a co-author",
		phrasings: [3]string{
			`click "Calibre Library", click "Search for books", type "Voss" into "Enter the search query", press Enter, click the book "The Clockmaker's Apprentice", click "Edit the metadata for this book", click "Authors", type "Elena Voss & Tomas Brandt" into "Authors", click "OK", click "Apply changes"`,
			`Open Calibre Library, search for Voss with the search icon (Search for books) at the top, and in the results open The Clockmaker's Apprentice; press the edit icon, tap Authors and add Tomas Brandt after Elena Voss so it reads "Elena Voss & Tomas Brandt", then hit OK and Apply changes.`,
			`Tomas Brandt co-wrote one of Elena Voss's books. Click Calibre Library, click the magnifying glass at the top right and search for Voss. Among the matches, open The Clockmaker's Apprentice, click the pencil icon, tap the Authors row and make the field labelled Authors read Elena Voss & Tomas Brandt (Elena Voss first). Click OK, then Apply changes.`,
		},
		done: func(t testing.TB, c *testenv.Calibre) string {
			return c.Differs(t, testenv.CalibreBookChange("The Clockmaker's Apprentice", map[string]string{"authors": "Elena Voss & " + calibreCoAuthor}))
		},
		do: func(t testing.TB, b *testenv.CalibreBrowser) {
			calibreEdit(t, b, "Voss", "The Clockmaker's Apprentice", "authors", []string{"Elena Voss", calibreCoAuthor})
		},
		miss: func(t testing.TB, b *testenv.CalibreBrowser) {
			calibreEdit(t, b, "Voss", "The Clockmaker's Daughter", "authors", []string{"Elena Voss", calibreCoAuthor})
		},
	},
}

// calibreEdit opens the book titled title from the book list shown for query ("" for the
// whole list) and applies one field's new value, as its metadata editor does once the
// field is edited, OK is pressed and then Apply changes.
func calibreEdit(t testing.TB, b *testenv.CalibreBrowser, query, title, field string, value any) {
	t.Helper()
	b.Apply(t, b.Book(t, query, title), map[string]any{field: value})
}

// calibreSetSeries puts Gardening Through the Seasons in the goal's series as number n, as
// the editor's Series row (Name and Number) sends it.
func calibreSetSeries(t testing.TB, b *testenv.CalibreBrowser, n float64) {
	t.Helper()
	b.Apply(t, b.Book(t, "", "Gardening Through the Seasons"), map[string]any{"series": calibreSeries, "series_index": n})
}

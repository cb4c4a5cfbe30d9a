//go:build heldout

package e2e

import (
	"strings"
	"testing"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// zophGoal is an everyday goal on Zoph, written three ways as a person writes it from what
// the pages show ({signin} is the phrasing's way of signing in); done reads Zoph's
// database and says "" when the goal's effect is there and nothing else the pages change
// did, else what it found; do makes the effect through the pages along the goal's path,
// and miss a near miss the judge must not take for it (another album, photo or place, a
// neighbouring name or value).
type zophGoal struct {
	name      string
	phrasings [3]string
	done      func(t testing.TB, z *testenv.Zoph) string
	do, miss  func(t testing.TB, b *testenv.ZophBrowser)
}

const (
	zophNewAlbum       = "Lake Garda 2024"
	zophAlbumParent    = "Holidays"
	zophMissParent     = "Family Events"
	zophCategory       = "Food"
	zophCategoryTo     = "Food and Drink"
	zophCategoryMiss   = "Food and Drinks"
	zophPersonFirst    = "Clara"
	zophPersonLast     = "Weber"
	zophPersonMissLast = "Webber"
	zophPersonFrom     = "Anna Berger"
	zophPlace          = "Lake Garda"
	zophPlaceParent    = "Italy"
	zophPlaceCity      = "Riva del Garda"
	zophPlaceMissCity  = "Arco"
	zophDeleted        = "Summer Camp 2022"
	zophMissDeleted    = "Summer Camp 2023"
	zophTuscany        = "Tuscany 2023"
	zophRated          = "Sunset over Siena"
	zophMissRated      = "Cypress road"
	zophRating         = "8"
	zophDescribed      = "Ponte Vecchio"
	zophMissDescribed  = "Duomo of Florence"
	zophDescription    = "Our first evening in Florence, seen from the Uffizi"
	zophBrittany       = "Brittany 2022"
	zophPicnic         = "Picnic at Plage du Goviro"
	zophBest           = "Best of 2022"
	zophMissBest       = "Best of 2023"
	zophTitle          = "Berger Family Photos"
	zophMissTitle      = "Berger Family Photo"
)

var zophGoals = []zophGoal{
	{
		name: "create an album inside another",
		phrasings: [3]string{
			`{signin}, click "albums", click "Holidays", click "new", type "Lake Garda 2024" into "Album name", click "insert"`,
			`{signin}, then open albums > Holidays, click new and create the album Lake Garda 2024 inside it`,
			`{signin} Then go to the albums and open our Holidays album. Click "new" at the top of it to make a new album there, call it "Lake Garda 2024" (that's the Album name field, keep Holidays as the parent album) and press insert.`,
		},
		done: func(t testing.TB, z *testenv.Zoph) string {
			return z.Differs(t, testenv.ZophState{"albums": {zophNewAlbum: {"parent": zophAlbumParent, "description": ""}}})
		},
		do:   func(t testing.TB, b *testenv.ZophBrowser) { b.NewAlbum(t, zophAlbumParent, zophNewAlbum) },
		miss: func(t testing.TB, b *testenv.ZophBrowser) { b.NewAlbum(t, zophMissParent, zophNewAlbum) },
	},
	{
		name: "rename a category",
		phrasings: [3]string{
			`{signin}, click "categories", click "Food", click "edit", type "Food and Drink" into "Category name", click "update"`,
			`{signin}, go to categories, open Food, edit it and rename it to Food and Drink`,
			`{signin} After that, open the categories page and click the Food category. Hit edit and change its Category name from Food to "Food and Drink", then click update to save the new name.`,
		},
		done: func(t testing.TB, z *testenv.Zoph) string { return zophRenamed(t, z, zophCategoryTo) },
		do:   func(t testing.TB, b *testenv.ZophBrowser) { b.RenameCategory(t, zophCategory, zophCategoryTo) },
		miss: func(t testing.TB, b *testenv.ZophBrowser) { b.RenameCategory(t, zophCategory, zophCategoryMiss) },
	},
	{
		name: "add a person",
		phrasings: [3]string{
			`{signin}, click "people", click "Anna Berger", click "new", type "Clara" into "first name", type "Weber" into "last name", click "insert"`,
			`{signin}, open people, go to Anna Berger's page and click new; add the person Clara Weber (first name Clara, last name Weber)`,
			`{signin} Next I'd like to add our new neighbour to the people: open the people page, click on Anna Berger and use the "new" link on her page. Enter Clara as the first name and Weber as the last name and click insert.`,
		},
		done: func(t testing.TB, z *testenv.Zoph) string {
			return z.Differs(t, testenv.ZophState{"people": {zophPersonFirst + " " + zophPersonLast: {
				"first_name": zophPersonFirst, "last_name": zophPersonLast, "middle_name": "", "called": ""}}})
		},
		do: func(t testing.TB, b *testenv.ZophBrowser) {
			b.NewPerson(t, zophPersonFrom, zophPersonFirst, zophPersonLast)
		},
		miss: func(t testing.TB, b *testenv.ZophBrowser) {
			b.NewPerson(t, zophPersonFrom, zophPersonFirst, zophPersonMissLast)
		},
	},
	{
		name: "add a place with its city and country",
		phrasings: [3]string{
			`{signin}, click "places", click "Italy", click "new", type "Lake Garda" into "title", type "Riva del Garda" into "city", type "Italy" into "country", click "submit"`,
			`{signin}, then under places open Italy, click new and add the place Lake Garda with city Riva del Garda and country Italy`,
			`{signin} Then open places and click Italy. Use "new" to add a place inside Italy: its title is Lake Garda, the city is "Riva del Garda" and the country Italy. Leave the rest empty and press submit.`,
		},
		done: func(t testing.TB, z *testenv.Zoph) string {
			return z.Differs(t, testenv.ZophState{"places": {zophPlace: {"parent": zophPlaceParent, "city": zophPlaceCity,
				"country": zophPlaceParent, "address": "", "state": "", "zip": ""}}})
		},
		do: func(t testing.TB, b *testenv.ZophBrowser) {
			b.NewPlace(t, zophPlaceParent, zophPlace, zophPlaceCity, zophPlaceParent)
		},
		miss: func(t testing.TB, b *testenv.ZophBrowser) {
			b.NewPlace(t, zophPlaceParent, zophPlace, zophPlaceMissCity, zophPlaceParent)
		},
	},
	{
		name: "delete an album",
		phrasings: [3]string{
			`{signin}, click "albums", click "Family Events", click "Summer Camp 2022", click "delete", click "confirm"`,
			`{signin}, go to albums > Family Events > Summer Camp 2022 and delete that album (confirm it)`,
			`{signin} Then open the albums, go into Family Events and open the Summer Camp 2022 album. Delete it with the "delete" link at the top and confirm. Only that album should go, the 2023 camp stays.`,
		},
		done: func(t testing.TB, z *testenv.Zoph) string { return z.Differs(t, zophForget(z.Seed(), zophDeleted)) },
		do:   func(t testing.TB, b *testenv.ZophBrowser) { b.DeleteAlbum(t, zophDeleted) },
		miss: func(t testing.TB, b *testenv.ZophBrowser) { b.DeleteAlbum(t, zophMissDeleted) },
	},
	{
		name: "rate a photo",
		phrasings: [3]string{
			`{signin}, click "albums", click "Holidays", click "Tuscany 2023", click "8 photos", click the photo "Sunset over Siena", select "8" in "rating", click "rate"`,
			`{signin}, open the Tuscany 2023 album under Holidays, show its photos, open Sunset over Siena and rate it 8`,
			`{signin} Then find the photo "Sunset over Siena": it is in the Tuscany 2023 album inside Holidays (click the photos link of the album to see them). Open it and give it a rating of 8 with the rating drop-down, then press rate.`,
		},
		done: func(t testing.TB, z *testenv.Zoph) string {
			return z.Differs(t, testenv.ZophState{"photo_ratings": {zophFile(zophRated) + " / admin": {"rating": zophRating}}})
		},
		do:   func(t testing.TB, b *testenv.ZophBrowser) { b.Rate(t, zophTuscany, zophRated, zophRating) },
		miss: func(t testing.TB, b *testenv.ZophBrowser) { b.Rate(t, zophTuscany, zophMissRated, zophRating) },
	},
	{
		name: "describe a photo",
		phrasings: [3]string{
			`{signin}, click "albums", click "Holidays", click "Tuscany 2023", click "8 photos", click the photo "Ponte Vecchio", click "edit", type "Our first evening in Florence, seen from the Uffizi" into "description", click "update"`,
			`{signin}, open the photo Ponte Vecchio in Holidays > Tuscany 2023, edit it and set its description to "Our first evening in Florence, seen from the Uffizi"`,
			`{signin} In the Tuscany 2023 album (it's under Holidays) open the photos and click the one called Ponte Vecchio. Click edit and write "Our first evening in Florence, seen from the Uffizi" in its description box, then click update.`,
		},
		done: func(t testing.TB, z *testenv.Zoph) string {
			return z.Differs(t, testenv.ZophState{"photos": {zophFile(zophDescribed): {"description": zophDescription}}})
		},
		do: func(t testing.TB, b *testenv.ZophBrowser) {
			b.EditPhoto(t, zophTuscany, zophDescribed, map[string]string{"description": zophDescription})
		},
		miss: func(t testing.TB, b *testenv.ZophBrowser) {
			b.EditPhoto(t, zophTuscany, zophMissDescribed, map[string]string{"description": zophDescription})
		},
	},
	{
		name: "add a photo to another album",
		phrasings: [3]string{
			`{signin}, click "albums", click "Holidays", click "Brittany 2022", click "6 photos", click the photo "Picnic at Plage du Goviro", click "edit", type "Best of 2022" into the empty albums field, choose "Best of 2022" from the suggestions, click "update"`,
			`{signin}, open Picnic at Plage du Goviro (Holidays > Brittany 2022), edit it and add it to the album Best of 2022`,
			`{signin} I want the picnic photo in our best-of album too: open Holidays, then Brittany 2022 and its photos, click "Picnic at Plage du Goviro" and edit it. In the albums part type Best of 2022 into the empty box, pick it from the list that pops up and click update.`,
		},
		done: func(t testing.TB, z *testenv.Zoph) string {
			return z.Differs(t, testenv.ZophState{"photo_albums": {zophFile(zophPicnic) + " > " + zophBest: {"linked": "yes"}}})
		},
		do:   func(t testing.TB, b *testenv.ZophBrowser) { b.AddToAlbum(t, zophBrittany, zophPicnic, zophBest) },
		miss: func(t testing.TB, b *testenv.ZophBrowser) { b.AddToAlbum(t, zophBrittany, zophPicnic, zophMissBest) },
	},
	{
		name: "change a setting",
		phrasings: [3]string{
			`{signin}, click "admin", click "config", type "Berger Family Photos" into "Title", click "submit"`,
			`{signin}, then in admin > config change the Title to Berger Family Photos and submit`,
			`{signin} I'd like our family name on the site: go to admin, open config and replace the Title (it says Zoph now) with "Berger Family Photos". Submit the page at the bottom to save it.`,
		},
		done: func(t testing.TB, z *testenv.Zoph) string {
			return z.Differs(t, testenv.ZophState{"conf": {"interface.title": {"value": zophTitle}}})
		},
		do: func(t testing.TB, b *testenv.ZophBrowser) {
			b.Configure(t, map[string]string{"interface.title": zophTitle})
		},
		miss: func(t testing.TB, b *testenv.ZophBrowser) {
			b.Configure(t, map[string]string{"interface.title": zophMissTitle})
		},
	},
}

// zophFile is the file name of the seed's photo titled title.
func zophFile(title string) string {
	for _, p := range testenv.ZophPhotos {
		if p.Title == title {
			return p.File
		}
	}
	return "(no photo " + title + ")"
}

// zophRenamed says whether the category Food is named to now, as it was otherwise, its
// photos with it, and nothing else changed.
func zophRenamed(t testing.TB, z *testenv.Zoph, to string) string {
	seed := z.Seed()
	changes := testenv.ZophState{"categories": {zophCategory: nil, to: seed["categories"][zophCategory]}, "photo_categories": {}}
	for key, row := range seed["photo_categories"] {
		if photo, ok := strings.CutSuffix(key, " > "+zophCategory); ok {
			changes["photo_categories"][key] = nil
			changes["photo_categories"][photo+" > "+to] = row
		}
	}
	return z.Differs(t, changes)
}

// zophForget is the change that deleting the album named name makes: the album gone, and
// its photos no longer in it (the photos themselves stay).
func zophForget(seed testenv.ZophState, name string) testenv.ZophState {
	changes := testenv.ZophState{"albums": {name: nil}, "photo_albums": {}}
	for key := range seed["photo_albums"] {
		if strings.HasSuffix(key, " > "+name) {
			changes["photo_albums"][key] = nil
		}
	}
	return changes
}

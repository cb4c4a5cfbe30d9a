package testenv

import (
	"strings"
	"testing"
)

// The goals' effects as Zoph's pages make them: each opens the page a person starts from
// (an album's, a category's, a photo's page), follows the link of its action bar a person
// clicks and sends the form that link leads to.

// NewAlbum opens the album parent, clicks "new" and inserts an album named name in it.
func (b *ZophBrowser) NewAlbum(t testing.TB, parent, name string) {
	t.Helper()
	id := b.ID(t, "albums", "album_id", "album", parent)
	b.Open(t, "/album.php?album_id="+id)
	b.Click(t, "new", "_action=new&amp;parent_album_id="+id)
	b.Save(t, `action="album.php"`, map[string]string{"album": name})
}

// DeleteAlbum opens the album named name, clicks "delete" and then "confirm".
func (b *ZophBrowser) DeleteAlbum(t testing.TB, name string) {
	t.Helper()
	id := b.ID(t, "albums", "album_id", "album", name)
	b.Open(t, "/album.php?album_id="+id)
	b.Click(t, "delete", "_action=delete&amp;album_id="+id)
	b.Click(t, "confirm", "_action=confirm&amp;album_id="+id)
}

// RenameCategory opens the category named name, clicks "edit" and updates its name.
func (b *ZophBrowser) RenameCategory(t testing.TB, name, to string) {
	t.Helper()
	id := b.ID(t, "categories", "category_id", "category", name)
	b.Open(t, "/category.php?category_id="+id)
	b.Click(t, "edit", "_action=edit&amp;category_id="+id)
	b.Save(t, `action="category.php"`, map[string]string{"category": to})
}

// NewPerson opens the person named from (a person's page has the "new" link), clicks "new"
// and inserts a person with the first and last name given.
func (b *ZophBrowser) NewPerson(t testing.TB, from, first, last string) {
	t.Helper()
	id := b.ID(t, "people", "person_id", "CONCAT(first_name, ' ', last_name)", from)
	b.Open(t, "/person.php?person_id="+id)
	b.Click(t, "new", "person.php?_action=new")
	b.Save(t, `action="person.php"`, map[string]string{"first_name": first, "last_name": last})
}

// NewPlace opens the place parent, clicks "new" and submits a place in it with the title,
// city and country given.
func (b *ZophBrowser) NewPlace(t testing.TB, parent, title, city, country string) {
	t.Helper()
	id := b.ID(t, "places", "place_id", "title", parent)
	b.Open(t, "/place.php?place_id="+id)
	b.Click(t, "new", "_action=new&amp;parent_place_id="+id)
	b.Save(t, `action="place.php"`, map[string]string{"title": title, "city": city, "country": country})
}

// OpenPhoto opens the photos of the album and the page of the photo titled title from its
// thumbnail; it returns the photo's id.
func (b *ZophBrowser) OpenPhoto(t testing.TB, album, title string) string {
	t.Helper()
	id := b.ID(t, "photos", "photo_id", "title", title)
	b.Open(t, "/photos.php?album_id="+b.ID(t, "albums", "album_id", "album", album))
	if !strings.Contains(b.page, `alt="`+title+`"`) {
		t.Fatalf("zoph: the photos of %s show no thumbnail of %q:\n%s", album, title, ZophText(b.page))
	}
	b.Open(t, "/photo.php?photo_id="+id)
	return id
}

// Rate opens the photo titled title from its album and rates it.
func (b *ZophBrowser) Rate(t testing.TB, album, title, rating string) {
	t.Helper()
	b.OpenPhoto(t, album, title)
	b.Save(t, `id="ratingform"`, map[string]string{"rating": rating})
}

// EditPhoto opens the photo titled title from its album, clicks "edit" and updates it
// with fields set.
func (b *ZophBrowser) EditPhoto(t testing.TB, album, title string, fields map[string]string) {
	t.Helper()
	id := b.OpenPhoto(t, album, title)
	b.Click(t, "edit", "_action=edit&photo_id="+id)
	b.Save(t, `action="photo.php"`, fields)
}

// AddToAlbum opens the photo titled title from its album, clicks "edit", picks the album
// to in the albums' field (the id its autocomplete fills in) and updates the photo.
func (b *ZophBrowser) AddToAlbum(t testing.TB, album, title, to string) {
	t.Helper()
	b.EditPhoto(t, album, title, map[string]string{"_album_id[0]": b.ID(t, "albums", "album_id", "album", to), "__album_id[0]": to})
}

// Configure opens admin, clicks "config" and submits the configuration with fields set
// (the form's names as the page writes them; PHP reads a dot in a name as "_").
func (b *ZophBrowser) Configure(t testing.TB, fields map[string]string) {
	t.Helper()
	b.Open(t, "/admin.php")
	b.Click(t, "config", "config.php")
	b.Save(t, `class="config"`, fields)
}

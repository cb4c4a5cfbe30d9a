//go:build heldout

package e2e

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// shaarliGoal is an everyday goal on Shaarli, written three ways as a person writes it from
// what the pages show ({signin} and {url} are filled in per phrasing and instance); done
// reads what Shaarli stored (its datastore and its configuration file) and says "" when
// the goal's effect is there and nothing else it checks changed, else what it found; do
// makes the effect through Shaarli's own forms and links along the goal's path, signed in,
// and miss a near miss the judge must not take for it (what a run gone a little wrong
// leaves: another value, text appended to rather than replaced, another bookmark, a box
// left unticked).
type shaarliGoal struct {
	name      string
	phrasings [3]string
	done      func(t testing.TB, w *testenv.Shaarli) string
	do, miss  func(t testing.TB, w *testenv.Shaarli, b *testenv.ShaarliBrowser)
}

const (
	shaarliRustURL      = "https://www.rust-lang.org/learn"
	shaarliRustTitle    = "Learn Rust"
	shaarliRustText     = "Books and courses for Rust beginners."
	shaarliPostgresURL  = "https://www.postgresql.org/docs/current/"
	shaarliPostgres16   = "PostgreSQL 16 manual"
	shaarliPostgresText = "SQL reference for version 16."
	shaarliOldWikiURL   = "https://wiki.example.com/old"
	shaarliHolidaysURL  = "https://intranet.example.com/holidays"
	shaarliHolidays     = "Holiday calendar"
	shaarliNewTitle     = "Reading List"
	shaarliSourdoughURL = "https://bread.example.org/sourdough-starter"
)

var shaarliGoals = []shaarliGoal{
	{
		name: "add a link with tags",
		phrasings: [3]string{
			`{signin}, click "Shaare", type "https://www.rust-lang.org/learn" into "URL or leave empty to post a note", click "Add link", type "Learn Rust" into "Title", type "Books and courses for Rust beginners." into "Description", type "rust programming" into "Tags", click "Save", then check that "Learn Rust" is visible`,
			`{signin}, then press "Shaare", fill the URL field with https://www.rust-lang.org/learn and press "Add link"; fill "Title" with "Learn Rust", "Description" with "Books and courses for Rust beginners." and "Tags" with "rust programming", and press "Save"`,
			`Sign in: {signin}. Then click the Shaare button, enter "https://www.rust-lang.org/learn" in the field labelled "URL or leave empty to post a note" and click Add link. Write Learn Rust in the Title field, "Books and courses for Rust beginners." in the Description field and "rust programming" in the field labelled "Tags", then click the Save button and make sure "Learn Rust" is visible.`,
		},
		done: func(t testing.TB, w *testenv.Shaarli) string {
			return shaarliExactly(w, map[string]*testenv.ShaarliBookmark{shaarliRustURL: {Title: shaarliRustTitle, Description: shaarliRustText, Tags: []string{"rust", "programming"}}})
		},
		do: func(t testing.TB, w *testenv.Shaarli, b *testenv.ShaarliBrowser) {
			shaarliAdd(t, b, shaarliRustURL, url.Values{"lf_title": {shaarliRustTitle}, "lf_description": {shaarliRustText}, "lf_tags": {"rust programming"}})
		},
		miss: func(t testing.TB, w *testenv.Shaarli, b *testenv.ShaarliBrowser) {
			shaarliAdd(t, b, shaarliRustURL, url.Values{"lf_title": {shaarliRustTitle}, "lf_description": {shaarliRustText}, "lf_tags": {"rust"}})
		},
	},
	{
		name: "edit a link's title and description",
		phrasings: [3]string{
			`{signin}, click the "Edit" icon of "PostgreSQL manual", replace "Title" with "PostgreSQL 16 manual", replace "Description" with "SQL reference for version 16.", click "Apply Changes", then check that "PostgreSQL 16 manual" is visible`,
			`{signin}, then find "PostgreSQL manual" and press its Edit button (the pencil), change the "Title" field to "PostgreSQL 16 manual" and the "Description" field to "SQL reference for version 16." and press "Apply Changes"`,
			`Sign in first: {signin}. Next to the bookmark "PostgreSQL manual", click the Edit icon. Clear the Title field and type PostgreSQL 16 manual, clear the field labelled "Description" and type "SQL reference for version 16.", then click the Apply Changes button and make sure "PostgreSQL 16 manual" is visible.`,
		},
		done: func(t testing.TB, w *testenv.Shaarli) string {
			return shaarliExactly(w, map[string]*testenv.ShaarliBookmark{shaarliPostgresURL: shaarliSeedWith(shaarliPostgresURL, func(bm *testenv.ShaarliBookmark) {
				bm.Title, bm.Description = shaarliPostgres16, shaarliPostgresText
			})})
		},
		do: func(t testing.TB, w *testenv.Shaarli, b *testenv.ShaarliBrowser) {
			shaarliEdit(t, b, "/", "PostgreSQL manual", url.Values{"lf_title": {shaarliPostgres16}, "lf_description": {shaarliPostgresText}})
		},
		miss: func(t testing.TB, w *testenv.Shaarli, b *testenv.ShaarliBrowser) {
			shaarliEdit(t, b, "/", "PostgreSQL manual", url.Values{"lf_title": {shaarliPostgres16},
				"lf_description": {shaarliSeedWith(shaarliPostgresURL, nil).Description + " " + shaarliPostgresText}})
		},
	},
	{
		name: "delete a link",
		phrasings: [3]string{
			`{signin}, click the "Delete" icon of "Old team wiki" and confirm`,
			`{signin}, then press the Delete button (the trash can) next to "Old team wiki" and press OK when asked "Are you sure you want to delete this link?"`,
			`Sign in: {signin}. Find the bookmark "Old team wiki", click its Delete icon and accept the confirmation, then make sure "Old team wiki" is no longer listed.`,
		},
		done: func(t testing.TB, w *testenv.Shaarli) string {
			return shaarliExactly(w, map[string]*testenv.ShaarliBookmark{shaarliOldWikiURL: nil})
		},
		do: func(t testing.TB, w *testenv.Shaarli, b *testenv.ShaarliBrowser) {
			shaarliDelete(t, b, "Old team wiki")
		},
		miss: func(t testing.TB, w *testenv.Shaarli, b *testenv.ShaarliBrowser) {
			shaarliDelete(t, b, "Hiking trails near Grenoble")
		},
	},
	{
		name: "add a private link",
		phrasings: [3]string{
			`{signin}, click "Shaare", type "https://intranet.example.com/holidays" into "URL or leave empty to post a note", click "Add link", type "Holiday calendar" into "Title", tick "Private", click "Save", then check that "Holiday calendar" is visible`,
			`{signin}, press "Shaare", fill the URL field with "https://intranet.example.com/holidays" and press "Add link", then fill "Title" with Holiday calendar, check the "Private" box and press "Save"`,
			`Sign in first: {signin}. Click the Shaare button, type https://intranet.example.com/holidays into the field labelled "URL or leave empty to post a note" and click Add link. Type "Holiday calendar" into the Title field, tick the checkbox labelled "Private", then click the Save button.`,
		},
		done: func(t testing.TB, w *testenv.Shaarli) string {
			// What the goal leaves unsaid (a description, tags) is not checked.
			return shaarliExactly(w, map[string]*testenv.ShaarliBookmark{shaarliHolidaysURL: {Title: shaarliHolidays, Description: "*", Private: true}})
		},
		do: func(t testing.TB, w *testenv.Shaarli, b *testenv.ShaarliBrowser) {
			shaarliAdd(t, b, shaarliHolidaysURL, url.Values{"lf_title": {shaarliHolidays}, "lf_private": {"on"}})
		},
		miss: func(t testing.TB, w *testenv.Shaarli, b *testenv.ShaarliBrowser) {
			shaarliAdd(t, b, shaarliHolidaysURL, url.Values{"lf_title": {shaarliHolidays}})
		},
	},
	{
		name: "change the site's title",
		phrasings: [3]string{
			`{signin}, click "Tools", click "Configure your Shaarli", replace "Shaarli title" with "Reading List", click "Save", then check that "Reading List" is visible`,
			`{signin}, then go to {url}/admin/configure, change the "Shaarli title" field to Reading List and press "Save"`,
			`Sign in: {signin}. Click Tools, then click the "Configure your Shaarli" button. Clear the field labelled "Shaarli title", type "Reading List" into it, click the Save button and make sure "Reading List" is visible.`,
		},
		done: func(t testing.TB, w *testenv.Shaarli) string { return shaarliTitled(w, shaarliNewTitle) },
		do: func(t testing.TB, w *testenv.Shaarli, b *testenv.ShaarliBrowser) {
			shaarliConfigure(t, b, shaarliNewTitle)
		},
		miss: func(t testing.TB, w *testenv.Shaarli, b *testenv.ShaarliBrowser) {
			shaarliConfigure(t, b, testenv.ShaarliTitle+" "+shaarliNewTitle)
		},
	},
	{
		name: "filter by a tag, then add a tag to a link",
		phrasings: [3]string{
			`{signin}, type "baking" into "Filter by tag", click the search button, click the "Edit" icon of "Sourdough starter guide", add "bread" to "Tags", click "Apply Changes"`,
			`{signin}, then click the tag "baking" under one of the bookmarks, press the Edit button of "Sourdough starter guide", set "Tags" to "baking recipes bread" and press "Apply Changes", then verify that "bread" is visible`,
			`Sign in first: {signin}. Type baking into the field labelled "Filter by tag" and press Enter. In the results, click the Edit icon of "Sourdough starter guide", change the Tags field so that it holds "baking recipes bread", then click the Apply Changes button.`,
		},
		done: func(t testing.TB, w *testenv.Shaarli) string {
			return shaarliExactly(w, map[string]*testenv.ShaarliBookmark{shaarliSourdoughURL: shaarliSeedWith(shaarliSourdoughURL, func(bm *testenv.ShaarliBookmark) {
				bm.Tags = []string{"baking", "recipes", "bread"}
			})})
		},
		do: func(t testing.TB, w *testenv.Shaarli, b *testenv.ShaarliBrowser) {
			shaarliEdit(t, b, "/?"+url.Values{"searchterm": {""}, "searchtags": {"baking"}}.Encode(), "Sourdough starter guide", url.Values{"lf_tags": {"baking recipes bread"}})
		},
		miss: func(t testing.TB, w *testenv.Shaarli, b *testenv.ShaarliBrowser) {
			shaarliEdit(t, b, "/?"+url.Values{"searchterm": {""}, "searchtags": {"baking"}}.Encode(), "Sourdough starter guide", url.Values{"lf_tags": {"bread"}})
		},
	},
	{
		name: "rename a tag",
		phrasings: [3]string{
			`{signin}, click "Tools", click "Manage tags", type "docs" into "Tag", type "documentation" into "New name", click "Rename tag", then check that "documentation" is visible`,
			`{signin}, then press "Tools" and then "Manage tags", fill "Tag" with docs and "New name" with documentation and press "Rename tag"`,
			`Sign in: {signin}. Click Tools, then click the "Manage tags" button. Type "docs" into the field labelled "Tag" and "documentation" into the New name field, then click the Rename tag button and make sure "documentation" is visible.`,
		},
		done: func(t testing.TB, w *testenv.Shaarli) string {
			changes := map[string]*testenv.ShaarliBookmark{}
			for _, bm := range testenv.ShaarliSeed {
				for i, tag := range bm.Tags {
					if tag == "docs" {
						changes[bm.URL] = shaarliSeedWith(bm.URL, func(bm *testenv.ShaarliBookmark) {
							bm.Tags = append(append(append([]string{}, bm.Tags[:i]...), "documentation"), bm.Tags[i+1:]...)
						})
					}
				}
			}
			return shaarliExactly(w, changes)
		},
		do: func(t testing.TB, w *testenv.Shaarli, b *testenv.ShaarliBrowser) {
			status, loc, body := b.Submit(t, "/admin/tags", `name="changetag"`, url.Values{"fromtag": {"docs"}, "totag": {"documentation"}}, "renametag")
			if status != http.StatusFound || !strings.Contains(b.Get(t, loc), "documentation") {
				t.Fatalf("renaming the tag answered %d (to %q):\n%s", status, loc, body)
			}
		},
		miss: func(t testing.TB, w *testenv.Shaarli, b *testenv.ShaarliBrowser) {
			// The tag renamed on one of its two bookmarks, by hand.
			shaarliEdit(t, b, "/", "Go documentation", url.Values{"lf_tags": {"go documentation"}})
		},
	},
}

// shaarliSave sends the bookmark form on the page at path (the new-bookmark form, whose
// button reads "Save", or a bookmark's edit form, where it reads "Apply Changes") with
// fields changed, and presses that button; Shaarli answers by redirecting to the list.
func shaarliSave(t testing.TB, b *testenv.ShaarliBrowser, path string, fields url.Values) {
	t.Helper()
	status, loc, body := b.Submit(t, path, `name="linkform"`, fields, "save_edit")
	if status != http.StatusFound {
		t.Fatalf("saving the bookmark form of %s answered %d (to %q):\n%s", path, status, loc, body)
	}
}

// shaarliAdd adds a bookmark as the Shaare button's page does: its "Add link" form (a GET
// form) leads to the new bookmark's form, which is filled and saved.
func shaarliAdd(t testing.TB, b *testenv.ShaarliBrowser, u string, fields url.Values) {
	t.Helper()
	status, _, page := b.Submit(t, "/admin/add-shaare", `name="addform"`, url.Values{"post": {u}}, "")
	if status != http.StatusOK || !strings.Contains(page, `name="linkform"`) {
		t.Fatalf("the Add link form answered %d:\n%s", status, page)
	}
	shaarliSave(t, b, "/admin/shaare?"+url.Values{"post": {u}}.Encode(), fields)
}

// shaarliEdit opens the list at path, follows the Edit icon of the bookmark titled title
// and saves its form with fields changed.
func shaarliEdit(t testing.TB, b *testenv.ShaarliBrowser, path, title string, fields url.Values) {
	t.Helper()
	edit := testenv.ItemLink(b.Get(t, path), title, "Edit")
	if edit == "" {
		t.Fatalf("no Edit icon for %q on %s", title, path)
	}
	shaarliSave(t, b, edit, fields)
}

// shaarliDelete follows the Delete icon of the bookmark titled title on the front page (the
// page's script asks for a confirmation first, then opens the link).
func shaarliDelete(t testing.TB, b *testenv.ShaarliBrowser, title string) {
	t.Helper()
	del := testenv.ItemLink(b.Get(t, "/"), title, "Delete")
	if del == "" {
		t.Fatalf("no Delete icon for %q on the front page", title)
	}
	b.Get(t, del)
}

// shaarliConfigure saves the Configure page (Tools, "Configure your Shaarli") with a new
// title and every other setting as the page shows it.
func shaarliConfigure(t testing.TB, b *testenv.ShaarliBrowser, title string) {
	t.Helper()
	status, loc, body := b.Submit(t, "/admin/configure", `name="configform"`, url.Values{"title": {title}}, "save")
	if status != http.StatusFound || !strings.Contains(b.Get(t, loc), "Configuration was saved") {
		t.Fatalf("saving the Configure page answered %d (to %q):\n%s", status, loc, body)
	}
}

// shaarliSeedWith is a copy of the seed's bookmark at u, changed by change (if any).
func shaarliSeedWith(u string, change func(*testenv.ShaarliBookmark)) *testenv.ShaarliBookmark {
	bm, ok := testenv.ShaarliFind(testenv.ShaarliSeed, u)
	if !ok {
		panic("no seed bookmark " + u)
	}
	bm.Tags = append([]string{}, bm.Tags...)
	if change != nil {
		change(&bm)
	}
	return &bm
}

// shaarliExactly says whether the stored bookmarks are exactly the seed's with changes —
// URL → the bookmark there instead (nil: gone; a URL the seed lacks: a new bookmark) —
// compared by title, description ("*": not compared), tags (in any order; nil: not
// compared), visibility and pinning — and whether the settings are the fresh instance's,
// but for those named in changed.
func shaarliExactly(w *testenv.Shaarli, changes map[string]*testenv.ShaarliBookmark, changed ...string) string {
	want := map[string]*testenv.ShaarliBookmark{}
	for _, bm := range testenv.ShaarliSeed {
		want[bm.URL] = shaarliSeedWith(bm.URL, nil)
	}
	for u, bm := range changes {
		if bm == nil {
			delete(want, u)
		} else {
			want[u] = bm
		}
	}
	got, err := w.Bookmarks()
	if err != nil {
		return err.Error()
	}
	var missing, extra []string
	for u := range want {
		if _, ok := testenv.ShaarliFind(got, u); !ok {
			missing = append(missing, u)
		}
	}
	for _, bm := range got {
		if _, ok := want[bm.URL]; !ok {
			extra = append(extra, bm.URL)
		}
	}
	if len(got) != len(want) || len(missing)+len(extra) > 0 {
		slices.Sort(missing)
		return fmt.Sprintf("the bookmarks lack %q and hold %q: %s", missing, extra, shaarliList(got))
	}
	for _, bm := range got {
		x := want[bm.URL]
		switch {
		case strings.TrimSpace(bm.Title) != x.Title:
			return fmt.Sprintf("%s is titled %q", bm.URL, bm.Title)
		case x.Description != "*" && shaarliTyped(bm.Description) != x.Description:
			return fmt.Sprintf("%s is described %q", bm.URL, bm.Description)
		case x.Tags != nil && !testenv.SameTags(bm.Tags, x.Tags):
			return fmt.Sprintf("%s is tagged %q", bm.URL, bm.Tags)
		case bm.Private != x.Private:
			return fmt.Sprintf("%s is private: %v", bm.URL, bm.Private)
		case bm.Sticky:
			return fmt.Sprintf("%s is pinned", bm.URL)
		}
	}
	if diff := w.SettingsChanged(changed...); diff != "" {
		return "the settings changed: " + diff
	}
	return ""
}

// shaarliTyped is a description as typed: line ends as a textarea sends them aside, spaces
// around it trimmed.
func shaarliTyped(s string) string {
	return strings.TrimSpace(strings.ReplaceAll(s, "\r\n", "\n"))
}

// shaarliList is the bookmarks as `"title" <url> [tags]`, for a judge's answer.
func shaarliList(bms []testenv.ShaarliBookmark) string {
	parts := make([]string, len(bms))
	for i, bm := range bms {
		parts[i] = fmt.Sprintf("%q <%s> %q", bm.Title, bm.URL, bm.Tags)
	}
	return strings.Join(parts, ", ")
}

// shaarliTitled says whether the configuration names the site title, the other settings
// and the bookmarks being the fresh instance's.
func shaarliTitled(w *testenv.Shaarli, title string) string {
	conf, err := w.Settings()
	if err != nil {
		return err.Error()
	}
	if got := conf["general.title"]; got != fmt.Sprintf("%q", title) {
		return "the title is " + got
	}
	return shaarliExactly(w, nil, "general.title")
}

//go:build heldout

package e2e

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// radicaleGoal is an everyday goal in Radicale's web interface, written three ways as a
// person writes it from what the pages show (the Login form, the collections page's links,
// the Create and Edit forms' Title, Description, Type and Color, the Delete page's Yes);
// {signin} is filled in per phrasing. done reads the storage folder and says "" when the
// goal's effect is there and nothing else it checks changed, else what it found; do makes
// the effect through the WebDAV requests the web interface's forms send, and miss a near
// miss the judge must not take for it (another type, another collection, a value appended
// to or cut short).
type radicaleGoal struct {
	name      string
	phrasings [3]string
	done      func(t testing.TB, r *testenv.Radicale) string
	do, miss  func(t testing.TB, r *testenv.Radicale, c *testenv.RadicaleClient)
}

const (
	rdCalendarTitle = "Team Events"
	rdCalendarDesc  = "Parties and outings"
	rdBookTitle     = "Clients"
	rdTasksTitle    = "Chores"
	rdRenamed       = "Office"
	rdFriendsDesc   = "Climbing club and old classmates"
	rdRed           = "#ff0000"
	rdNewColor      = "#5a9e2f" // what the Create form's Color holds when nobody changes it: a random colour
)

var radicaleGoals = []radicaleGoal{
	{
		name: "create a calendar",
		phrasings: [3]string{
			`{signin}, click "Create new addressbook or calendar", type "Team Events" into "Title", type "Parties and outings" into "Description", click "Create", then check that "Team Events" is visible`,
			`{signin}, then press "Create new addressbook or calendar", fill "Title" with Team Events and "Description" with "Parties and outings", press "Create" and verify that "Team Events" is visible`,
			`{signin}. Click the "Create new addressbook or calendar" link. Type Team Events into the Title field, type "Parties and outings" into the field labelled "Description" and click the Create button. Make sure "Team Events" is visible.`,
		},
		done: func(t testing.TB, r *testenv.Radicale) string {
			return rdCreated(t, r, rdCalendarTitle, rdCalendarDesc, func(c testenv.RadicaleCollection) bool {
				return c.Tag() == "VCALENDAR" && slices.Contains(c.Components(), "VEVENT")
			})
		},
		do: func(t testing.TB, r *testenv.Radicale, c *testenv.RadicaleClient) {
			c.Create(t, testenv.RadicaleForm{Type: "CALENDAR_JOURNAL_TASKS", DisplayName: rdCalendarTitle, Description: rdCalendarDesc, Color: rdNewColor})
		},
		miss: func(t testing.TB, r *testenv.Radicale, c *testenv.RadicaleClient) {
			c.Create(t, testenv.RadicaleForm{Type: "ADDRESSBOOK", DisplayName: rdCalendarTitle, Description: rdCalendarDesc, Color: rdNewColor})
		},
	},
	{
		name: "create an address book",
		phrasings: [3]string{
			`{signin}, click "Create new addressbook or calendar", type "Clients" into "Title", select "addressbook" in "Type", click "Create", then check that "Clients" is visible`,
			`{signin}, press "Create new addressbook or calendar", fill "Title" with "Clients", choose addressbook from the "Type" list and press "Create"`,
			`{signin}. Click the link "Create new addressbook or calendar", then type Clients into the field labelled "Title", pick "addressbook" in the Type dropdown and click the Create button. Make sure "Clients" is visible.`,
		},
		done: func(t testing.TB, r *testenv.Radicale) string {
			return rdCreated(t, r, rdBookTitle, "*", func(c testenv.RadicaleCollection) bool { return c.Tag() == "VADDRESSBOOK" })
		},
		do: func(t testing.TB, r *testenv.Radicale, c *testenv.RadicaleClient) {
			c.Create(t, testenv.RadicaleForm{Type: "ADDRESSBOOK", DisplayName: rdBookTitle, Color: rdNewColor})
		},
		miss: func(t testing.TB, r *testenv.Radicale, c *testenv.RadicaleClient) {
			c.Create(t, testenv.RadicaleForm{Type: "CALENDAR_JOURNAL_TASKS", DisplayName: rdBookTitle, Color: rdNewColor})
		},
	},
	{
		name: "create a task list",
		phrasings: [3]string{
			`{signin}, click "Create new addressbook or calendar", type "Chores" into "Title", select "tasks" in "Type", click "Create", then check that "Chores" is visible`,
			`{signin}, then press "Create new addressbook or calendar"; fill "Title" with Chores, set the Type field to "tasks" and press "Create", and verify that "Chores" is visible`,
			`{signin}. Click "Create new addressbook or calendar". Type "Chores" into the Title field, choose tasks in the field labelled "Type", then click the Create button.`,
		},
		done: func(t testing.TB, r *testenv.Radicale) string {
			return rdCreated(t, r, rdTasksTitle, "*", func(c testenv.RadicaleCollection) bool { return c.Type() == "TASKS" })
		},
		do: func(t testing.TB, r *testenv.Radicale, c *testenv.RadicaleClient) {
			c.Create(t, testenv.RadicaleForm{Type: "TASKS", DisplayName: rdTasksTitle, Color: rdNewColor})
		},
		miss: func(t testing.TB, r *testenv.Radicale, c *testenv.RadicaleClient) {
			c.Create(t, testenv.RadicaleForm{Type: "CALENDAR_TASKS", DisplayName: rdTasksTitle, Color: rdNewColor})
		},
	},
	{
		name: "rename a calendar",
		phrasings: [3]string{
			`{signin}, click "Edit" under "Work", type "Office" into "Title", click "Save", then check that "Office" is visible`,
			`{signin}, press the Edit link of the "Work" calendar, then fill "Title" with "Office" and press "Save"; verify that "Office" is visible`,
			`{signin}. In the Work calendar, click Edit. Clear the field labelled "Title", type Office into the Title field and click the Save button. Make sure "Office" is visible.`,
		},
		done: func(t testing.TB, r *testenv.Radicale) string {
			return rdEdited(t, r, testenv.RadicaleWorkID, "D:displayname", func(v string) bool { return strings.TrimSpace(v) == rdRenamed })
		},
		do: func(t testing.TB, r *testenv.Radicale, c *testenv.RadicaleClient) {
			rdEdit(t, c, "Work", func(f *testenv.RadicaleForm) { f.DisplayName = rdRenamed })
		},
		miss: func(t testing.TB, r *testenv.Radicale, c *testenv.RadicaleClient) {
			rdEdit(t, c, "Work", func(f *testenv.RadicaleForm) { f.DisplayName = "Work " + rdRenamed })
		},
	},
	{
		name: "describe an address book",
		phrasings: [3]string{
			`{signin}, click "Edit" under "Friends", type "Climbing club and old classmates" into "Description", click "Save", then check that "Climbing club and old classmates" is visible`,
			`{signin}, then open the Edit link of the "Friends" address book, fill "Description" with "Climbing club and old classmates" and press "Save"`,
			`{signin}. Click Edit for the Friends address book, type "Climbing club and old classmates" into the field labelled "Description", then click Save and make sure "Climbing club and old classmates" is visible.`,
		},
		done: func(t testing.TB, r *testenv.Radicale) string {
			return rdEdited(t, r, testenv.RadicaleFriendsID, "CR:addressbook-description", func(v string) bool { return strings.TrimSpace(v) == rdFriendsDesc })
		},
		do: func(t testing.TB, r *testenv.Radicale, c *testenv.RadicaleClient) {
			rdEdit(t, c, "Friends", func(f *testenv.RadicaleForm) { f.Description = rdFriendsDesc })
		},
		miss: func(t testing.TB, r *testenv.Radicale, c *testenv.RadicaleClient) {
			rdEdit(t, c, "Friends", func(f *testenv.RadicaleForm) { f.Description = "Climbing club" })
		},
	},
	{
		name: "change a calendar's colour",
		phrasings: [3]string{
			`{signin}, click "Edit" under "Work", set "Color" to "#ff0000", click "Save"`,
			`{signin}, press Edit for the "Work" calendar, then change the Color field to #ff0000 and press "Save"`,
			`{signin}. Click the Edit link under Work, then set the field labelled "Color" to "#ff0000" (red) and click the Save button.`,
		},
		done: func(t testing.TB, r *testenv.Radicale) string {
			return rdEdited(t, r, testenv.RadicaleWorkID, "ICAL:calendar-color", func(v string) bool {
				v = strings.ToLower(strings.TrimSpace(v))
				return v == rdRed || v == rdRed+"ff"
			})
		},
		do: func(t testing.TB, r *testenv.Radicale, c *testenv.RadicaleClient) {
			rdEdit(t, c, "Work", func(f *testenv.RadicaleForm) { f.Color = rdRed })
		},
		miss: func(t testing.TB, r *testenv.Radicale, c *testenv.RadicaleClient) {
			rdEdit(t, c, "Friends", func(f *testenv.RadicaleForm) { f.Color = rdRed })
		},
	},
	{
		name: "delete a calendar",
		phrasings: [3]string{
			`{signin}, click "Delete" under "Old Projects", click "Yes", then check that "Old Projects" is not visible`,
			`{signin}, press the Delete link of the "Old Projects" calendar, then press "Yes" to confirm and verify that "Old Projects" is not visible`,
			`{signin}. Click Delete under Old Projects; when asked "Delete Old Projects?", click the Yes button. Make sure "Old Projects" is no longer visible.`,
		},
		done: func(t testing.TB, r *testenv.Radicale) string {
			if _, ok := r.Collection(t, testenv.RadicaleOldID); ok {
				return "the collection Old Projects is still there"
			}
			return rdOnly(t, r, "", testenv.RadicaleWorkID, testenv.RadicaleFriendsID)
		},
		do: func(t testing.TB, r *testenv.Radicale, c *testenv.RadicaleClient) {
			c.Delete(t, c.Form(t, "Old Projects").Href)
		},
		miss: func(t testing.TB, r *testenv.Radicale, c *testenv.RadicaleClient) {
			c.Delete(t, c.Form(t, "Work").Href)
		},
	},
}

// rdEdit opens the Edit form of the collection listed with this title, changes it and
// presses Save, as the web interface sends the whole form.
func rdEdit(t testing.TB, c *testenv.RadicaleClient, title string, change func(f *testenv.RadicaleForm)) {
	t.Helper()
	f := c.Form(t, title)
	change(&f)
	c.Edit(t, f)
}

// rdCreated says whether exactly one collection was added, titled title, described as
// description ("*" for a description not checked), of the kind is asks for and with no
// items, and the seed is as it was.
func rdCreated(t testing.TB, r *testenv.Radicale, title, description string, is func(c testenv.RadicaleCollection) bool) string {
	var added []testenv.RadicaleCollection
	for _, c := range r.Collections(t) {
		if _, ok := r.Seeded[c.ID]; !ok {
			added = append(added, c)
		}
	}
	if len(added) != 1 {
		return fmt.Sprintf("the collections added: %+v", added)
	}
	c := added[0]
	switch {
	case strings.TrimSpace(c.Title()) != title:
		return fmt.Sprintf("the new collection is titled %q", c.Title())
	case description != "*" && strings.TrimSpace(c.Description()) != description:
		return fmt.Sprintf("the new collection %q is described as %q", c.Title(), c.Description())
	case !is(c):
		return fmt.Sprintf("the new collection %q is a %s %q (%v)", c.Title(), c.Tag(), c.Type(), c.Props)
	case len(c.Items) > 0:
		return fmt.Sprintf("the new collection %q holds items %v", c.Title(), slices.Sorted(maps.Keys(c.Items)))
	}
	return rdOnly(t, r, "", append(slices.Clone(rdSeedIDs), c.ID)...)
}

// rdEdited says whether the seed collection id has the property prop changed to a value
// ok takes and every other property and item as seeded, and the rest of the seed is as
// it was with nothing added.
func rdEdited(t testing.TB, r *testenv.Radicale, id, prop string, ok func(v string) bool) string {
	seeded := r.Seeded[id]
	c, there := r.Collection(t, id)
	if !there {
		return fmt.Sprintf("the collection %q is gone", seeded.Title())
	}
	if v := c.Props[prop]; !ok(v) {
		return fmt.Sprintf("the collection %q has %s %q", seeded.Title(), prop, v)
	}
	if why := rdSame(seeded, c, prop); why != "" {
		return why
	}
	return rdOnly(t, r, id, rdSeedIDs...)
}

// rdSeedIDs are the seed collections' IDs.
var rdSeedIDs = []string{testenv.RadicaleWorkID, testenv.RadicaleFriendsID, testenv.RadicaleOldID}

// rdOnly says whether the user's collections are exactly these IDs and each seed
// collection among them is as seeded, but edited (checked by rdEdited itself; "" for
// none).
func rdOnly(t testing.TB, r *testenv.Radicale, edited string, ids ...string) string {
	cols := r.Collections(t)
	var have []string
	for _, c := range cols {
		have = append(have, c.ID)
	}
	slices.Sort(have)
	if want := slices.Sorted(slices.Values(ids)); !slices.Equal(have, want) {
		var titles []string
		for _, c := range cols {
			titles = append(titles, fmt.Sprintf("%q (%s)", c.Title(), c.ID))
		}
		return fmt.Sprintf("the collections are %s", strings.Join(titles, ", "))
	}
	for _, c := range cols {
		if seeded, ok := r.Seeded[c.ID]; ok && c.ID != edited {
			if why := rdSame(seeded, c, ""); why != "" {
				return why
			}
		}
	}
	return ""
}

// rdSame says whether c holds seeded's properties, all but except ("" for none), and its
// items, unchanged.
func rdSame(seeded, c testenv.RadicaleCollection, except string) string {
	for k, v := range seeded.Props {
		if k != except && c.Props[k] != v {
			return fmt.Sprintf("the collection %q has %s %q, not %q", seeded.Title(), k, c.Props[k], v)
		}
	}
	for k, v := range c.Props {
		if _, ok := seeded.Props[k]; !ok && k != except {
			return fmt.Sprintf("the collection %q gained %s %q", seeded.Title(), k, v)
		}
	}
	if !maps.Equal(seeded.Items, c.Items) {
		return fmt.Sprintf("the collection %q holds items %v, not %v", seeded.Title(), slices.Sorted(maps.Keys(c.Items)), slices.Sorted(maps.Keys(seeded.Items)))
	}
	return ""
}

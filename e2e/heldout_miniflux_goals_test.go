//go:build heldout

package e2e

import (
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// minifluxGoal is an everyday goal on Miniflux's pages, written three ways as a person
// writes it from what the pages show ({signin} is the phrasing's way of signing in, {feed}
// the address of the feed to subscribe to); done reads Miniflux's database and says ""
// when the goal's effect is there and nothing else the pages change did, else what it
// found; do makes the effect through the pages along the goal's path, and miss a near miss
// the judge must not take for it (another feed, category or entry, a neighbouring value).
type minifluxGoal struct {
	name      string
	phrasings [3]string
	done      func(t testing.TB, m *testenv.Miniflux) string
	do, miss  func(t testing.TB, b *testenv.MinifluxBrowser)
}

const (
	minifluxStarEntry   = "Why the Moon Is Slowly Drifting Away"
	minifluxNewUser     = "lucas"
	minifluxNewPassword = "Paper-Lantern-81"
)

var minifluxGoals = []minifluxGoal{
	{
		name: "subscribe to a feed in a category",
		phrasings: [3]string{
			`{signin}, click "Feeds", click "Add feed", type "{feed}" into "URL", select "Science" in "Category", click "Find a feed"`,
			`{signin}; subscribe to {feed} in the Science category via Feeds > Add feed, then hit Find a feed`,
			`{signin} I'd like to follow a new blog. Go to Feeds and choose "Add feed", paste {feed} into the URL field, choose "Science" from the Category list, and then press the "Find a feed" button so it gets subscribed.`,
		},
		done: func(t testing.TB, m *testenv.Miniflux) string { return minifluxSubscribed(t, m, "Science") },
		do:   func(t testing.TB, b *testenv.MinifluxBrowser) { minifluxSubscribe(t, b, "Science") },
		miss: func(t testing.TB, b *testenv.MinifluxBrowser) { minifluxSubscribe(t, b, "News") },
	},
	{
		name: "rename a category",
		phrasings: [3]string{
			`{signin}, click "Categories", click "Edit" under "News", type "World News" into "Title", click "Update"`,
			`{signin}, then rename the News category to World News: Categories, Edit next to News, change Title, press Update`,
			`{signin} Once you're in, open the Categories page and click Edit for the category called News. Replace its title with "World News" in the field labelled Title and hit the Update button.`,
		},
		done: func(t testing.TB, m *testenv.Miniflux) string {
			return minifluxExactly(t, m, func(s testenv.MinifluxState) {
				delete(s["category"], "admin>News")
				s["category"]["admin>World News"] = "hide_globally=false"
				for k, v := range s["feed"] {
					s["feed"][k] = strings.Replace(v, "category=News ", "category=World News ", 1)
				}
			})
		},
		do:   func(t testing.TB, b *testenv.MinifluxBrowser) { minifluxRename(t, b, "News") },
		miss: func(t testing.TB, b *testenv.MinifluxBrowser) { minifluxRename(t, b, "Science") },
	},
	{
		name: "move a feed to another category",
		phrasings: [3]string{
			`{signin}, click "Feeds", click "Edit" under "The Weekday Pantry", select "Cooking" in "Category", click "Update"`,
			`{signin}; move The Weekday Pantry feed into the Cooking category (Feeds, Edit, Category, Update)`,
			`{signin} The feed "The Weekday Pantry" is sitting in All but it belongs with my cooking stuff. Go to Feeds, click Edit on that feed, set the Category dropdown to Cooking and click Update. Leave everything else on the page as it is.`,
		},
		done: func(t testing.TB, m *testenv.Miniflux) string {
			return minifluxExactly(t, m, func(s testenv.MinifluxState) {
				k := "admin>" + m.FeedURL("/pantry/rss")
				s["feed"][k] = strings.Replace(s["feed"][k], "category=All ", "category=Cooking ", 1)
			})
		},
		do:   func(t testing.TB, b *testenv.MinifluxBrowser) { minifluxMove(t, b, "Cooking") },
		miss: func(t testing.TB, b *testenv.MinifluxBrowser) { minifluxMove(t, b, "Technology") },
	},
	{
		name: "star an entry",
		phrasings: [3]string{
			`{signin}, click "Feeds", click "Orbital Notes", click "Why the Moon Is Slowly Drifting Away", click "Star"`,
			`{signin}, then star the Orbital Notes article Why the Moon Is Slowly Drifting Away`,
			`{signin} Then find the feed Orbital Notes under Feeds, open the entry titled "Why the Moon Is Slowly Drifting Away" and press Star on it so I can come back to it later. Don't star anything else.`,
		},
		done: func(t testing.TB, m *testenv.Miniflux) string {
			return minifluxExactly(t, m, func(s testenv.MinifluxState) {
				k := "admin>" + m.FeedURL("/orbital/moon-drift")
				s["entry"][k] = strings.Replace(s["entry"][k], " starred=f ", " starred=t ", 1)
			})
		},
		do: func(t testing.TB, b *testenv.MinifluxBrowser) { minifluxStar(t, b, minifluxStarEntry) },
		miss: func(t testing.TB, b *testenv.MinifluxBrowser) {
			minifluxStar(t, b, "A Field Guide to the Winter Constellations")
		},
	},
	{
		name: "change the reading settings",
		phrasings: [3]string{
			`{signin}, click "Settings", type "25" into "Entries per page", select "Recent entries first" in "Entry sorting", click "Update"`,
			`{signin}, open Settings, set Entries per page to 25 and Entry sorting to Recent entries first, hit Update`,
			`{signin} In Settings I want newer articles shown first and shorter pages: change the field labelled "Entries per page" to 25, choose "Recent entries first" for Entry sorting, then click Update to save.`,
		},
		done: func(t testing.TB, m *testenv.Miniflux) string {
			return minifluxExactly(t, m, func(s testenv.MinifluxState) {
				s["user"]["admin"] = strings.NewReplacer(`"entries_per_page": 100,`, `"entries_per_page": 25,`,
					`"entry_direction": "asc",`, `"entry_direction": "desc",`).Replace(s["user"]["admin"])
			})
		},
		do:   func(t testing.TB, b *testenv.MinifluxBrowser) { minifluxSettings(t, b, "25") },
		miss: func(t testing.TB, b *testenv.MinifluxBrowser) { minifluxSettings(t, b, "20") },
	},
	{
		name: "add a user",
		phrasings: [3]string{
			`{signin}, click "Settings", click "Users", click "Add user", type "lucas" into "Username", type "Paper-Lantern-81" into "Password", type "Paper-Lantern-81" into "Password Confirmation", click "Save"`,
			`{signin}; create a new user lucas with password Paper-Lantern-81 (Settings > Users > Add user), not an administrator, then Save`,
			`{signin} My brother Lucas wants his own account. Go to Settings, then Users, and click "Add user". Put lucas as the Username, Paper-Lantern-81 in both Password and Password Confirmation, leave Administrator unticked, and press Save.`,
		},
		done: func(t testing.TB, m *testenv.Miniflux) string { return minifluxUserAdded(t, m, minifluxNewUser) },
		do:   func(t testing.TB, b *testenv.MinifluxBrowser) { minifluxAddUser(t, b, minifluxNewUser) },
		miss: func(t testing.TB, b *testenv.MinifluxBrowser) { minifluxAddUser(t, b, "lukas") },
	},
	{
		name: "remove a feed",
		phrasings: [3]string{
			`{signin}, click "Feeds", click "Remove" under "Harbour City Gazette", click "yes"`,
			`{signin}, then unsubscribe from Harbour City Gazette: Feeds, Remove on it, confirm with yes`,
			`{signin} I don't read the local paper any more, so please delete the feed "Harbour City Gazette". On the Feeds page press Remove next to it and answer yes when it asks "Are you sure?".`,
		},
		done: func(t testing.TB, m *testenv.Miniflux) string {
			return minifluxExactly(t, m, func(s testenv.MinifluxState) { minifluxUnsubscribe(s, m.FeedURL("/gazette/feed.xml")) })
		},
		do:   func(t testing.TB, b *testenv.MinifluxBrowser) { minifluxRemove(t, b, "Harbour City Gazette") },
		miss: func(t testing.TB, b *testenv.MinifluxBrowser) { minifluxRemove(t, b, "The Kernel Digest") },
	},
}

// minifluxExactly says whether the database holds the seed changed by change and nothing
// else.
func minifluxExactly(t testing.TB, m *testenv.Miniflux, change func(testenv.MinifluxState)) string {
	want := m.Seed()
	change(want)
	return m.Differs(t, want)
}

// minifluxUnsubscribe takes admin's feed feedURL out of the state with its entries, as
// Miniflux deletes them with it.
func minifluxUnsubscribe(s testenv.MinifluxState, feedURL string) {
	delete(s["feed"], "admin>"+feedURL)
	for k, v := range s["entry"] {
		if strings.HasPrefix(v, "feed="+feedURL+" ") {
			delete(s["entry"], k)
		}
	}
}

// minifluxSubscribed says whether the database holds the seed and admin's new subscription
// to the feed server's unsubscribed feed, in category, under the title the feed gives,
// with Miniflux's default settings and the feed's entries (none starred), and nothing else
// changed.
func minifluxSubscribed(t testing.TB, m *testenv.Miniflux, category string) string {
	got, seed := m.State(t), m.Seed()
	url := m.FeedURL(testenv.MinifluxNewFeed.Path)
	row, ok := got["feed"]["admin>"+url]
	if !ok {
		return "admin has no feed " + url
	}
	prefix := "category=" + category + " title=" + testenv.MinifluxNewFeed.Title + " "
	if !strings.HasPrefix(row, prefix) {
		return fmt.Sprintf("the feed %s is %q…, not %q…", url, row[:strings.Index(row+" {", " {")], prefix)
	}
	like := seed["feed"]["admin>"+m.FeedURL("/kernel-digest/rss.xml")]
	if why := minifluxDefaults(row[len(prefix):], like[strings.Index(like, " {")+1:]); why != "" {
		return "the new feed's settings are not Miniflux's defaults: " + why
	}
	entries := 0
	for _, v := range got["entry"] {
		if strings.HasPrefix(v, "feed="+url+" starred=f ") {
			entries++
		}
	}
	if entries != len(testenv.MinifluxNewFeed.Entries) {
		return fmt.Sprintf("the new feed has %d entries not starred, not %d", entries, len(testenv.MinifluxNewFeed.Entries))
	}
	minifluxUnsubscribe(got, url)
	return got.Diff(seed)
}

// minifluxDefaults says how a feed's settings (JSON) differ from like's, another feed
// subscribed with the defaults, but for what each feed's document gives it ("" when they
// do not).
func minifluxDefaults(settings, like string) string {
	var got, want map[string]any
	if err := json.Unmarshal([]byte(settings), &got); err != nil {
		return err.Error()
	}
	if err := json.Unmarshal([]byte(like), &want); err != nil {
		return err.Error()
	}
	for _, own := range []string{"site_url", "description", "language"} {
		want[own] = got[own]
	}
	var out []string
	for _, k := range slices.Sorted(maps.Keys(got)) {
		if !reflect.DeepEqual(got[k], want[k]) {
			out = append(out, fmt.Sprintf("%s is %v, not %v", k, got[k], want[k]))
		}
	}
	return strings.Join(out, ", ")
}

// minifluxUserAdded says whether the database holds the seed and a new user, no
// administrator, with the goal's password, the settings a new user gets (those of the
// seed's emma) and the category All Miniflux makes with it, and nothing else changed.
func minifluxUserAdded(t testing.TB, m *testenv.Miniflux, user string) string {
	got, seed := m.State(t), m.Seed()
	row, ok := got["user"][user]
	if !ok {
		return "no user " + user
	}
	if want := seed["user"]["emma"]; row != want {
		return fmt.Sprintf("%s's settings are %s, not %s", user, row, want)
	}
	if !m.PasswordIs(t, user, minifluxNewPassword) {
		return user + "'s password is not " + minifluxNewPassword
	}
	delete(got["user"], user)
	delete(got["category"], user+">All")
	return got.Diff(seed)
}

// minifluxFeeds opens the Feeds page from the menu.
func minifluxFeeds(t testing.TB, b *testenv.MinifluxBrowser) {
	t.Helper()
	b.Open(t, "/unread")
	b.ClickText(t, "Feeds", "")
}

// minifluxSubscribe follows Feeds and Add feed, fills URL with the feed server's new feed,
// picks category and presses Find a feed.
func minifluxSubscribe(t testing.TB, b *testenv.MinifluxBrowser, category string) {
	t.Helper()
	m := b.Miniflux()
	minifluxFeeds(t, b)
	b.ClickText(t, "Add feed", "")
	f := b.Form(t, "/subscribe")
	f.Fields.Set("url", m.FeedURL(testenv.MinifluxNewFeed.Path))
	f.Fields.Set("category_id", m.CategoryID(t, category))
	b.Send(t, f)
}

// minifluxRename follows Categories and category's Edit, and saves the title World News.
func minifluxRename(t testing.TB, b *testenv.MinifluxBrowser, category string) {
	t.Helper()
	b.Open(t, "/unread")
	b.ClickText(t, "Categories", "")
	b.ClickText(t, "Edit", category)
	f := b.Form(t, "/category/"+b.Miniflux().CategoryID(t, category)+"/update")
	f.Fields.Set("title", "World News")
	b.Send(t, f)
}

// minifluxMove follows Feeds and The Weekday Pantry's Edit, picks category and presses
// Update.
func minifluxMove(t testing.TB, b *testenv.MinifluxBrowser, category string) {
	t.Helper()
	m := b.Miniflux()
	minifluxFeeds(t, b)
	b.ClickText(t, "Edit", "The Weekday Pantry")
	f := b.Form(t, "/feed/"+m.FeedID(t, "The Weekday Pantry")+"/update")
	f.Fields.Set("category_id", m.CategoryID(t, category))
	b.Send(t, f)
}

// minifluxStar follows Feeds, Orbital Notes and the entry titled entry, and presses Star.
func minifluxStar(t testing.TB, b *testenv.MinifluxBrowser, entry string) {
	t.Helper()
	minifluxFeeds(t, b)
	b.ClickText(t, "Orbital Notes", "")
	b.ClickText(t, entry, "")
	b.Script(t, "/entry/star/"+b.Miniflux().EntryID(t, entry))
}

// minifluxSettings follows Settings, fills Entries per page, picks Recent entries first
// under Entry sorting and presses Update.
func minifluxSettings(t testing.TB, b *testenv.MinifluxBrowser, perPage string) {
	t.Helper()
	b.Open(t, "/unread")
	b.ClickText(t, "Settings", "")
	f := b.Form(t, "/settings")
	f.Fields.Set("entries_per_page", perPage)
	f.Fields.Set("entry_direction", "desc")
	b.Send(t, f)
}

// minifluxAddUser follows Settings, Users and Add user, fills the form for user with the
// goal's password and presses Save.
func minifluxAddUser(t testing.TB, b *testenv.MinifluxBrowser, user string) {
	t.Helper()
	b.Open(t, "/unread")
	b.ClickText(t, "Settings", "")
	b.ClickText(t, "Users", "")
	b.ClickText(t, "Add user", "")
	f := b.Form(t, "/user/save")
	f.Fields.Set("username", user)
	f.Fields.Set("password", minifluxNewPassword)
	f.Fields.Set("confirmation", minifluxNewPassword)
	b.Send(t, f)
}

// minifluxRemove presses the Remove of feed's row on Feeds and answers yes: the page's
// script sends the button's request.
func minifluxRemove(t testing.TB, b *testenv.MinifluxBrowser, feed string) {
	t.Helper()
	minifluxFeeds(t, b)
	b.Script(t, "/feed/"+b.Miniflux().FeedID(t, feed)+"/remove")
}

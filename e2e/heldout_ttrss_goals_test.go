//go:build heldout

package e2e

import (
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// ttrssGoal is an everyday goal on Tiny Tiny RSS, written three ways as a person writes it
// from what the reader's pages show ({signin} and {url} are filled in per phrasing and
// instance); done reads the reader's database and says "" when the goal's effect is there
// and nothing else it checks changed, else what it found; do makes the effect through the
// requests the reader's pages send (its menus, dialogs and forms), and miss a near miss the
// judge must not take for it (what a run gone a little wrong leaves: another article,
// another feed, another field, a label for a category).
type ttrssGoal struct {
	name      string
	phrasings [3]string
	done      func(t testing.TB, tt *testenv.TTRSS) string
	do, miss  func(t testing.TB, tt *testenv.TTRSS, b *testenv.TTRSSBrowser)
}

const (
	ttrssStarred     = "New coffee machine"
	ttrssOtherStar   = "Quarterly results"
	ttrssNewCategory = "Travel"
	ttrssPurgeDays   = "30"
)

var ttrssGoals = []ttrssGoal{
	{
		name: "star an article",
		phrasings: [3]string{
			`{signin}, then click the star next to "New coffee machine"`,
			`{signin}, press the star icon beside "New coffee machine" in the list of articles, then click "Starred articles" and check that "New coffee machine" is visible`,
			`{signin}. Star the article New coffee machine by clicking the star to the left of its title.`,
		},
		done: func(t testing.TB, tt *testenv.TTRSS) string {
			return ttrssExpect(t, tt, func(want, _ *ttrssState) { want.articles[ttrssStarred] += ", starred" })
		},
		do:   func(t testing.TB, tt *testenv.TTRSS, b *testenv.TTRSSBrowser) { ttrssStar(t, tt, b, ttrssStarred) },
		miss: func(t testing.TB, tt *testenv.TTRSS, b *testenv.TTRSSBrowser) { ttrssStar(t, tt, b, ttrssOtherStar) },
	},
	{
		name: "mark a feed as read",
		phrasings: [3]string{
			`{signin}, click the + next to "Work", click "Team News", click "Mark as read", then click "OK"`,
			`{signin}, expand the Work category, open the feed "Team News" and press "Mark as read" at the top; confirm with OK`,
			`{signin}. Under Work in the feed list, click Team News, then click the "Mark as read" button and answer OK when it asks whether to mark all articles in Team News as read.`,
		},
		done: ttrssTeamNewsRead,
		do: func(t testing.TB, tt *testenv.TTRSS, b *testenv.TTRSSBrowser) {
			ttrssCall(t, b, "op", "rpc", "method", "catchupFeed", "feed_id", tt.FeedID(t, testenv.TTRSSTeamNewsURL), "is_cat", "false", "mode", "")
		},
		miss: func(t testing.TB, tt *testenv.TTRSS, b *testenv.TTRSSBrowser) {
			// The other "Mark as read": the ☰ menu's, under "All feeds:".
			ttrssCall(t, b, "op", "feeds", "method", "catchupAll")
		},
	},
	{
		name: "subscribe to a feed",
		phrasings: [3]string{
			`{signin}, click the menu button at the top right, click "Subscribe to feed...", type "http://news.example/events.xml" into "Feed or site URL", then click "Subscribe"`,
			`{signin}, open the "Actions..." menu (the ☰ icon in the top right corner), choose "Subscribe to feed...", fill "Feed or site URL" with http://news.example/events.xml and press "Subscribe", then expand "Uncategorized" and check that "City Events" is visible`,
			`{signin}. Subscribe to the feed at http://news.example/events.xml: open the ☰ menu, pick Subscribe to feed..., put the address into the field labelled "Feed or site URL" and click the Subscribe button.`,
		},
		done: func(t testing.TB, tt *testenv.TTRSS) string {
			return ttrssExpect(t, tt, func(want, got *ttrssState) {
				// In whichever category the dialog placed it; tt-rss fetches no articles
				// until its next update, but where it did they are the feed's.
				want.feeds[testenv.TTRSSCityEventsURL] = testenv.TTRSSCityEvents + " in Uncategorized"
				if f := got.feeds[testenv.TTRSSCityEventsURL]; strings.HasPrefix(f, testenv.TTRSSCityEvents+" in ") {
					want.feeds[testenv.TTRSSCityEventsURL] = f
				}
				for title, a := range got.articles {
					if strings.HasPrefix(a, testenv.TTRSSCityEvents) {
						want.articles[title] = a
					}
				}
			})
		},
		do: func(t testing.TB, tt *testenv.TTRSS, b *testenv.TTRSSBrowser) {
			ttrssSubscribe(t, b, testenv.TTRSSCityEventsURL)
		},
		miss: func(t testing.TB, tt *testenv.TTRSS, b *testenv.TTRSSBrowser) {
			ttrssSubscribe(t, b, testenv.TTRSSEventsArchiveURL)
		},
	},
	{
		name: "unsubscribe from a feed",
		phrasings: [3]string{
			`{signin}, click the + next to "Uncategorized", click "Old Blog", click the menu button at the top right, click "Unsubscribe", then click "OK"`,
			`{signin}, expand Uncategorized and open "Old Blog", then choose "Unsubscribe" from the ☰ menu in the top right corner and confirm`,
			`{signin}. Open Preferences... from the menu at the top right, go to the Feeds tab, expand Uncategorized and click Old Blog; in the Edit Feed dialog press the red "Unsubscribe" button and click OK.`,
		},
		done: func(t testing.TB, tt *testenv.TTRSS) string {
			return ttrssExpect(t, tt, func(want, _ *ttrssState) {
				delete(want.feeds, testenv.TTRSSOldBlogURL)
				delete(want.articles, "Goodbye for now")
			})
		},
		do: func(t testing.TB, tt *testenv.TTRSS, b *testenv.TTRSSBrowser) {
			ttrssCall(t, b, "op", "pref-feeds", "quiet", "1", "method", "remove", "ids", tt.FeedID(t, testenv.TTRSSOldBlogURL))
		},
		miss: func(t testing.TB, tt *testenv.TTRSS, b *testenv.TTRSSBrowser) {
			ttrssCall(t, b, "op", "pref-feeds", "quiet", "1", "method", "remove", "ids", tt.FeedID(t, testenv.TTRSSBookClubURL))
		},
	},
	{
		name: "add a category",
		phrasings: [3]string{
			`{signin}, click the menu button at the top right, click "Preferences...", click "Feeds", click "Categories", click "Add category", type "Travel" and click "OK", then check that "Travel" is visible`,
			`{signin}, go to {url}/prefs.php, open the "Feeds" tab, choose "Add category" from the "Categories" menu, enter Travel as the "Category title" and press OK`,
			`{signin}. Open Preferences from the ☰ menu and switch to the Feeds tab. Click Categories, then Add category; when it asks for the category title, type Travel and confirm, and make sure Travel is visible.`,
		},
		done: func(t testing.TB, tt *testenv.TTRSS) string {
			return ttrssExpect(t, tt, func(want, _ *ttrssState) { want.categories = append(want.categories, ttrssNewCategory) })
		},
		do: func(t testing.TB, tt *testenv.TTRSS, b *testenv.TTRSSBrowser) {
			ttrssCall(t, b, "op", "pref-feeds", "method", "addCat", "cat", ttrssNewCategory)
		},
		miss: func(t testing.TB, tt *testenv.TTRSS, b *testenv.TTRSSBrowser) {
			// A label of that name instead (the Labels tab's "Create label" asks the same way).
			ttrssCall(t, b, "op", "pref-labels", "method", "add", "caption", ttrssNewCategory)
		},
	},
	{
		name: "move a feed into a category",
		phrasings: [3]string{
			`{signin}, click the menu button at the top right, click "Preferences...", click "Feeds", click the + next to "Uncategorized", click "Garden Club", select "Hobbies" in "Place in category", then click "Save"`,
			`{signin}, go to {url}/prefs.php and open the Feeds tab, expand "Uncategorized" and click "Garden Club"; in the Edit Feed dialog choose Hobbies from "Place in category:" and press "Save"`,
			`{signin}. Expand Uncategorized in the feed list and click Garden Club. Then open the ☰ menu, click "Edit this feed...", pick Hobbies in the field labelled "Place in category" and click the Save button.`,
		},
		done: func(t testing.TB, tt *testenv.TTRSS) string {
			return ttrssExpect(t, tt, func(want, _ *ttrssState) {
				want.feeds[testenv.TTRSSGardenClubURL] = testenv.TTRSSGardenClub + " in " + testenv.TTRSSHobbies
			})
		},
		do: func(t testing.TB, tt *testenv.TTRSS, b *testenv.TTRSSBrowser) {
			ttrssMove(t, tt, b, testenv.TTRSSHobbies)
		},
		miss: func(t testing.TB, tt *testenv.TTRSS, b *testenv.TTRSSBrowser) { ttrssMove(t, tt, b, testenv.TTRSSWork) },
	},
	{
		name: "change a preference",
		phrasings: [3]string{
			`{signin}, click the menu button at the top right, click "Preferences...", clear "Purge articles older than", type "30" into "Purge articles older than", then click "Save configuration"`,
			`{signin}, go to {url}/prefs.php, change "Purge articles older than" from 60 to 30 days and press "Save configuration"`,
			`{signin}. Open Preferences... from the ☰ menu, clear the field labelled "Purge articles older than", then type 30 into it and click the Save configuration button.`,
		},
		done: func(t testing.TB, tt *testenv.TTRSS) string {
			return ttrssExpect(t, tt, func(want, _ *ttrssState) { want.prefs["PURGE_OLD_DAYS"] = ttrssPurgeDays })
		},
		do: func(t testing.TB, tt *testenv.TTRSS, b *testenv.TTRSSBrowser) { ttrssSavePref(t, b, "PURGE_OLD_DAYS") },
		miss: func(t testing.TB, tt *testenv.TTRSS, b *testenv.TTRSSBrowser) {
			ttrssSavePref(t, b, "FRESH_ARTICLE_MAX_AGE")
		},
	},
}

// ttrssState is what the judges compare: subscriptions (address → "title in category"),
// categories and labels (by ID), articles (title → "feed" with ", starred", ", published"
// and ", label X" after it) and the preferences set to other than tt-rss's default. Which
// articles are read is not in it: reading an article, as any run does on the way, marks it
// read.
type ttrssState struct {
	feeds, articles, prefs map[string]string
	categories, labels     []string
}

// ttrssViewPrefs are the preferences the main page's own controls set as one reads (the
// ☰ menu's "(Un)hide read feeds", the headline view's toggles): not changes a goal asks
// for, nor a judge's concern; nor are those whose names start with "_", where the reader
// remembers its view (the feed shown, the view mode, what is collapsed).
var ttrssViewPrefs = []string{"HIDE_READ_FEEDS", "VFEED_GROUP_BY_FEED", "COMBINED_DISPLAY_MODE", "CDM_EXPANDED"}

// ttrssSeeded is the state a fresh reader starts in.
func ttrssSeeded() *ttrssState {
	s := &ttrssState{feeds: map[string]string{}, articles: map[string]string{}, prefs: map[string]string{},
		categories: []string{testenv.TTRSSWork, testenv.TTRSSHobbies}, labels: []string{testenv.TTRSSLabel}}
	for _, f := range []struct{ url, title, category string }{
		{testenv.TTRSSTeamNewsURL, testenv.TTRSSTeamNews, testenv.TTRSSWork},
		{testenv.TTRSSGardenClubURL, testenv.TTRSSGardenClub, "Uncategorized"},
		{testenv.TTRSSOldBlogURL, testenv.TTRSSOldBlog, "Uncategorized"},
		{testenv.TTRSSBookClubURL, testenv.TTRSSBookClub, testenv.TTRSSHobbies},
	} {
		s.feeds[f.url] = f.title + " in " + f.category
	}
	for title, feed := range map[string]string{
		"Quarterly results": testenv.TTRSSTeamNews, "New coffee machine": testenv.TTRSSTeamNews, "Office move next month": testenv.TTRSSTeamNews,
		"Spring seed swap": testenv.TTRSSGardenClub, "Planting tomatoes": testenv.TTRSSGardenClub,
		"Goodbye for now": testenv.TTRSSOldBlog, "June reading list": testenv.TTRSSBookClub,
	} {
		s.articles[title] = feed
	}
	return s
}

// ttrssRead reads the state the judges compare from the reader's database.
func ttrssRead(t testing.TB, tt *testenv.TTRSS) *ttrssState {
	s := &ttrssState{feeds: map[string]string{}, articles: map[string]string{}, prefs: tt.Prefs(t),
		categories: tt.Categories(t), labels: tt.Labels(t)}
	for _, f := range tt.Feeds(t) {
		cat := f.Category
		if cat == "" {
			cat = "Uncategorized"
		}
		v := f.Title + " in " + cat
		if _, twice := s.feeds[f.URL]; twice {
			v = "twice"
		}
		s.feeds[f.URL] = v
	}
	for _, a := range tt.Articles(t) {
		v := a.Feed
		if a.Starred {
			v += ", starred"
		}
		if a.Published {
			v += ", published"
		}
		for _, l := range a.Labels {
			v += ", label " + l
		}
		if _, twice := s.articles[a.Title]; twice {
			v = "twice"
		}
		s.articles[a.Title] = v
	}
	for p := range s.prefs {
		if strings.HasPrefix(p, "_") || slices.Contains(ttrssViewPrefs, p) {
			delete(s.prefs, p)
		}
	}
	return s
}

// ttrssExpect says "" when the reader's database is in the seeded state changed by change
// (which may look at what the database holds, for what a goal leaves open), else the first
// difference.
func ttrssExpect(t testing.TB, tt *testenv.TTRSS, change func(want, got *ttrssState)) string {
	want, got := ttrssSeeded(), ttrssRead(t, tt)
	if change != nil {
		change(want, got)
	}
	for _, d := range []struct {
		what      string
		want, got map[string]string
	}{{"subscriptions", want.feeds, got.feeds}, {"articles", want.articles, got.articles}, {"changed preferences", want.prefs, got.prefs}} {
		if w, g := wpDump(d.want), wpDump(d.got); w != g {
			return fmt.Sprintf("%s are %s; want %s", d.what, g, w)
		}
	}
	switch {
	case !slices.Equal(got.categories, want.categories):
		return fmt.Sprintf("categories are %q; want %q", got.categories, want.categories)
	case !slices.Equal(got.labels, want.labels):
		return fmt.Sprintf("labels are %q; want %q", got.labels, want.labels)
	}
	return ""
}

// ttrssTeamNewsRead is the judge of "mark a feed as read": every article of Team News read,
// some article of another feed still unread (not every feed marked read), nothing else
// changed.
func ttrssTeamNewsRead(t testing.TB, tt *testenv.TTRSS) string {
	if why := ttrssExpect(t, tt, nil); why != "" {
		return why
	}
	var unread []string
	others := 0
	for _, a := range tt.Articles(t) {
		switch {
		case a.Feed == testenv.TTRSSTeamNews && a.Unread:
			unread = append(unread, a.Title)
		case a.Feed != testenv.TTRSSTeamNews && a.Unread:
			others++
		}
	}
	switch {
	case len(unread) > 0:
		return fmt.Sprintf("Team News's articles %q are unread", unread)
	case others == 0:
		return "every article of every feed is read, not Team News's alone"
	}
	return ""
}

// ttrssCall sends one backend.php request (its parameters as name, value pairs), as the
// page's menu or button does.
func ttrssCall(t testing.TB, b *testenv.TTRSSBrowser, kv ...string) string {
	t.Helper()
	params := url.Values{}
	for i := 0; i+1 < len(kv); i += 2 {
		params.Set(kv[i], kv[i+1])
	}
	return b.Backend(t, params)
}

// ttrssStar clicks an article's star: the headline's toggle, which the page sends as a
// selection of one.
func ttrssStar(t testing.TB, tt *testenv.TTRSS, b *testenv.TTRSSBrowser, title string) {
	t.Helper()
	ttrssCall(t, b, "op", "rpc", "method", "markSelected", "ids", tt.ArticleID(t, title), "cmode", "2")
}

// ttrssSubscribe fills the "Subscribe to Feed" dialog with address and presses Subscribe.
func ttrssSubscribe(t testing.TB, b *testenv.TTRSSBrowser, address string) {
	t.Helper()
	form := testenv.TTRSSWidgets(ttrssCall(t, b, "op", "feeds", "method", "quickAddFeed"))
	form.Set("feed", address)
	if reply := b.Backend(t, form); !strings.Contains(reply, `"code":1`) {
		t.Fatalf("subscribing to %s answered %s", address, reply)
	}
}

// ttrssMove opens Garden Club's Edit Feed dialog, places it in the category titled so and
// presses Save.
func ttrssMove(t testing.TB, tt *testenv.TTRSS, b *testenv.TTRSSBrowser, category string) {
	t.Helper()
	form := testenv.TTRSSWidgets(ttrssCall(t, b, "op", "pref-feeds", "method", "editfeed", "id", tt.FeedID(t, testenv.TTRSSGardenClubURL)))
	if form.Get("method") != "editSave" || form.Get("title") != testenv.TTRSSGardenClub {
		t.Fatalf("the Edit Feed dialog sends %v", form)
	}
	form.Set("cat_id", tt.CategoryID(t, category))
	b.Backend(t, form)
}

// ttrssSavePref sets one field of the Preferences tab's form to ttrssPurgeDays and presses
// "Save configuration".
func ttrssSavePref(t testing.TB, b *testenv.TTRSSBrowser, name string) {
	t.Helper()
	form := testenv.TTRSSWidgets(testenv.TTRSSForm(t, ttrssCall(t, b, "op", "pref-prefs"), `id='changeSettingsForm'`))
	if form.Get("method") != "saveconfig" || form.Get(name) == "" {
		t.Fatalf("the preferences form sends %v", form)
	}
	form.Set(name, ttrssPurgeDays)
	// A first save answers that the page must reload (the language list's "Detect
	// automatically" is saved for the first time), as the page then does.
	if reply := b.Backend(t, form); reply != "The configuration was saved." && reply != "PREFS_NEED_RELOAD" {
		t.Fatalf("saving the preferences answered %.300s", reply)
	}
}

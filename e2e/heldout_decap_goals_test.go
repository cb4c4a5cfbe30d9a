//go:build heldout

package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// decapGoal is an everyday goal on Decap CMS's admin page, written three ways as a person
// writes it from what the page shows (the local backend has no accounts: each starts with
// the page's Login button, which signs in at once); done reads the site's git repository
// and says "" when the goal's effect is there, committed, and nothing else changed, else
// what it found; do makes the effect with the requests the page sends, and miss a near
// miss the judge must not take for it (another post or author of a near-identical name,
// another field).
type decapGoal struct {
	name      string
	phrasings [3]string
	done      func(t testing.TB, w *testenv.Decap) string
	do, miss  func(t testing.TB, b *testenv.DecapBrowser)
}

const (
	decapNewTitle  = "Balcony Herbs"
	decapNewBody   = "Basil, mint and thyme grow happily in pots on a sunny balcony."
	decapRenamed   = "Spring Garden Open Day"
	decapSiteTitle = "Green Thumb Journal"
	decapAuthor    = "Lena Fischer"
	decapEmail     = "lena@greenthumb.example"
	decapBio       = "Writes about balcony gardens."
	decapNewTag    = "soil"
)

var decapGoals = []decapGoal{
	{
		name: "write a new post",
		phrasings: [3]string{
			`click "Login", click "Posts", click "＋ Post", type "Balcony Herbs" into "Title", click "Add tag", type "herbs" into the new "Tag" field, click "Add tag", type "balcony" into the new "Tag" field, type "Basil, mint and thyme grow happily in pots on a sunny balcony." into "Body", click "Publish", click "Publish now"`,
			`Log in with the Login button, open Posts and start a new post with + Post. Title: Balcony Herbs. Add two tags with Add tag, first herbs, then balcony, write "Basil, mint and thyme grow happily in pots on a sunny balcony." in the Body, then Publish > Publish now`,
			`Press Login on the content manager page, then pick the Posts collection in the list on the left and hit the "+ Post" button at the top of the list. Put Balcony Herbs in the field labelled Title; under Tags click Add tag and type herbs in the empty Tag box, then click Add tag again and type balcony. In the Body editor type "Basil, mint and thyme grow happily in pots on a sunny balcony." Leave Draft off, open the Publish menu at the top and choose Publish now.`,
		},
		done: func(t testing.TB, w *testenv.Decap) string {
			return decapCreated(t, w, "content/posts/balcony-herbs.md", decapNewPost(decapNewTitle))
		},
		do:   func(t testing.TB, b *testenv.DecapBrowser) { decapWritePost(t, b, decapNewTitle) },
		miss: func(t testing.TB, b *testenv.DecapBrowser) { decapWritePost(t, b, "Balcony Herb") },
	},
	{
		name: "rename a post",
		phrasings: [3]string{
			`click "Login", click "Posts", click "Spring Garden Tour", type "Spring Garden Open Day" into "Title", click "Publish", click "Publish now"`,
			`log in (Login button), open the post Spring Garden Tour under Posts, change its Title to "Spring Garden Open Day" and hit Publish then Publish now`,
			`Click Login first. In the Posts collection open the entry "Spring Garden Tour" (not Spring Garden Tips) and replace what is in the Title field with Spring Garden Open Day, leaving the rest of the post alone. Then press the Publish button at the top and pick "Publish now" from its menu.`,
		},
		done: func(t testing.TB, w *testenv.Decap) string {
			return decapExactly(t, w, func(s testenv.DecapState) { s["content/posts/spring-garden-tour.md"]["title"] = decapRenamed })
		},
		do:   func(t testing.TB, b *testenv.DecapBrowser) { decapRetitle(t, b, "Spring Garden Tour") },
		miss: func(t testing.TB, b *testenv.DecapBrowser) { decapRetitle(t, b, "Spring Garden Tips") },
	},
	{
		name: "delete a post",
		phrasings: [3]string{
			`click "Login", click "Posts", click "Summer Garden Tips", click "Delete entry", click "OK" in the confirmation dialog`,
			`Click Login, open Summer Garden Tips in Posts and delete it: Delete entry, then OK to confirm.`,
			`Hit Login, go to the Posts collection in the menu on the left and open the post called "Summer Garden Tips" (the summer one, not Spring Garden Tips). At the top of the editor click Delete entry and confirm with OK when the browser asks whether you are sure.`,
		},
		done: func(t testing.TB, w *testenv.Decap) string {
			return decapExactly(t, w, func(s testenv.DecapState) { delete(s, "content/posts/summer-garden-tips.md") })
		},
		do:   func(t testing.TB, b *testenv.DecapBrowser) { decapDelete(t, b, "Summer Garden Tips") },
		miss: func(t testing.TB, b *testenv.DecapBrowser) { decapDelete(t, b, "Spring Garden Tips") },
	},
	{
		name: "change the site title",
		phrasings: [3]string{
			`click "Login", click "Settings", click "Site Settings", type "Green Thumb Journal" into "Site Title", click "Publish", click "Publish now"`,
			`Login, then Settings > Site Settings: set Site Title to Green Thumb Journal (keep Tagline and Description) and Publish > Publish now`,
			`Please click Login, choose Settings in the Collections menu on the left and open "Site Settings". Change the field labelled Site Title from Green Thumb Notes to "Green Thumb Journal" without touching the Tagline or the Description, then press Publish and then Publish now.`,
		},
		done: func(t testing.TB, w *testenv.Decap) string {
			return decapExactly(t, w, func(s testenv.DecapState) { s["data/settings.yml"]["site_title"] = decapSiteTitle })
		},
		do:   func(t testing.TB, b *testenv.DecapBrowser) { decapSetting(t, b, "site_title") },
		miss: func(t testing.TB, b *testenv.DecapBrowser) { decapSetting(t, b, "tagline") },
	},
	{
		name: "add an author",
		phrasings: [3]string{
			`click "Login", click "Quick add", click "Author", type "Lena Fischer" into "Name", type "lena@greenthumb.example" into "Email", type "Writes about balcony gardens." into "Bio", click "Publish", click "Publish now"`,
			`Log in with Login and add a new author (Authors, + Author): Name Lena Fischer, Email lena@greenthumb.example, Bio "Writes about balcony gardens." — then Publish, Publish now`,
			`Click the Login button. Open Authors from the list of collections on the left and press "+ Author" to make a new one. Type Lena Fischer in the Name field, lena@greenthumb.example in Email and Writes about balcony gardens. in the Bio box, then hit Publish and choose Publish now.`,
		},
		done: func(t testing.TB, w *testenv.Decap) string {
			return decapCreated(t, w, "content/authors/lena-fischer.yml", map[string]string{"name": decapAuthor, "email": decapEmail, "bio": decapBio})
		},
		do:   func(t testing.TB, b *testenv.DecapBrowser) { decapAddAuthor(t, b, decapAuthor) },
		miss: func(t testing.TB, b *testenv.DecapBrowser) { decapAddAuthor(t, b, "Lena Fisher") },
	},
	{
		name: "turn a post into a draft",
		phrasings: [3]string{
			`click "Login", click "Posts", click "Autumn Planting Guide", switch on "Draft", click "Publish", click "Publish now"`,
			`hit Login, open Autumn Planting Guide in Posts, turn the Draft toggle on and publish it (Publish, then Publish now)`,
			`Hit Login, then in the Posts collection open "Autumn Planting Guide" — the planting one, not the pruning guide. Flip the switch under Draft so that it is on, change nothing else, and save it with Publish followed by Publish now.`,
		},
		done: func(t testing.TB, w *testenv.Decap) string {
			return decapExactly(t, w, func(s testenv.DecapState) { s["content/posts/autumn-planting-guide.md"]["draft"] = "true" })
		},
		do:   func(t testing.TB, b *testenv.DecapBrowser) { decapDraft(t, b, "Autumn Planting Guide") },
		miss: func(t testing.TB, b *testenv.DecapBrowser) { decapDraft(t, b, "Autumn Pruning Guide") },
	},
	{
		name: "find a post and tag it",
		phrasings: [3]string{
			`click "Login", type "compost" into "Search all", press Enter, click "Composting for Beginners", click "Add tag", type "soil" into the new "Tag" field, click "Publish", click "Publish now"`,
			`Log in with Login, search all for compost, open Composting for Beginners from the results, hit Add tag and type soil in the new Tag field (keep its other tags), then Publish > Publish now.`,
			`Press Login. Use the Search all box above the collections on the left to search for compost and press Enter; in the results open the post "Composting for Beginners" (not Compost Tea Recipes). Under Tags hit Add tag, type soil into the new empty Tag field and leave the existing tags as they are. Then click Publish and Publish now.`,
		},
		done: func(t testing.TB, w *testenv.Decap) string {
			return decapExactly(t, w, func(s testenv.DecapState) {
				s["content/posts/composting-for-beginners.md"]["tags"] = "compost, beginners, " + decapNewTag
			})
		},
		do:   func(t testing.TB, b *testenv.DecapBrowser) { decapAddTag(t, b, "Composting for Beginners") },
		miss: func(t testing.TB, b *testenv.DecapBrowser) { decapAddTag(t, b, "Compost Tea Recipes") },
	},
}

// decapExactly says whether the repository holds the seed changed by change, committed,
// and nothing else.
func decapExactly(t testing.TB, w *testenv.Decap, change func(testenv.DecapState)) string {
	want := w.Seed()
	change(want)
	return w.Differs(t, want)
}

// decapCreated says whether the repository holds the seed and one new file at path with
// exactly fields, committed, and nothing else; a post's date is Decap CMS's own (the
// moment it was written): any is taken but none.
func decapCreated(t testing.TB, w *testenv.Decap, path string, fields map[string]string) string {
	want := w.Seed()
	want[path] = fields
	if _, dated := fields["date"]; dated {
		fields["date"] = "(a date)"
		if f, ok := w.State(t)[path]; ok && f["date"] != "" {
			fields["date"] = f["date"]
		}
	}
	return w.Differs(t, want)
}

// decapNewPost is the new post's fields with the given title (date: any, set by
// decapCreated).
func decapNewPost(title string) map[string]string {
	return map[string]string{"title": title, "date": "", "tags": "herbs, balcony", "draft": "false", "body": decapNewBody}
}

// decapSlug is the slug Decap CMS makes of a title: lower case, words joined by "-".
func decapSlug(title string) string { return strings.ReplaceAll(strings.ToLower(title), " ", "-") }

// decapSeedPost is the seed's post with the given title.
func decapSeedPost(t testing.TB, title string) testenv.DecapPost {
	for _, p := range testenv.DecapSeedPosts {
		if p.Title == title {
			p.Tags = append([]string(nil), p.Tags...)
			return p
		}
	}
	t.Fatalf("the seed has no post %q", title)
	return testenv.DecapPost{}
}

// decapWritePost is "＋ Post" on the Posts page filled in with the goal's tags and body and
// the given title, then Publish now.
func decapWritePost(t testing.TB, b *testenv.DecapBrowser, title string) {
	b.Entries(t, "content/posts", "md")
	slug := decapSlug(title)
	raw := testenv.DecapPostFile(testenv.DecapPost{Slug: slug, Title: title, Date: time.Now().UTC().Format("2006-01-02T15:04:00.000+00:00"),
		Tags: []string{"herbs", "balcony"}, Body: decapNewBody})
	b.Publish(t, "posts", "Post", slug, "content/posts/"+slug+".md", raw, true)
}

// decapEditPost opens the post titled title from the Posts page, changes it, and
// publishes it.
func decapEditPost(t testing.TB, b *testenv.DecapBrowser, title string, change func(p *testenv.DecapPost)) {
	e := b.Find(t, "content/posts", "md", "title", title)
	b.Entry(t, e.Path)
	p := decapSeedPost(t, title)
	change(&p)
	b.Publish(t, "posts", "Post", p.Slug, e.Path, testenv.DecapPostFile(p), false)
}

// decapRetitle gives the post titled title the goal's new title.
func decapRetitle(t testing.TB, b *testenv.DecapBrowser, title string) {
	decapEditPost(t, b, title, func(p *testenv.DecapPost) { p.Title = decapRenamed })
}

// decapDraft switches the post's Draft on.
func decapDraft(t testing.TB, b *testenv.DecapBrowser, title string) {
	decapEditPost(t, b, title, func(p *testenv.DecapPost) { p.Draft = true })
}

// decapAddTag is the search for "compost" (the page lists the posts and filters them),
// then the goal's tag added to the post titled title.
func decapAddTag(t testing.TB, b *testenv.DecapBrowser, title string) {
	decapEditPost(t, b, title, func(p *testenv.DecapPost) { p.Tags = append(p.Tags, decapNewTag) })
}

// decapDelete opens the post titled title and deletes it, confirmed.
func decapDelete(t testing.TB, b *testenv.DecapBrowser, title string) {
	e := b.Find(t, "content/posts", "md", "title", title)
	b.Entry(t, e.Path)
	b.Delete(t, "Post", decapSeedPost(t, title).Slug, e.Path)
}

// decapSetting opens Site Settings and sets the field key to the goal's site title.
func decapSetting(t testing.TB, b *testenv.DecapBrowser, key string) {
	b.Entry(t, "data/settings.yml")
	values := map[string]string{}
	for _, kv := range testenv.DecapSeedSettings {
		values[kv[0]] = kv[1]
	}
	values[key] = decapSiteTitle
	b.Publish(t, "settings", "Settings", "site", "data/settings.yml", testenv.DecapSettingsFile(values), false)
}

// decapAddAuthor is "＋ Author" filled in with the given name and the goal's email and
// bio, then Publish now.
func decapAddAuthor(t testing.TB, b *testenv.DecapBrowser, name string) {
	b.Entries(t, "content/authors", "yml")
	slug := decapSlug(name)
	raw := testenv.DecapAuthorFile(testenv.DecapAuthor{Slug: slug, Name: name, Email: decapEmail, Bio: decapBio})
	b.Publish(t, "authors", "Author", slug, "content/authors/"+slug+".yml", raw, true)
}

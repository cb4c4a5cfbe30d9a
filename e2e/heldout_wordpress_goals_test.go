//go:build heldout

package e2e

import (
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// wpGoal is an everyday goal on WordPress, written three ways as a person writes it from
// what the dashboard shows ({signin} and {url} are filled in per phrasing and instance);
// done reads the site's database and says "" when the goal's effect is there and nothing
// else it checks changed, else what it found; do makes the effect through WordPress's own
// pages and requests, as the dashboard sends them, and miss a near miss the judge must not
// take for it (what a run gone a little wrong leaves: a draft, another value, another row).
type wpGoal struct {
	name      string
	phrasings [3]string
	done      func(t testing.TB, w *testenv.WordPress) string
	do, miss  func(t testing.TB, w *testenv.WordPress, b *testenv.WordPressBrowser)
}

const (
	wpNewPost      = "Weekend hike"
	wpNewPostText  = "We walk to the lake on Saturday."
	wpRenamed      = "Summer picnic in the park"
	wpNewCategory  = "Recipes"
	wpNewSiteTitle = "Team News"
	wpNewUser      = "maria"
	wpNewUserEmail = "maria@example.com"
)

var wpGoals = []wpGoal{
	{
		name: "write and publish a post",
		phrasings: [3]string{
			`{signin}, click "Posts", click "Add New", type "Weekend hike" into "Add title", type "We walk to the lake on Saturday." into "Type / to choose a block", click "Publish", click "Publish", then check that "is now live" is visible`,
			`{signin}, then go to {url}/wp-admin/post-new.php, enter "Weekend hike" in "Add title", enter "We walk to the lake on Saturday." in "Type / to choose a block" and press "Publish"; press "Publish" again and check that "is now live" is visible`,
			`{signin}. Open Posts, then click the "Add New" link. Type Weekend hike into the title field labelled "Add title", write "We walk to the lake on Saturday." in the block that says "Type / to choose a block", click the Publish button, then click the "Publish" button in the panel that opens and make sure "is now live" is visible.`,
		},
		done: func(t testing.TB, w *testenv.WordPress) string {
			return wpExpect(t, w, func(s *wpState) { s.posts[wpNewPost] = "post publish: " + wpNewPostText })
		},
		do: func(t testing.TB, w *testenv.WordPress, b *testenv.WordPressBrowser) {
			wpREST(t, b, "/wp/v2/posts", map[string]string{"title": wpNewPost, "status": "publish",
				"content": "<!-- wp:paragraph -->\n<p>" + wpNewPostText + "</p>\n<!-- /wp:paragraph -->"}, http.StatusCreated)
		},
		miss: func(t testing.TB, w *testenv.WordPress, b *testenv.WordPressBrowser) {
			wpREST(t, b, "/wp/v2/posts", map[string]string{"title": wpNewPost, "status": "draft",
				"content": "<!-- wp:paragraph -->\n<p>" + wpNewPostText + "</p>\n<!-- /wp:paragraph -->"}, http.StatusCreated)
		},
	},
	{
		name: "rename a post",
		phrasings: [3]string{
			`{signin}, click "Posts", click "Summer picnic", clear "Add title", type "Summer picnic in the park" into "Add title", click "Update", then check that "Post updated." is visible`,
			`{signin}, go to {url}/wp-admin/edit.php and click "Summer picnic"; clear the "Add title" field, then fill "Add title" with "Summer picnic in the park" and press "Update", and verify that "Post updated." is visible`,
			`{signin}. Click Posts and open the post "Summer picnic". Clear the title field labelled "Add title" and type "Summer picnic in the park" into the "Add title" field, press the Update button, then make sure "Post updated." is visible.`,
		},
		done: func(t testing.TB, w *testenv.WordPress) string {
			return wpExpect(t, w, func(s *wpState) {
				s.posts[wpRenamed] = s.posts[testenv.WordPressPicnicPost]
				delete(s.posts, testenv.WordPressPicnicPost)
			})
		},
		do: func(t testing.TB, w *testenv.WordPress, b *testenv.WordPressBrowser) {
			wpREST(t, b, "/wp/v2/posts/"+wpPostID(t, w, testenv.WordPressPicnicPost), map[string]string{"title": wpRenamed}, http.StatusOK)
		},
		miss: func(t testing.TB, w *testenv.WordPress, b *testenv.WordPressBrowser) {
			wpREST(t, b, "/wp/v2/posts/"+wpPostID(t, w, testenv.WordPressPicnicPost), map[string]string{"title": "Summer picnic at the park"}, http.StatusOK)
		},
	},
	{
		name: "add a category",
		phrasings: [3]string{
			`{signin}, click "Posts", click "Categories", type "Recipes" into "Name", click "Add New Category", then check that "Recipes" is visible`,
			`{signin}, then open {url}/wp-admin/edit-tags.php?taxonomy=category, fill "Name" with "Recipes" and press "Add New Category", check that "Recipes" is visible`,
			`{signin}. Click Posts, then click Categories. Type Recipes into the field labelled "Name" and click the "Add New Category" button; verify that "Recipes" is visible.`,
		},
		done: func(t testing.TB, w *testenv.WordPress) string {
			return wpExpect(t, w, func(s *wpState) { s.categories = append(s.categories, wpNewCategory) })
		},
		do: func(t testing.TB, w *testenv.WordPress, b *testenv.WordPressBrowser) {
			form := b.Form(t, "/wp-admin/edit-tags.php?taxonomy=category", `id="addtag"`)
			form.Set("tag-name", wpNewCategory)
			wpPost(t, b, "/wp-admin/edit-tags.php", form)
		},
		miss: func(t testing.TB, w *testenv.WordPress, b *testenv.WordPressBrowser) {
			form := b.Form(t, "/wp-admin/edit-tags.php?taxonomy=post_tag", `id="addtag"`)
			form.Set("tag-name", wpNewCategory)
			wpPost(t, b, "/wp-admin/edit-tags.php", form)
		},
	},
	{
		name: "change the site title",
		phrasings: [3]string{
			`{signin}, click "Settings", type "Team News" into "Site Title", click "Save Changes", then check that "Settings saved." is visible`,
			`{signin}, go to {url}/wp-admin/options-general.php, fill "Site Title" with "Team News" and press "Save Changes", then verify that "Settings saved." is visible`,
			`{signin}. Open Settings, then click General. Enter Team News in the field labelled "Site Title", click the Save Changes button and make sure "Settings saved." is visible.`,
		},
		done: func(t testing.TB, w *testenv.WordPress) string {
			return wpExpect(t, w, func(s *wpState) { s.title = wpNewSiteTitle })
		},
		do: func(t testing.TB, w *testenv.WordPress, b *testenv.WordPressBrowser) {
			form := b.Form(t, "/wp-admin/options-general.php", `action="options.php"`)
			form.Set("blogname", wpNewSiteTitle)
			wpPost(t, b, "/wp-admin/options.php", form)
		},
		miss: func(t testing.TB, w *testenv.WordPress, b *testenv.WordPressBrowser) {
			form := b.Form(t, "/wp-admin/options-general.php", `action="options.php"`)
			form.Set("blogdescription", wpNewSiteTitle)
			wpPost(t, b, "/wp-admin/options.php", form)
		},
	},
	{
		name: "approve a pending comment",
		phrasings: [3]string{
			`{signin}, click "Comments", hover over "Can I bring my dog to the picnic?", click "Approve", then check that "Pending (0)" is visible`,
			`{signin}, then go to {url}/wp-admin/edit-comments.php, click "Pending (1)", move the mouse over "Can I bring my dog to the picnic?" and press "Approve"; check that "Pending (0)" is visible`,
			`{signin}. Open Comments. Hover over the comment "Can I bring my dog to the picnic?", then click the Approve link, and verify that "Pending (0)" is visible.`,
		},
		done: func(t testing.TB, w *testenv.WordPress) string {
			return wpExpect(t, w, func(s *wpState) { s.comments[testenv.WordPressCommenter] = "1" })
		},
		do: func(t testing.TB, w *testenv.WordPress, b *testenv.WordPressBrowser) {
			link := b.Link(t, "/wp-admin/edit-comments.php", regexp.MustCompile(`comment\.php\?c=\d+&(?:amp;|#038;)action=approvecomment&(?:amp;|#038;)_wpnonce=[0-9a-f]+`))
			wpGet(t, b, "/wp-admin/"+link)
		},
		miss: func(t testing.TB, w *testenv.WordPress, b *testenv.WordPressBrowser) {
			// The pending comment is the second: WordPress installs the first.
			link := b.Link(t, "/wp-admin/edit-comments.php", regexp.MustCompile(`comment\.php\?c=2&(?:amp;|#038;)action=spamcomment&(?:amp;|#038;)_wpnonce=[0-9a-f]+`))
			wpGet(t, b, "/wp-admin/"+link)
		},
	},
	{
		name: "trash a post",
		phrasings: [3]string{
			`{signin}, click "Posts", hover over "Old announcement", click "Trash", then check that "1 post moved to the Trash." is visible`,
			`{signin}, go to {url}/wp-admin/edit.php, then click "Trash" in the row "Old announcement" and check that "1 post moved to the Trash." is visible`,
			`{signin}. Click Posts. Move the mouse over the post "Old announcement" and press the Trash link, then make sure "1 post moved to the Trash." is visible.`,
		},
		done: func(t testing.TB, w *testenv.WordPress) string {
			return wpExpect(t, w, func(s *wpState) {
				s.posts[testenv.WordPressOldPost] = strings.Replace(s.posts[testenv.WordPressOldPost], "publish", "trash", 1)
			})
		},
		do: func(t testing.TB, w *testenv.WordPress, b *testenv.WordPressBrowser) {
			wpTrash(t, w, b, testenv.WordPressOldPost)
		},
		miss: func(t testing.TB, w *testenv.WordPress, b *testenv.WordPressBrowser) {
			wpTrash(t, w, b, testenv.WordPressPicnicPost)
		},
	},
	{
		name: "add a user with a role",
		phrasings: [3]string{
			`{signin}, click "Users", click "Add New", type "maria" into "Username (required)", type "maria@example.com" into "Email (required)", select "Editor" from "Role", click "Add New User", then check that "New user created." is visible`,
			`{signin}, then go to {url}/wp-admin/user-new.php, fill "Username (required)" with "maria", fill "Email (required)" with "maria@example.com", choose "Editor" in "Role" and press "Add New User"; check that "New user created." is visible`,
			`{signin}. Open Users and click the "Add New" link. Type maria into the field labelled "Username", type maria@example.com into the Email field, pick Editor from the "Role" list, then click the Add New User button and verify that "New user created." is visible.`,
		},
		done: func(t testing.TB, w *testenv.WordPress) string {
			return wpExpect(t, w, func(s *wpState) { s.users[wpNewUser] = wpNewUserEmail + " editor" })
		},
		do:   func(t testing.TB, w *testenv.WordPress, b *testenv.WordPressBrowser) { wpAddUser(t, b, "editor") },
		miss: func(t testing.TB, w *testenv.WordPress, b *testenv.WordPressBrowser) { wpAddUser(t, b, "author") },
	},
}

// wpState is what the judges compare: posts and pages (title → "type status: text"),
// comments (author → approval), categories, the site's title and tagline, users (login →
// "email role").
type wpState struct {
	posts, comments, users map[string]string
	categories             []string
	title, tagline         string
}

// wpSeeded is the state a fresh site starts in.
func wpSeeded() *wpState {
	return &wpState{
		posts: map[string]string{
			"Hello world!":              "post publish: Welcome to WordPress. This is your first post. Edit or delete it, then start writing!",
			"Sample Page":               "page publish",
			"Privacy Policy":            "page draft",
			testenv.WordPressPicnicPost: "post publish: " + testenv.WordPressPicnicText,
			testenv.WordPressOldPost:    "post publish: " + testenv.WordPressOldText,
		},
		comments:   map[string]string{"A WordPress Commenter": "1", testenv.WordPressCommenter: "0"},
		users:      map[string]string{"admin": testenv.WordPressAdminEmail + " administrator"},
		categories: []string{"Uncategorized"},
		title:      testenv.WordPressSiteTitle,
		tagline:    testenv.WordPressTagline,
	}
}

// wpExpect says "" when the site's database is in the seeded state changed by change,
// else the first difference.
func wpExpect(t testing.TB, w *testenv.WordPress, change func(*wpState)) string {
	want, got := wpSeeded(), wpRead(t, w)
	change(want)
	for _, d := range []struct {
		what      string
		want, got map[string]string
	}{{"posts", want.posts, got.posts}, {"comments", want.comments, got.comments}, {"users", want.users, got.users}} {
		if w, g := wpDump(d.want), wpDump(d.got); w != g {
			return fmt.Sprintf("%s are %s; want %s", d.what, g, w)
		}
	}
	switch {
	case !slices.Equal(got.categories, want.categories):
		return fmt.Sprintf("categories are %q; want %q", got.categories, want.categories)
	case got.title != want.title || got.tagline != want.tagline:
		return fmt.Sprintf("the site's title and tagline are %q, %q; want %q, %q", got.title, got.tagline, want.title, want.tagline)
	}
	return ""
}

// wpRead reads the state the judges compare from the site's database.
func wpRead(t testing.TB, w *testenv.WordPress) *wpState {
	s := &wpState{posts: map[string]string{}, comments: map[string]string{}, users: map[string]string{},
		categories: w.Categories(t), title: w.Option(t, "blogname"), tagline: w.Option(t, "blogdescription")}
	for _, p := range w.Posts(t) {
		v := p.Type + " " + p.Status
		if p.Type == "post" {
			v += ": " + p.Text()
		}
		if _, twice := s.posts[p.Title]; twice {
			v = "twice"
		}
		s.posts[p.Title] = v
	}
	for _, c := range w.Comments(t) {
		s.comments[c.Author] = c.Approved
	}
	for _, u := range w.Users(t) {
		role := "?"
		if m := regexp.MustCompile(`^a:1:\{s:\d+:"([a-z_]+)";b:1;\}$`).FindStringSubmatch(u.Caps); m != nil {
			role = m[1]
		}
		s.users[u.Login] = u.Email + " " + role
	}
	return s
}

// wpDump is a map as sorted "key = value" lines, for comparing and reporting.
func wpDump(m map[string]string) string {
	var out []string
	for k, v := range m {
		out = append(out, fmt.Sprintf("%q = %q", k, v))
	}
	slices.Sort(out)
	return "{" + strings.Join(out, ", ") + "}"
}

// wpPostID is the ID of the one post or page titled so.
func wpPostID(t testing.TB, w *testenv.WordPress, title string) string {
	t.Helper()
	for _, p := range w.Posts(t) {
		if p.Title == title {
			return p.ID
		}
	}
	t.Fatalf("no post %q", title)
	return ""
}

// wpREST sends the block editor's request and wants its status.
func wpREST(t testing.TB, b *testenv.WordPressBrowser, route string, body map[string]string, want int) {
	t.Helper()
	if status, out := b.REST(t, http.MethodPost, route, body); status != want {
		t.Fatalf("POST %s answered %d: %.300s", route, status, out)
	}
}

// wpPost posts a dashboard form and wants the redirect a saved form gets.
func wpPost(t testing.TB, b *testenv.WordPressBrowser, path string, form map[string][]string) {
	t.Helper()
	if status, loc, body := b.Post(t, path, form); status != http.StatusFound {
		t.Fatalf("POST %s answered %d (to %q): %.300s", path, status, loc, body)
	}
}

// wpTrash follows the Trash link in the row of the post titled so.
func wpTrash(t testing.TB, w *testenv.WordPress, b *testenv.WordPressBrowser, title string) {
	t.Helper()
	id := wpPostID(t, w, title)
	link := b.Link(t, "/wp-admin/edit.php", regexp.MustCompile(`post\.php\?post=`+id+`&(?:amp;|#038;)action=trash&(?:amp;|#038;)_wpnonce=[0-9a-f]+`))
	wpGet(t, b, "/wp-admin/"+link)
}

// wpAddUser posts the Add New User form for maria with the role given.
func wpAddUser(t testing.TB, b *testenv.WordPressBrowser, role string) {
	t.Helper()
	form := b.Form(t, "/wp-admin/user-new.php", `id="createuser"`)
	form.Set("user_login", wpNewUser)
	form.Set("email", wpNewUserEmail)
	form.Set("pass1", "Maria-strong-pass-2026")
	form.Set("pass2", "Maria-strong-pass-2026")
	form.Set("role", role)
	form.Set("createuser", "Add New User")
	wpPost(t, b, "/wp-admin/user-new.php", form)
}

// wpGet follows one of the dashboard's action links (approve, trash), which redirect.
func wpGet(t testing.TB, b *testenv.WordPressBrowser, link string) {
	t.Helper()
	b.Get(t, link)
}

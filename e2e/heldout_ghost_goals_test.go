//go:build heldout

package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// ghostGoal is an everyday goal in Ghost's admin, written three ways as a person writes it
// from what the pages show ({signin} is the phrasing's way of signing in); done reads
// Ghost's database and says "" when the goal's effect is there and nothing else the pages
// change did, else what it found; do makes the effect through the Admin API requests the
// admin's pages send, and miss a near miss the judge must not take for it (another post, a
// draft left unpublished, a neighbouring name or role).
type ghostGoal struct {
	name      string
	phrasings [3]string
	done      func(t testing.TB, g *testenv.Ghost) string
	do, miss  func(t testing.TB, b *testenv.GhostBrowser)
}

const (
	ghostNewPost     = "Fish Market Moves to Pier 3"
	ghostNewBody     = "The Saturday fish market opens at its new home on Pier 3 this weekend."
	ghostRenamed     = "Winter Ferry Schedule Announced"
	ghostNewTag      = "Harbor History"
	ghostNewTagAbout = "Stories from the town's past."
	ghostInvitee     = "nina.lopez@example.com"
	ghostNewTitle    = "Harbor Light Weekly"
)

var ghostGoals = []ghostGoal{
	{
		name: "write and publish a post",
		phrasings: [3]string{
			`{signin}, click "Posts", click "New post", type "Fish Market Moves to Pier 3" into "Post title", type "The Saturday fish market opens at its new home on Pier 3 this weekend." into the body under the title ("Begin writing your post..."), click "Publish", click "Continue, final review →", click "Publish post, right now"`,
			`{signin}, then go to Posts and hit New post. Title it Fish Market Moves to Pier 3 and write "The Saturday fish market opens at its new home on Pier 3 this weekend." as the text below the title. Press Publish, then Continue, final review, then Publish post, right now.`,
			`{signin} Once you are in, open Posts in the menu on the left and click the New post button. Put "Fish Market Moves to Pier 3" in the Post title field and, in the body underneath it, type The Saturday fish market opens at its new home on Pier 3 this weekend. Then click Publish at the top right, go on with "Continue, final review →" and confirm with the button labelled Publish post, right now.`,
		},
		done: func(t testing.TB, g *testenv.Ghost) string { return ghostPublished(t, g, "published") },
		do:   func(t testing.TB, b *testenv.GhostBrowser) { ghostWritePost(t, b, "published") },
		miss: func(t testing.TB, b *testenv.GhostBrowser) { ghostWritePost(t, b, "draft") },
	},
	{
		name: "rename a published post",
		phrasings: [3]string{
			`{signin}, click "Posts", click "Ferry Schedule Changes for Winter", type "Winter Ferry Schedule Announced" into "Post title" in place of its title, click "Update"`,
			`{signin}, then in Posts open Ferry Schedule Changes for Winter, change its title to "Winter Ferry Schedule Announced" and hit Update.`,
			`{signin} Go to Posts in the left menu and click the published post "Ferry Schedule Changes for Winter" to open it in the editor. Replace the whole title with Winter Ferry Schedule Announced, leave the text below it alone, and press the Update button at the top right so that the change goes live.`,
		},
		done: func(t testing.TB, g *testenv.Ghost) string {
			return ghostExactly(t, g, func(s testenv.GhostState) { ghostRename(s, "Ferry Schedule Changes for Winter") })
		},
		do: func(t testing.TB, b *testenv.GhostBrowser) {
			ghostRenamePost(t, b, "Ferry Schedule Changes for Winter")
		},
		miss: func(t testing.TB, b *testenv.GhostBrowser) { ghostRenamePost(t, b, "Ferry Fares Rise in January") },
	},
	{
		name: "add a tag to a post",
		phrasings: [3]string{
			`{signin}, click "Posts", click "New Bakery Opens on Main Street", click the "Settings" icon at the top right of the editor, click the "Tags" field, type "Local Events", pick "Local Events" from the list`,
			`{signin}; Posts, open New Bakery Opens on Main Street, open its post settings (the sidebar icon top right) and add the existing tag Local Events in Tags, keeping Food & Drink.`,
			`{signin} Then open Posts and click the post called "New Bakery Opens on Main Street". Open the Post settings panel with the Settings icon in the top right corner of the editor, click into the field labelled Tags, start typing Local Events and choose the existing tag Local Events from the list. It already has the tag Food & Drink, which stays; a published post saves the new tag by itself.`,
		},
		done: func(t testing.TB, g *testenv.Ghost) string {
			return ghostExactly(t, g, func(s testenv.GhostState) {
				s["posts"]["New Bakery Opens on Main Street (post)"]["tags"] = "Food & Drink, Local Events"
			})
		},
		do: func(t testing.TB, b *testenv.GhostBrowser) {
			b.AddTag(t, "New Bakery Opens on Main Street", "Local Events")
		},
		miss: func(t testing.TB, b *testenv.GhostBrowser) {
			b.AddTag(t, "Why We Need a Bigger Library", "Local Events")
		},
	},
	{
		name: "create a tag",
		phrasings: [3]string{
			`{signin}, click "Tags", click "New tag", type "Harbor History" into "Name", type "Stories from the town's past." into "Description", click "Save"`,
			`{signin}, then Tags > New tag: name Harbor History, description "Stories from the town's past.", and press Save.`,
			`{signin} In the menu on the left choose Tags and click New tag. Write "Harbor History" in the Name field and Stories from the town's past. in the field labelled Description, leave the slug as it is filled in, then hit the Save button.`,
		},
		done: func(t testing.TB, g *testenv.Ghost) string {
			return ghostExactly(t, g, func(s testenv.GhostState) {
				s["tags"][ghostNewTag] = map[string]string{"slug": "harbor-history", "description": ghostNewTagAbout, "visibility": "public"}
			})
		},
		do:   func(t testing.TB, b *testenv.GhostBrowser) { b.CreateTag(t, ghostNewTag, ghostNewTagAbout) },
		miss: func(t testing.TB, b *testenv.GhostBrowser) { b.CreateTag(t, "Harbour History", ghostNewTagAbout) },
	},
	{
		name: "delete a draft post",
		phrasings: [3]string{
			`{signin}, click "Drafts", click "Lighthouse Tours Start in May", click the "Settings" icon at the top right of the editor, click "Delete post", click "Delete"`,
			`{signin}, then under Drafts open Lighthouse Tours Start in May, open its post settings (sidebar icon top right), hit Delete post and confirm with Delete.`,
			`{signin} Open Drafts in the left menu and click the draft "Lighthouse Tours Start in May". In the editor open the Post settings panel with the Settings icon at the top right, scroll to the bottom, press Delete post and then confirm by clicking the Delete button. The other lighthouse draft must stay.`,
		},
		done: func(t testing.TB, g *testenv.Ghost) string {
			return ghostExactly(t, g, func(s testenv.GhostState) { s["posts"]["Lighthouse Tours Start in May (post)"] = nil })
		},
		do:   func(t testing.TB, b *testenv.GhostBrowser) { b.DeletePost(t, "posts", "Lighthouse Tours Start in May") },
		miss: func(t testing.TB, b *testenv.GhostBrowser) { b.DeletePost(t, "posts", "Lighthouse Restoration Update") },
	},
	{
		name: "invite a staff user",
		phrasings: [3]string{
			`{signin}, click "Settings", click "Staff", click "Invite people", type "nina.lopez@example.com" into "Email address", select "Editor" under "Role", click "Send invitation"`,
			`{signin}, then Settings > Staff > Invite people: invite nina.lopez@example.com as an Editor and press Send invitation.`,
			`{signin} Go to Settings and open the Staff section, then click Invite people. Enter nina.lopez@example.com in the Email address field, choose the role "Editor" (not the default Contributor), and hit the Send invitation button.`,
		},
		done: func(t testing.TB, g *testenv.Ghost) string {
			return ghostExactly(t, g, func(s testenv.GhostState) {
				s["invites"][ghostInvitee] = map[string]string{"status": "sent", "role": "Editor"}
			})
		},
		do:   func(t testing.TB, b *testenv.GhostBrowser) { b.Invite(t, ghostInvitee, "Editor") },
		miss: func(t testing.TB, b *testenv.GhostBrowser) { b.Invite(t, ghostInvitee, "Author") },
	},
	{
		name: "change the site title",
		phrasings: [3]string{
			`{signin}, click "Settings", click "Edit" in "Title & description", type "Harbor Light Weekly" into "Site title", click "Save"`,
			`{signin}, then in Settings change the Site title under Title & description to Harbor Light Weekly (Edit, then Save).`,
			`{signin} Open Settings from the menu on the left. In the "Title & description" section press Edit, replace the Site title with Harbor Light Weekly, leave the Site description as it is, and click Save.`,
		},
		done: func(t testing.TB, g *testenv.Ghost) string {
			return ghostExactly(t, g, func(s testenv.GhostState) { s["settings"]["title"]["value"] = ghostNewTitle })
		},
		do: func(t testing.TB, b *testenv.GhostBrowser) {
			b.SetSettings(t, map[string]string{"title": ghostNewTitle})
		},
		miss: func(t testing.TB, b *testenv.GhostBrowser) {
			b.SetSettings(t, map[string]string{"title": "Harbor Lights Weekly"})
		},
	},
}

// ghostExactly says whether the database holds the seed changed by change and nothing
// else.
func ghostExactly(t testing.TB, g *testenv.Ghost, change func(testenv.GhostState)) string {
	want := g.Seed()
	change(want)
	return g.Differs(t, want)
}

// ghostRename moves the seed's post titled title to the goal's new title, all else as it
// was (its slug too: a published post keeps its address).
func ghostRename(s testenv.GhostState, title string) {
	posts := s["posts"]
	posts[ghostRenamed+" (post)"] = posts[title+" (post)"]
	posts[title+" (post)"] = nil
}

// ghostPublished says whether the database holds the seed and the goal's new post with the
// status status, by the owner, with no tags and the goal's sentence in its body, and
// nothing else changed.
func ghostPublished(t testing.TB, g *testenv.Ghost, status string) string {
	key := ghostNewPost + " (post)"
	row, ok := g.State(t)["posts"][key]
	if !ok {
		return "no post titled " + ghostNewPost
	}
	if row["status"] != status {
		return fmt.Sprintf("the post %s is %s, not %s", ghostNewPost, row["status"], status)
	}
	if !strings.Contains(row["plaintext"], ghostNewBody) {
		return fmt.Sprintf("the post %s reads %q, not the goal's sentence", ghostNewPost, row["plaintext"])
	}
	return ghostExactly(t, g, func(s testenv.GhostState) {
		s["posts"][key] = map[string]string{"status": status, "tags": "", "authors": testenv.GhostOwner, "visibility": "public"}
	})
}

// ghostWritePost writes the goal's new post as the editor does (a draft saved as soon as
// it has a title) and, unless status is "draft", publishes it as the publish flow's last
// button does.
func ghostWritePost(t testing.TB, b *testenv.GhostBrowser, status string) {
	t.Helper()
	b.CreatePost(t, "posts", testenv.GhostPost{Title: ghostNewPost, Body: ghostNewBody})
	if status != "draft" {
		b.SavePost(t, "posts", ghostNewPost, map[string]any{"status": status})
	}
}

// ghostRenamePost gives the post titled title the goal's new title, as the editor's
// Update does.
func ghostRenamePost(t testing.TB, b *testenv.GhostBrowser, title string) {
	t.Helper()
	b.SavePost(t, "posts", title, map[string]any{"title": ghostRenamed})
}

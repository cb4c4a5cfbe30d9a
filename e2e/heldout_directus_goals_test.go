//go:build heldout

package e2e

import (
	"testing"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// directusGoal is an everyday goal in Directus's Data Studio, written three ways as a
// person writes it from what the pages show ({signin} is the phrasing's way of signing
// in); done reads Directus's database and says "" when the goal's effect is there and
// nothing else the pages change did, else what it found; do makes the effect through the
// requests the Data Studio's pages send along the goal's path, and miss a near miss the
// judge must not take for it (another item, a neighbouring value or field).
type directusGoal struct {
	name      string
	phrasings [3]string
	done      func(t testing.TB, d *testenv.Directus) string
	do, miss  func(t testing.TB, b *testenv.DirectusBrowser)
}

const (
	directusNewTitle   = "New Bakery Opens on Main Street"
	directusNewBody    = "Fresh bread and pastries every morning from 7 am."
	directusAuthor     = "Tomas Okafor"
	directusEmail      = "t.okafor@example.com"
	directusDraft      = "Local Library Extends Weekend Hours"
	directusOtherDraft = "Farmers Market Returns to Riverside Park"
	directusGone       = "High School Robotics Team Wins Regional Title"
	directusField      = "subtitle"
	directusUserEmail  = "sofia.marquez@example.com"
	directusProject    = "Riverside Gazette"
)

var directusGoals = []directusGoal{
	{
		name: "create an article",
		phrasings: [3]string{
			`{signin}, click "Articles", click "Create", type "New Bakery Opens on Main Street" into "Title", type "Fresh bread and pastries every morning from 7 am." into "Body", click "Save"`,
			`{signin}, then add a new article in Articles titled New Bakery Opens on Main Street with the body "Fresh bread and pastries every morning from 7 am." and save it`,
			`{signin} Once you're in, open the Articles collection and press Create to start a new item. Fill the field labelled Title with "New Bakery Opens on Main Street" and the Body with "Fresh bread and pastries every morning from 7 am.", then hit Save. Leave the other fields as they are.`,
		},
		done: func(t testing.TB, d *testenv.Directus) string {
			return d.Differs(t, testenv.DirectusState{"articles": {directusNewTitle: {"status": "draft", "author": "", "body": directusNewBody}}})
		},
		do: func(t testing.TB, b *testenv.DirectusBrowser) {
			b.CreateItem(t, "articles", map[string]any{"title": directusNewTitle, "body": directusNewBody})
		},
		miss: func(t testing.TB, b *testenv.DirectusBrowser) {
			b.CreateItem(t, "articles", map[string]any{"title": "New Bakery Opens on Elm Street", "body": directusNewBody})
		},
	},
	{
		name: "change an author's email",
		phrasings: [3]string{
			`{signin}, click "Authors", click "Tomas Okafor", type "t.okafor@example.com" into "Email", click "Save"`,
			`{signin}; open Authors, pick Tomas Okafor, change his Email to t.okafor@example.com and press Save`,
			`{signin} After that, go to the Authors collection and open the author "Tomas Okafor". His email address has changed: replace whatever is in the Email field with t.okafor@example.com and click the Save button.`,
		},
		done: func(t testing.TB, d *testenv.Directus) string {
			return d.Differs(t, testenv.DirectusState{"authors": {directusAuthor: {"email": directusEmail}}})
		},
		do: func(t testing.TB, b *testenv.DirectusBrowser) {
			b.UpdateItem(t, "authors", "name", directusAuthor, map[string]any{"email": directusEmail})
		},
		miss: func(t testing.TB, b *testenv.DirectusBrowser) {
			b.UpdateItem(t, "authors", "name", directusAuthor, map[string]any{"email": "t.okafor@example.org"})
		},
	},
	{
		name: "publish a draft article",
		phrasings: [3]string{
			`{signin}, click "Articles", click "Local Library Extends Weekend Hours", select "Published" in "Status", click "Save"`,
			`{signin}, then publish the draft article Local Library Extends Weekend Hours: set its Status to Published and save`,
			`{signin} Then find the article called "Local Library Extends Weekend Hours" in Articles (it's still a draft). Open it, change the Status dropdown from Draft to Published and press Save so it goes live.`,
		},
		done: func(t testing.TB, d *testenv.Directus) string {
			return d.Differs(t, testenv.DirectusState{"articles": {directusDraft: {"status": "published"}}})
		},
		do: func(t testing.TB, b *testenv.DirectusBrowser) {
			b.UpdateItem(t, "articles", "title", directusDraft, map[string]any{"status": "published"})
		},
		miss: func(t testing.TB, b *testenv.DirectusBrowser) {
			b.UpdateItem(t, "articles", "title", directusOtherDraft, map[string]any{"status": "published"})
		},
	},
	{
		name: "delete an article",
		phrasings: [3]string{
			`{signin}, click "Articles", click "High School Robotics Team Wins Regional Title", click the "Delete" button (the trash can), then click "Delete" to confirm`,
			`{signin}, open the article High School Robotics Team Wins Regional Title in Articles and delete it for good (not archive), confirming with Delete`,
			`{signin} That robotics story went out by mistake, so please remove it completely. Go to Articles, open "High School Robotics Team Wins Regional Title", hit the trash can icon (Delete) at the top of the page and confirm with Delete in the box that pops up.`,
		},
		done: func(t testing.TB, d *testenv.Directus) string {
			return d.Differs(t, testenv.DirectusState{"articles": {directusGone: nil}})
		},
		do: func(t testing.TB, b *testenv.DirectusBrowser) { b.DeleteItem(t, "articles", "title", directusGone) },
		// Archive, the button beside Delete, sets the Status to Archived and keeps the item.
		miss: func(t testing.TB, b *testenv.DirectusBrowser) {
			b.UpdateItem(t, "articles", "title", directusGone, map[string]any{"status": "archived"})
		},
	},
	{
		name: "add a field to articles",
		phrasings: [3]string{
			`{signin}, click "Settings", click "articles", click "Create Field", click "Input", type "subtitle" into "Key", click "Save"`,
			`{signin}, then in Settings > Data Model open articles and add an Input field with the key subtitle`,
			`{signin} Next, go to Settings (the gear icon in the narrow bar on the far left), which opens the Data Model. Click the articles collection, press Create Field, choose the Input type and give it the key "subtitle", then click Save. Don't change anything else about the collection.`,
		},
		done: func(t testing.TB, d *testenv.Directus) string {
			return d.Differs(t, testenv.DirectusState{
				"fields":  {"articles." + directusField: {"interface": "input", "hidden": "0"}},
				"columns": {"articles." + directusField: {"type": "*"}},
			})
		},
		do:   func(t testing.TB, b *testenv.DirectusBrowser) { b.CreateInputField(t, "articles", directusField) },
		miss: func(t testing.TB, b *testenv.DirectusBrowser) { b.CreateInputField(t, "authors", directusField) },
	},
	{
		name: "create a user with a role",
		phrasings: [3]string{
			`{signin}, click "User Directory", click "Create", type "Sofia" into "First Name", type "Marquez" into "Last Name", type "sofia.marquez@example.com" into "Email", select "Editor" in "Role", click "Save"`,
			`{signin}, then add a user in the User Directory: Sofia Marquez, email sofia.marquez@example.com, role Editor; save`,
			`{signin} Our new editor Sofia Marquez starts today. Open the User Directory (the people icon on the far left), click Create, and fill in First Name "Sofia", Last Name "Marquez" and Email "sofia.marquez@example.com". In the Role field pick Editor, then click Save. She doesn't need a password yet.`,
		},
		done: func(t testing.TB, d *testenv.Directus) string {
			return d.Differs(t, testenv.DirectusState{"users": {directusUserEmail: {
				"first_name": "Sofia", "last_name": "Marquez", "role": "Editor", "status": "active", "title": "",
			}}})
		},
		do: func(t testing.TB, b *testenv.DirectusBrowser) {
			b.CreateUser(t, "Sofia", "Marquez", directusUserEmail, "Editor")
		},
		miss: func(t testing.TB, b *testenv.DirectusBrowser) {
			b.CreateUser(t, "Sofia", "Marquez", directusUserEmail, "Contributor")
		},
	},
	{
		name: "rename the project",
		phrasings: [3]string{
			`{signin}, click "Settings", click "Settings" in the side menu, type "Riverside Gazette" into "Project Name", click "Save"`,
			`{signin}, then rename the project to Riverside Gazette (Settings > Settings > Project Name) and save`,
			`{signin} The paper is getting a new name. Go to the Settings area with the gear icon, open the Settings page in its menu and change the field labelled Project Name from Northwind News to "Riverside Gazette". Hit Save when you're done.`,
		},
		done: func(t testing.TB, d *testenv.Directus) string {
			return d.Differs(t, testenv.DirectusState{"settings": {"project": {"project_name": directusProject}}})
		},
		do: func(t testing.TB, b *testenv.DirectusBrowser) {
			b.UpdateSettings(t, map[string]any{"project_name": directusProject})
		},
		miss: func(t testing.TB, b *testenv.DirectusBrowser) {
			b.UpdateSettings(t, map[string]any{"project_descriptor": directusProject})
		},
	},
}

package testenv

import (
	"net/http"
	"testing"
)

// DirectusAuthor is an author of the seed: an item of the collection authors.
type DirectusAuthor struct{ Name, Email string }

// DirectusArticle is an article of the seed: an item of the collection articles, its
// status one of the Status dropdown's values (published, draft, archived) and its author
// an author's name.
type DirectusArticle struct{ Title, Status, Author, Body string }

// DirectusUser is a user of the seed besides the admin, with the role named Role.
type DirectusUser struct{ First, Last, Email, Role string }

// DirectusProject is the seed's project name, shown above the Data Studio's navigation.
const DirectusProject = "Northwind News"

// DirectusSeedPassword is the seed's users' password.
const DirectusSeedPassword = "Newsroom-Seed-77"

// The seed every instance starts from: a small town newsroom's authors and articles, two
// roles of its own (each with an access policy of the same name that may use the Data
// Studio) and one user besides the admin. Directus's Core plan, which an instance with no
// license key is on, has three seats (users who may use the Data Studio): the seed takes
// two, so that a goal's new user takes the third and is made active.
var (
	DirectusAuthors = []DirectusAuthor{
		{"Maya Lindgren", "maya.lindgren@example.com"},
		{"Tomas Okafor", "tomas.okafor@example.com"},
		{"Priya Natarajan", "priya.natarajan@example.com"},
	}
	DirectusArticles = []DirectusArticle{
		{"City Council Approves New Bike Lanes", "published", "Maya Lindgren", "The council voted 7 to 2 to add protected bike lanes on Elm Street."},
		{"Farmers Market Returns to Riverside Park", "draft", "Tomas Okafor", "Stalls open every Saturday from May to October."},
		{"Local Library Extends Weekend Hours", "draft", "Priya Natarajan", "The central library will stay open until 8 pm on Saturdays."},
		{"High School Robotics Team Wins Regional Title", "published", "Maya Lindgren", "The team's robot beat 24 others in the final round."},
		{"Summer Concert Series Lineup Announced", "published", "Tomas Okafor", "Six bands will play the bandstand on Thursday evenings."},
	}
	DirectusRoles = []string{"Editor", "Contributor"}
	DirectusUsers = []DirectusUser{
		{"Lena", "Fischer", "lena.fischer@example.com", "Editor"},
	}
)

// seedAPI signs in as the admin and writes the seed through the REST API, as the Data
// Studio's pages would: the project's settings (its name, and the owner and usage its
// first sign-in would otherwise ask for), the collections authors and articles with their
// fields and the many-to-one from an article to its author, their items, the roles with
// their policies, and the users. It then keeps what the database holds as the fresh state.
func (d *Directus) seedAPI(t testing.TB) {
	t.Helper()
	b := d.Browser()
	b.SignIn(t)
	b.UpdateSettings(t, map[string]any{"project_name": DirectusProject, "project_owner": d.Email,
		"project_usage": "commercial", "org_name": DirectusProject, "product_updates": false})
	b.Call(t, http.MethodPost, "/collections", directusAuthorsCollection())
	b.Call(t, http.MethodPost, "/collections", directusArticlesCollection())
	b.Call(t, http.MethodPost, "/relations", map[string]any{"collection": "articles", "field": "author",
		"related_collection": "authors", "schema": map[string]any{"on_delete": "SET NULL"}})
	authors := map[string]string{}
	for _, a := range DirectusAuthors {
		b.CreateItem(t, "authors", map[string]any{"name": a.Name, "email": a.Email})
		authors[a.Name] = b.ItemID(t, "authors", "name", a.Name)
	}
	for _, a := range DirectusArticles {
		b.CreateItem(t, "articles", map[string]any{"title": a.Title, "status": a.Status, "author": authors[a.Author], "body": a.Body})
	}
	for _, r := range DirectusRoles {
		b.Call(t, http.MethodPost, "/roles", directusRole(r))
	}
	for _, u := range DirectusUsers {
		b.Call(t, http.MethodPost, "/users", map[string]any{"first_name": u.First, "last_name": u.Last, "email": u.Email,
			"password": DirectusSeedPassword, "role": b.RoleID(t, u.Role)})
	}
	d.seed = d.State(t)
	if n := len(d.seed["articles"]); n != len(DirectusArticles) {
		t.Fatalf("directus: the seed stored %d articles, not %d: %v", n, len(DirectusArticles), d.seed["articles"])
	}
	if n := len(d.seed["users"]); n != len(DirectusUsers)+1 {
		t.Fatalf("directus: the seed stored %d users, not %d: %v", n, len(DirectusUsers)+1, d.seed["users"])
	}
}

// directusID is an integer primary key's field, hidden and read-only as the Data Studio
// makes it for a new collection.
func directusID() map[string]any {
	return map[string]any{"field": "id", "type": "integer",
		"meta":   map[string]any{"hidden": true, "interface": "input", "readonly": true},
		"schema": map[string]any{"is_primary_key": true, "has_auto_increment": true}}
}

func directusAuthorsCollection() map[string]any {
	return map[string]any{"collection": "authors", "schema": map[string]any{},
		"meta": map[string]any{"icon": "person", "display_template": "{{name}}"},
		"fields": []any{directusID(),
			map[string]any{"field": "name", "type": "string", "meta": map[string]any{"interface": "input", "required": true, "width": "half"}, "schema": map[string]any{}},
			map[string]any{"field": "email", "type": "string", "meta": map[string]any{"interface": "input", "width": "half"}, "schema": map[string]any{}},
		}}
}

// directusArticlesCollection is articles as the Data Studio's Create Collection makes it
// with a status field: its Status dropdown (Published, Draft, Archived, Draft by default)
// archives an item by setting it to archived.
func directusArticlesCollection() map[string]any {
	choices := []any{
		map[string]any{"text": "Published", "value": "published"},
		map[string]any{"text": "Draft", "value": "draft"},
		map[string]any{"text": "Archived", "value": "archived"},
	}
	return map[string]any{"collection": "articles", "schema": map[string]any{},
		"meta": map[string]any{"icon": "article", "display_template": "{{title}}",
			"archive_field": "status", "archive_value": "archived", "unarchive_value": "draft"},
		"fields": []any{directusID(),
			map[string]any{"field": "status", "type": "string", "schema": map[string]any{"default_value": "draft", "is_nullable": false},
				"meta": map[string]any{"interface": "select-dropdown", "width": "half", "options": map[string]any{"choices": choices},
					"display": "labels", "display_options": map[string]any{"choices": choices}}},
			map[string]any{"field": "title", "type": "string", "meta": map[string]any{"interface": "input", "required": true}, "schema": map[string]any{}},
			map[string]any{"field": "author", "type": "integer", "schema": map[string]any{},
				"meta": map[string]any{"interface": "select-dropdown-m2o", "width": "half", "special": []string{"m2o"},
					"options": map[string]any{"template": "{{name}}"}, "display": "related-values", "display_options": map[string]any{"template": "{{name}}"}}},
			map[string]any{"field": "body", "type": "text", "meta": map[string]any{"interface": "input-multiline"}, "schema": map[string]any{}},
		}}
}

// directusRole is a role named name with an access policy of the same name that may use the
// Data Studio and read, create and change the newsroom's articles and authors.
func directusRole(name string) map[string]any {
	var perms []any
	for _, c := range []string{"articles", "authors"} {
		for _, a := range []string{"read", "create", "update"} {
			perms = append(perms, map[string]any{"collection": c, "action": a, "fields": []string{"*"}})
		}
	}
	return map[string]any{"name": name, "icon": "badge", "description": name + "s of the newsroom",
		"policies": []any{map[string]any{"policy": map[string]any{"name": name, "icon": "badge",
			"app_access": true, "admin_access": false, "permissions": perms}}}}
}

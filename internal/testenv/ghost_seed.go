package testenv

import (
	"net/http"
	"strings"
	"testing"
)

// GhostPost is a post or page of the seed: its title, its body (one paragraph), whether it
// is published (else a draft), and its tags' names.
type GhostPost struct {
	Title, Body string
	Published   bool
	Tags        []string
}

// GhostStaff is a staff user of the seed besides the owner, with the role named Role.
type GhostStaff struct{ Name, Email, Role string }

// GhostSiteTitle is the seed's site title, shown above the admin's menu.
const GhostSiteTitle = "The Harbor Light"

// GhostSeedPassword is the seed's staff users' password.
const GhostSeedPassword = "Newsroom-Seed-77"

// The seed every instance starts from, besides what Ghost makes itself (its post "Coming
// soon", its page "About this site" and its tag News): a harbour town's newspaper, its
// tags, its posts (pairs alike enough for a near miss: two ferry stories, two lighthouse
// drafts), two pages of its own, and three staff users, one of each lesser role, who joined
// through invitations.
var (
	GhostTags = []struct{ Name, Description string }{
		{"Local Events", "What is on in town this week."},
		{"Food & Drink", "Restaurants, cafés and the market."},
		{"Opinion", "Columns and letters from readers."},
		{"Harbor Life", "Boats, fishing and the people of the waterfront."},
	}
	GhostPosts = []GhostPost{
		{"Harbor Festival Returns This Summer", "The three-day festival comes back to the waterfront in July.", true, []string{"Local Events"}},
		{"New Bakery Opens on Main Street", "Crumb and Co. serves sourdough and pastries from seven every morning.", true, []string{"Food & Drink"}},
		{"Ferry Schedule Changes for Winter", "From November the last ferry leaves the island at six in the evening.", true, []string{"News"}},
		{"Ferry Fares Rise in January", "A return ticket will cost two dollars more from the first of January.", true, []string{"News"}},
		{"Why We Need a Bigger Library", "The reading room is full every afternoon and the waiting list keeps growing.", true, []string{"Opinion"}},
		{"Lighthouse Restoration Update", "Painters finished the lantern room and the stairs are next.", false, []string{"Harbor Life"}},
		{"Lighthouse Tours Start in May", "Guided tours of the lighthouse will run every Sunday afternoon.", false, []string{"Local Events"}},
	}
	GhostPages = []GhostPost{
		{"Contact Us", "Write to the newsroom at the harbour office, or call us on weekdays.", true, nil},
		{"Advertise With Us", "Reach every household in town with a weekly advertisement.", false, nil},
	}
	GhostStaffUsers = []GhostStaff{
		{"Marcus Bell", "marcus.bell@example.com", "Editor"},
		{"Priya Shah", "priya.shah@example.com", "Author"},
		{"Tom Reed", "tom.reed@example.com", "Contributor"},
	}
)

// seedAPI sets the owner up through Ghost's setup API (as its setup pages do), signs in as
// the owner and writes the seed through the Admin API, as the admin's pages would: the
// tags, the posts and pages (their bodies sent as HTML, which Ghost turns into its editor's
// document), and the staff, each invited and then joined through its invitation (as the
// invitation's link does). It then keeps what the database holds as the fresh state.
func (g *Ghost) seedAPI(t testing.TB) {
	t.Helper()
	b := g.Browser()
	b.Call(t, http.MethodPost, "/authentication/setup/", map[string]any{"setup": []any{map[string]any{
		"name": GhostOwner, "email": g.Email, "password": g.Password, "blogTitle": GhostSiteTitle}}})
	b.SignIn(t)
	for _, tag := range GhostTags {
		b.CreateTag(t, tag.Name, tag.Description)
	}
	for _, p := range GhostPosts {
		b.CreatePost(t, "posts", p)
	}
	for _, p := range GhostPages {
		b.CreatePost(t, "pages", p)
	}
	for _, s := range GhostStaffUsers {
		b.Invite(t, s.Email, s.Role)
		g.acceptInvite(t, s)
	}
	g.seed = g.State(t)
	if n := len(g.seed["posts"]); n != len(GhostPosts)+len(GhostPages)+2 {
		t.Fatalf("ghost: the seed stored %d posts and pages, not %d: %v", n, len(GhostPosts)+len(GhostPages)+2, g.seed["posts"])
	}
	if n := len(g.seed["users"]); n != len(GhostStaffUsers)+1 {
		t.Fatalf("ghost: the seed stored %d staff users, not %d: %v", n, len(GhostStaffUsers)+1, g.seed["users"])
	}
}

// acceptInvite joins the staff user s through the invitation sent to its email, as the
// invitation's link and its sign-up form do: the link holds the invitation's token (kept
// in the database, sent URL-safe), the form a name and a password.
func (g *Ghost) acceptInvite(t testing.TB, s GhostStaff) {
	t.Helper()
	rows := g.Query(t, "SELECT token FROM invites WHERE email = '"+strings.ReplaceAll(s.Email, "'", "''")+"'")
	if len(rows) != 1 {
		t.Fatalf("ghost: no invitation was sent to %s", s.Email)
	}
	token := strings.TrimRight(strings.NewReplacer("+", "-", "/", "_").Replace(rows[0]["token"]), "=")
	g.Browser().Call(t, http.MethodPost, "/authentication/invitation/", map[string]any{"invitation": []any{map[string]any{
		"token": token, "email": s.Email, "name": s.Name, "password": GhostSeedPassword}}})
}

package driver_test

import (
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/activities/browser/driver"
	"github.com/webagent-dev/webagent/plan"
)

// An unseenCase is a goal written three ways on a lab page that reproduces an app nobody
// here had seen, judged by what the page saved on the server.
type unseenCase struct {
	name, page, state string
	goals             []string
	want              string // in what the page saved; "" for a goal that must be refused
}

// TestWaysThroughPagesAndPurposes: from the ninth pool (read after its blind run): a way
// through pages written as a path or a list (each item a link to the page that shows the
// next, which pointing at it does not); a control named after what it is for, in the row
// of the thing named; a command in the page's toolbar, beside the same words outside it.
func TestWaysThroughPagesAndPurposes(t *testing.T) {
	runUnseen(t, newPool(t), []unseenCase{
		{"a path through pages of links", "unseen-hosts.html", "hosts", []string{
			`click "Virtual Hosts" > "example.org" > "Users", click "Remove User" in the row "omar@example.org"`,
			`Go to Virtual Hosts, example.org, Users, then click Remove User in the row of omar@example.org`,
			`Omar has left. Virtual Hosts → example.org → Users, then press "Remove User" in the row "omar@example.org" (not omar@lab.example.org).`,
		}, `"removed":"omar@example.org"`},
		{"a control named after its purpose, in the row of the thing named", "unseen-hosts.html?view=apps", "hosts", []string{
			`click "Stop" in the row "/inventory"`,
			`stop /inventory with the Stop button of its row`,
			`The inventory service is down for maintenance. Stop /inventory (not /invoices) by clicking Stop in its row.`,
		}, `"cmd":"stop /inventory"`},
		{"a command in the toolbar, its words also outside it", "unseen-hosts.html?view=pad", "hosts", []string{
			`click "Clear Authorship Colors" in the toolbar`,
			`clear the colours with the Clear Authorship Colors button in the toolbar`,
			`press the Clear Authorship Colors button in the toolbar`,
		}, `"cmd":"clear colors"`},
		{"a choice among radio buttons drawn as cards, named by their group", "unseen-invite.html", "invite", []string{
			`type "nina@example.com" into "Email address", select "Editor" under "Role", click "Send invitation"`,
			`Enter nina@example.com in the Email address field, choose the role "Editor" (not the default Contributor), and hit the Send invitation button.`,
			`fill Email address with nina@example.com, then pick Editor in Role and press "Send invitation"`,
		}, `"email":"nina@example.com","role":"editor"`},
		{"an OK a page enables when a key goes up in the field", "unseen-invite.html", "group", []string{
			`type "Warehouse Scanners" into "Name", click "OK"`,
			`enter Warehouse Scanners in the Name field and press OK`,
			`Type "Warehouse Scanners" into the field labelled Name, then click the OK button.`,
		}, `{"group":"Warehouse Scanners"}`},
		{"a choice in a fieldset of radio buttons named by its legend", "unseen-invite.html", "invite", []string{
			`select "Team" under "Plan", click "Send invitation"`,
			`choose Team in the Plan group, then press Send invitation`,
			`Pick "Team" from Plan and click the Send invitation button.`,
		}, `"plan":"team"`},
		{"a choice among bare radio buttons, each named by the words after it", "unseen-invite.html", "invite", []string{
			`select "Yearly" under "Billing", click "Send invitation"`,
			`choose Yearly in the Billing group, then press Send invitation`,
			`Pick "Yearly" from Billing and click the Send invitation button.`,
		}, `"billing":"yearly"`},
		{"a bare radio button, named by the words after it and not by the ones before", "unseen-invite.html", "invite", []string{
			`click "Yearly", click "Send invitation"`,
			`choose the Yearly option and press Send invitation`,
			`Tick "Yearly", then hit the Send invitation button.`,
		}, `"billing":"yearly"`},
		{"a command on an application's second line, whose first cells span both", "unseen-manager.html", "manager", []string{
			`click "Expire sessions" in the row "/shop"`,
			`press Expire sessions in the row of /shop`,
			`find "/shop" and click the Expire sessions button in its row`,
		}, `"expired":"/shop"`},
		{"a field between words, in a row's second line", "unseen-manager.html", "manager", []string{
			`in the row of "/shop" replace "30" with "0" in the field between "with idle ≥" and "minutes", then click "Expire sessions" in that row`,
			`type "0" into "with idle ≥" in the row "/shop", click "Expire sessions" in the row "/shop"`,
			`Type 0 into the field between "with idle ≥" and "minutes" in the row "/shop", then press "Expire sessions" in the row "/shop".`,
		}, `"expired":"/shop","idle":"0"`},
		{"fields under a section titled by a row that spans the table", "unseen-manager.html", "manager", []string{
			`under "Deploy directory or WAR file located on server" type "/catalog" into "Context Path", type "releases/catalog-2.1.war" into "WAR or Directory path", click "Deploy" under "Deploy directory or WAR file located on server"`,
			`type /catalog into the Context Path field and releases/catalog-2.1.war into the field labelled "WAR or Directory path", then press the Deploy button under "Deploy directory or WAR file located on server"`,
			`In the "Deploy directory or WAR file located on server" section, enter "/catalog" in "Context Path" and "releases/catalog-2.1.war" in "WAR or Directory path". Click "Deploy" in the "Deploy directory or WAR file located on server" section.`,
		}, `"deployed":"/catalog","war":"releases/catalog-2.1.war"`},
	})
}

// runUnseen runs each case's goals, each on a fresh page.
func runUnseen(t *testing.T, pool *driver.Pool, cases []unseenCase) {
	for _, tt := range cases {
		for i, goal := range tt.goals {
			t.Run(tt.name+"/"+string(rune('a'+i)), func(t *testing.T) {
				steps, err := plan.Parse(goal)
				if err != nil {
					t.Fatalf("%q: %v", goal, err)
				}
				s, app := openLab(t, pool, tt.name+string(rune('a'+i)), tt.page)
				before := string(app.LabState(tt.state))
				for _, step := range steps {
					out, err := s.Do(t.Context(), step, driver.DoOptions{WaitBudget: 2 * time.Second})
					if err != nil {
						t.Fatal(err)
					}
					if !out.OK {
						if tt.want == "" && !out.Acted && len(out.Candidates) == 2 {
							return // refused, naming both
						}
						t.Fatalf("%s: %+v (actions %q)\n%s", step, out.Feedback, out.Actions, out.Before.Compact())
					}
				}
				if tt.want == "" {
					t.Fatalf("%q acted; it names two controls that differ", goal)
				}
				if got := labSaved(app, tt.state, holds(tt.want)); !strings.Contains(got, tt.want) {
					t.Errorf("%q: the page saved %s (before: %s); want %s in it", goal, got, before, tt.want)
				}
			})
		}
	}
}

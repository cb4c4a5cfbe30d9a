//go:build heldout

package e2e

import (
	"strings"
	"testing"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// mailmanGoal is one everyday goal of a list owner on Mailman's web UI: its phrasings
// ({signin} is where the goal signs in), its judge (what the core's database lacks, ""
// when it holds exactly the goal's effect), the effect made through Postorius's own pages
// (do) and a near miss of it (miss).
type mailmanGoal struct {
	name      string
	phrasings [3]string
	done      func(t *testing.T, m *testenv.Mailman) string
	do, miss  func(t *testing.T, b *testenv.MailmanBrowser)
}

// The lists the goals act on.
const (
	mailmanStaff    = "staff.lists.example.org"
	mailmanSupport  = "support.lists.example.org"
	mailmanEvents24 = "events-2024.lists.example.org"
)

var mailmanGoals = []mailmanGoal{
	{
		name: "create a list",
		phrasings: [3]string{
			`{signin}, click "Create New List", type "volunteers" into "List Name", select "lists.example.org" in "Mail Host", type "Volunteer coordination" into "Short Description", click "Create list"`,
			`{signin}. Then click Create New List, enter volunteers as the List Name, pick lists.example.org as the Mail Host, put "Volunteer coordination" in the Short Description field and hit Create list.`,
			`{signin} On the list index press "Create New List"; fill the field labelled List Name with volunteers, choose the mail host lists.example.org, write Volunteer coordination as its short description and click the Create list button.`,
		},
		done: func(t *testing.T, m *testenv.Mailman) string {
			const id = "volunteers.lists.example.org"
			return m.Exactly(t, func(want, now testenv.MailmanState) {
				testenv.MailmanTake(want, now, "list", id+"/")
				testenv.MailmanTake(want, now, "member", id+">")
				want["list"][id+"/mail_host"] = "lists.example.org"
				want["list"][id+"/description"] = "Volunteer coordination"
				if _, ok := want["member"][id+">admin@example.org>owner"]; !ok {
					want["member"][id+">admin@example.org>owner"] = "admin, the list's owner"
				}
			})
		},
		do: func(t *testing.T, b *testenv.MailmanBrowser) {
			b.CreateList(t, "volunteers", "lists.example.org", "Volunteer coordination")
		},
		miss: func(t *testing.T, b *testenv.MailmanBrowser) {
			b.CreateList(t, "volunteers", "lists.example.net", "Volunteer coordination")
		},
	},
	{
		name: "subscribe a member",
		phrasings: [3]string{
			`{signin}, click "Staff", click "Mass operations", click "Mass subscribe", type "Elena Petrova <elena.petrova@example.com>" into "Emails to mass subscribe", check "Pre Verified", click "Subscribe users"`,
			`{signin}, open the Staff list, then under Mass operations choose Mass subscribe. Enter Elena Petrova <elena.petrova@example.com> in the Emails to mass subscribe box, tick Pre Verified (leave Pre confirm and Pre approved ticked) and press Subscribe users.`,
			`{signin} Go to the list "Staff" and pick "Mass subscribe" from the Mass operations menu; put "Elena Petrova <elena.petrova@example.com>" into the field labelled Emails to mass subscribe, make sure the Pre Verified box is checked, then hit the Subscribe users button.`,
		},
		done: func(t *testing.T, m *testenv.Mailman) string {
			const elena = "elena.petrova@example.com"
			return m.Exactly(t, func(want, now testenv.MailmanState) {
				testenv.MailmanTake(want, now, "address", elena)
				testenv.MailmanTake(want, now, "member", mailmanStaff+">"+elena+">member")
				if _, ok := want["member"][mailmanStaff+">"+elena+">member"]; !ok {
					want["member"][mailmanStaff+">"+elena+">member"] = "Elena Petrova, subscribed"
				}
			})
		},
		do: func(t *testing.T, b *testenv.MailmanBrowser) {
			b.MassSubscribe(t, "Staff", []string{"Elena Petrova <elena.petrova@example.com>"}, true)
		},
		miss: func(t *testing.T, b *testenv.MailmanBrowser) {
			// Pre Verified left unticked: the subscription waits for Elena's confirmation.
			b.MassSubscribe(t, "Staff", []string{"Elena Petrova <elena.petrova@example.com>"}, false)
		},
	},
	{
		name: "remove a member found by search",
		phrasings: [3]string{
			`{signin}, click "Staff", click "Users", click "Members", type "mendes" into "Search members...", press Enter, check the box in the row of "Carla Mendes", click "Remove Selected"`,
			`{signin}, open the Staff list, go to Users > Members, search the members for mendes, tick Carla Mendes in the results and hit Remove Selected.`,
			`{signin} In the Staff list's Users menu choose Members. Type mendes into the "Search members..." box and press Enter; then check the box next to Carla Mendes <carla.mendes@example.com> and click the Remove Selected button.`,
		},
		done: func(t *testing.T, m *testenv.Mailman) string {
			return m.Exactly(t, func(want, _ testenv.MailmanState) {
				delete(want["member"], mailmanStaff+">carla.mendes@example.com>member")
			})
		},
		do: func(t *testing.T, b *testenv.MailmanBrowser) {
			b.RemoveMembers(t, "Staff", "mendes", "carla.mendes@example.com")
		},
		miss: func(t *testing.T, b *testenv.MailmanBrowser) {
			b.RemoveMembers(t, "Staff", "mendel", "carl.mendel@example.com")
		},
	},
	{
		name: "change a list's description",
		phrasings: [3]string{
			`{signin}, click "Support Team", click "Settings", type "Customer support and escalations" into "Short Description", click "Save changes"`,
			`{signin}, open Support Team and go to its Settings; on the List Identity tab change the Short Description to Customer support and escalations and press Save changes.`,
			`{signin} Open the list "Support Team", click Settings, replace what the field labelled Short Description says with "Customer support and escalations", then hit Save changes.`,
		},
		done: func(t *testing.T, m *testenv.Mailman) string {
			return m.Exactly(t, func(want, _ testenv.MailmanState) {
				want["list"][mailmanSupport+"/description"] = "Customer support and escalations"
			})
		},
		do: func(t *testing.T, b *testenv.MailmanBrowser) {
			b.SaveSettings(t, "Support Team", "List Identity", map[string]string{"description": "Customer support and escalations"})
		},
		miss: func(t *testing.T, b *testenv.MailmanBrowser) {
			b.SaveSettings(t, "Support Team", "List Identity", map[string]string{"info": "Customer support and escalations"})
		},
	},
	{
		name: "hold a member's posts",
		phrasings: [3]string{
			`{signin}, click "Staff", click "Users", click "Members", click "dmitri.volkov@example.com", select "Hold for moderation" in "Moderation", click "Save changes" under "Administration options"`,
			`{signin}, open Staff, go to Users > Members and click Dmitri Volkov's address. Under Administration options set Moderation to Hold for moderation and hit the Save changes button of that box.`,
			`{signin} In the Staff list open Members from the Users menu, click dmitri.volkov@example.com, then in the section "Administration options" choose "Hold for moderation" for the field labelled Moderation and press Save changes there.`,
		},
		done: func(t *testing.T, m *testenv.Mailman) string {
			return m.Exactly(t, func(want, _ testenv.MailmanState) {
				k := mailmanStaff + ">dmitri.volkov@example.com>member"
				_, prefs, _ := strings.Cut(want["member"][k], ";")
				want["member"][k] = "moderation=hold;" + prefs
			})
		},
		do: func(t *testing.T, b *testenv.MailmanBrowser) {
			b.SetModeration(t, "Staff", `"Dmitri Volkov" <dmitri.volkov@example.com>`, "hold")
		},
		miss: func(t *testing.T, b *testenv.MailmanBrowser) {
			b.SetModeration(t, "Staff", `"Dmitri Volkov" <dmitri.volkov@example.com>`, "reject")
		},
	},
	{
		name: "ban an address from a list",
		phrasings: [3]string{
			`{signin}, click "Support Team", click "Ban List", type "jobs@recruit-now.example" into "Add ban", click "Ban email", check that "has been banned" appears`,
			`{signin}, open the Support Team list, go to its Ban List tab, enter jobs@recruit-now.example in the Add ban field and press Ban email.`,
			`{signin} Ban the address "jobs@recruit-now.example" from the list Support Team: open that list, click Ban List, type the address into the box labelled Add ban, then hit Ban email.`,
		},
		done: func(t *testing.T, m *testenv.Mailman) string {
			return m.Exactly(t, func(want, _ testenv.MailmanState) {
				want["ban"][mailmanSupport+">jobs@recruit-now.example"] = ""
			})
		},
		do: func(t *testing.T, b *testenv.MailmanBrowser) { b.Ban(t, "Support Team", "jobs@recruit-now.example") },
		miss: func(t *testing.T, b *testenv.MailmanBrowser) {
			b.Ban(t, "", "jobs@recruit-now.example") // the site's Bans page: every list
		},
	},
	{
		name: "delete a list",
		phrasings: [3]string{
			`{signin}, click "Events 2024", click "Delete", click "Delete events-2024@lists.example.org"`,
			`{signin}, open the Events 2024 list, click its Delete tab and confirm with the Delete events-2024@lists.example.org button.`,
			`{signin} Delete the mailing list "Events 2024": open it from the list index, press Delete in its menu, then hit the red Delete events-2024@lists.example.org button to confirm.`,
		},
		done: func(t *testing.T, m *testenv.Mailman) string {
			return m.Exactly(t, func(want, _ testenv.MailmanState) { testenv.MailmanDeleteList(want, mailmanEvents24) })
		},
		do:   func(t *testing.T, b *testenv.MailmanBrowser) { b.DeleteList(t, "Events 2024") },
		miss: func(t *testing.T, b *testenv.MailmanBrowser) { b.DeleteList(t, "Events 2025") },
	},
}

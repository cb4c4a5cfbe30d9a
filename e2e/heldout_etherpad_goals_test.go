//go:build heldout

package e2e

import (
	"testing"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// etherpadGoal is an everyday goal on Etherpad's pages, written three ways as a person
// writes it from what the pages show (every goal starts on the home page and opens its pad
// by name there; the pads need no sign-in); done reads Etherpad's database file and says ""
// when the goal's effect is there and nothing else the pages change did, else what it
// found; do makes the effect through the pages along the goal's path (the pad's page and
// the messages it sends its server), and miss a near miss the judge must not take for it
// (another pad, another line, a neighbouring name).
type etherpadGoal struct {
	name      string
	phrasings [3]string
	done      func(t testing.TB, e *testenv.Etherpad) string
	do, miss  func(t testing.TB, b *testenv.EtherpadBrowser)
}

// etherpadAfterEdit is the authorship of a seed pad both seed authors wrote once a visitor
// without a name typed in it.
const etherpadAfterEdit = "Jonas Berg, Maria Lopez, unnamed"

var etherpadGoals = []etherpadGoal{
	{
		name: "add a line at the end of a pad",
		phrasings: [3]string{
			`type "release-checklist" into "or create/open a Pad with the name:", click "OK", click at the end of the last line "Tag the release", press Enter, type "Announce on the mailing list"`,
			`Open the release-checklist pad (type its name in the box on the home page and hit OK), then add a new line at the very end of the text, after Tag the release, saying "Announce on the mailing list".`,
			`From the Etherpad start page, open the pad called release-checklist with the field labelled "or create/open a Pad with the name:" and the OK button. In the pad's text, put the cursor at the end of the last line (Tag the release), press Enter and write Announce on the mailing list as a new line.`,
		},
		done: func(t testing.TB, e *testenv.Etherpad) string {
			return etherpadEdited(t, e, "release-checklist", e.Seed()["pad"]["release-checklist"]+"\nAnnounce on the mailing list")
		},
		do: func(t testing.TB, b *testenv.EtherpadBrowser) {
			b.Open(t, "release-checklist").AppendLine(t, "Announce on the mailing list")
		},
		miss: func(t testing.TB, b *testenv.EtherpadBrowser) {
			b.Open(t, "release-notes").AppendLine(t, "Announce on the mailing list")
		},
	},
	{
		name: "change a line of a pad",
		phrasings: [3]string{
			`type "team-meeting" into "or create/open a Pad with the name:", click "OK", click at the end of the line "Office move", type " to Berlin" so that the line reads "Office move to Berlin"`,
			`open the pad team-meeting from the home page (pad name box, then OK) and change the line Office move so it says "Office move to Berlin"`,
			`On the Etherpad home page, enter team-meeting in the "or create/open a Pad with the name:" box and press OK. In the agenda, click right after the words Office move and type " to Berlin", so that the line becomes Office move to Berlin; leave the other lines as they are.`,
		},
		done: func(t testing.TB, e *testenv.Etherpad) string {
			return etherpadEdited(t, e, "team-meeting", "Team meeting agenda\nBudget review\nHiring plan\nOffice move to Berlin\nAny other business")
		},
		do: func(t testing.TB, b *testenv.EtherpadBrowser) {
			b.Open(t, "team-meeting").ReplaceLine(t, "Office move", "Office move to Berlin")
		},
		miss: func(t testing.TB, b *testenv.EtherpadBrowser) {
			b.Open(t, "team-meeting-archive").ReplaceLine(t, "Office move", "Office move to Berlin")
		},
	},
	{
		name: "start a new pad by name",
		phrasings: [3]string{
			`type "vendor-contacts" into "or create/open a Pad with the name:", click "OK", click into the empty pad, type "Lisa Brown at Acme Corp"`,
			`Create a new pad named vendor-contacts: on the home page type the name into the box under "or create/open a Pad with the name:" and hit OK. Then write Lisa Brown at Acme Corp as its first line.`,
			`start a pad called "vendor-contacts" from the home page (the name field, then the OK button, not New Pad) and type the line "Lisa Brown at Acme Corp" into it`,
		},
		done: func(t testing.TB, e *testenv.Etherpad) string {
			return e.Exactly(t, func(s testenv.EtherpadState) {
				s["pad"]["vendor-contacts"], s["authorship"]["vendor-contacts"], s["saved"]["vendor-contacts"] = "Lisa Brown at Acme Corp", "unnamed", "0"
			})
		},
		do:   func(t testing.TB, b *testenv.EtherpadBrowser) { etherpadNewPad(t, b, "vendor-contacts") },
		miss: func(t testing.TB, b *testenv.EtherpadBrowser) { etherpadNewPad(t, b, "vendor-contact") },
	},
	{
		name: "post a chat message in a pad",
		phrasings: [3]string{
			`type "team-meeting" into "or create/open a Pad with the name:", click "OK", click "Chat" at the bottom right, type "Running ten minutes late" into "Write your message here", press Enter`,
			`Open the team-meeting pad (its name in the box on the home page, then OK), open the chat in the bottom right corner and send the message "Running ten minutes late".`,
			`go to the pad team-meeting via the home page's "or create/open a Pad with the name:" field and OK; then click Chat, write Running ten minutes late in the message box and hit Enter to post it`,
		},
		done: func(t testing.TB, e *testenv.Etherpad) string {
			return e.Exactly(t, func(s testenv.EtherpadState) { s["chat"]["team-meeting #2"] = "Running ten minutes late" })
		},
		do: func(t testing.TB, b *testenv.EtherpadBrowser) {
			b.Open(t, "team-meeting").Chat(t, "Running ten minutes late")
		},
		miss: func(t testing.TB, b *testenv.EtherpadBrowser) {
			b.Open(t, "team-meeting-archive").Chat(t, "Running ten minutes late")
		},
	},
	{
		name: "set your name in a pad",
		phrasings: [3]string{
			`type "recipes" into "or create/open a Pad with the name:", click "OK", click "Show the users on this pad" in the toolbar, type "Dana Whitfield" into "Enter your name", press Enter`,
			`Open the recipes pad from the home page (type recipes in the pad name box and click OK). Then open the user list with the "Show the users on this pad" button at the top right and put Dana Whitfield in the Enter your name field, pressing Enter to keep it.`,
			`in the pad "recipes" (open it from the home page: name box, OK) set my name to Dana Whitfield: users button in the toolbar, then the "Enter your name" box, then Enter`,
		},
		done: func(t testing.TB, e *testenv.Etherpad) string {
			return e.Exactly(t, func(s testenv.EtherpadState) { s["author"]["Dana Whitfield"] = "1" })
		},
		do:   func(t testing.TB, b *testenv.EtherpadBrowser) { b.Open(t, "recipes").SetName(t, "Dana Whitfield") },
		miss: func(t testing.TB, b *testenv.EtherpadBrowser) { b.Open(t, "recipes").SetName(t, "Dana") },
	},
	{
		name: "clear the authorship colours of a pad",
		phrasings: [3]string{
			`type "release-notes" into "or create/open a Pad with the name:", click "OK", click "Clear Authorship Colors" in the toolbar, click "OK" in the dialog "Clear authorship colors on entire document?"`,
			`Open the release-notes pad from the home page (name box, OK) and clear the authorship colours of the whole pad with the Clear Authorship Colors button in the toolbar; confirm the question that pops up with OK.`,
			`Please remove the author colours from the pad release-notes. Open it by typing release-notes into the home page's "or create/open a Pad with the name:" box and pressing OK, then hit the "Clear Authorship Colors" toolbar button and answer OK when it asks whether to clear them on the entire document.`,
		},
		done: func(t testing.TB, e *testenv.Etherpad) string {
			return e.Exactly(t, func(s testenv.EtherpadState) { s["authorship"]["release-notes"] = "" })
		},
		do:   func(t testing.TB, b *testenv.EtherpadBrowser) { b.Open(t, "release-notes").ClearAuthorship(t) },
		miss: func(t testing.TB, b *testenv.EtherpadBrowser) { b.Open(t, "release-checklist").ClearAuthorship(t) },
	},
	{
		name: "make a line a bullet point",
		phrasings: [3]string{
			`type "team-meeting" into "or create/open a Pad with the name:", click "OK", click in the line "Hiring plan", click "Unordered List" in the toolbar`,
			`Open the pad team-meeting (home page: type the name into the pad name box, hit OK), put the cursor in the line Hiring plan and press the Unordered List button in the toolbar so that this one line becomes a bullet point.`,
			`On the home page open "team-meeting" with the "or create/open a Pad with the name:" field and OK. Then click somewhere in the line that says Hiring plan and click the toolbar's Unordered List (bullets) button; only that line should turn into a bulleted item.`,
		},
		done: func(t testing.TB, e *testenv.Etherpad) string {
			// The list's marker is the visitor's, but shows no colour.
			return e.Exactly(t, func(s testenv.EtherpadState) {
				s["pad"]["team-meeting"] = "Team meeting agenda\nBudget review\n(bullet1) Hiring plan\nOffice move\nAny other business"
			})
		},
		do:   func(t testing.TB, b *testenv.EtherpadBrowser) { b.Open(t, "team-meeting").Bullet(t, "Hiring plan") },
		miss: func(t testing.TB, b *testenv.EtherpadBrowser) { b.Open(t, "team-meeting").Bullet(t, "Budget review") },
	},
}

// etherpadEdited says "" when the seed pad id holds text, its authorship that of a pad
// an unnamed visitor wrote in, and nothing else changed.
func etherpadEdited(t testing.TB, e *testenv.Etherpad, id, text string) string {
	return e.Exactly(t, func(s testenv.EtherpadState) {
		s["pad"][id], s["authorship"][id] = text, etherpadAfterEdit
	})
}

// etherpadNewPad opens the pad id from the home page's name box (which sends the browser to
// /p/ID) and types the new pad's line.
func etherpadNewPad(t testing.TB, b *testenv.EtherpadBrowser, id string) {
	if _, page := b.Get(t, "/"); !testenv.EtherpadHasL10n(page, "index.createOpenPad") {
		t.Fatalf("the home page has no pad name box")
	}
	b.Open(t, id).SetText(t, "Lisa Brown at Acme Corp\n")
}

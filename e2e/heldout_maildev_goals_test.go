//go:build heldout

package e2e

import (
	"regexp"
	"testing"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// maildevGoal is one everyday goal on MailDev: its phrasings (the same steps written three
// ways; MailDev has no sign-in page, see testenv.Maildev), its judge, which reads MailDev's
// store and its relay sink ("" when exactly the goal's effect is there and nothing else
// changed), its effect made through the app's own requests without a browser, and a near
// miss of it.
type maildevGoal struct {
	name      string
	phrasings [3]string
	done      func(t *testing.T, w *testenv.Maildev) string
	do        func(t *testing.T, b *testenv.MaildevBrowser)
	miss      func(t *testing.T, b *testenv.MaildevBrowser)
}

// The mails the goals name, by their judges' keys, and the address a mail is relayed to.
var (
	maildevNorthwind41 = testenv.MaildevKey("Invoice INV-2041 from Northwind Traders", "dana.reyes@acme.example")
	maildevNorthwind42 = testenv.MaildevKey("Invoice INV-2042 from Northwind Traders", "dana.reyes@acme.example")
	maildevGlobex42    = testenv.MaildevKey("Invoice INV-2042 from Globex Supplies", "dana.reyes@acme.example")
	maildevResetAlice  = testenv.MaildevKey("Reset your password", "alice.chen@acme.example")
	maildevResetBob    = testenv.MaildevKey("Reset your password", "bob.martin@acme.example")
	maildevWeekly41    = testenv.MaildevKey("The Acme Weekly: issue 41", "team@acme.example")
	maildevWeekly42    = testenv.MaildevKey("The Acme Weekly: issue 42", "team@acme.example")
	maildevGlobexNews  = testenv.MaildevKey("Globex product updates for November", "dana.reyes@acme.example")
	maildevOrder58213  = testenv.MaildevKey("Your order #58213 has shipped", "dana.reyes@acme.example")
	maildevOrder58190  = testenv.MaildevKey("Your order #58190 has shipped", "dana.reyes@acme.example")
	maildevPassChanged = testenv.MaildevKey("Your password was changed", "bob.martin@acme.example")
)

const (
	maildevBookkeeping = "bookkeeping@acme.example"
	maildevDana        = "dana.reyes@acme.example"
)

var maildevGoals = []maildevGoal{
	{
		name: "delete an invoice mail",
		phrasings: [3]string{
			`click "Invoice INV-2041 from Northwind Traders" in the list of mails, click "Delete email"`,
			`Delete the mail Invoice INV-2041 from Northwind Traders: open it from the list and hit the Delete email button at its top right.`,
			`The Northwind invoice INV-2041 was only a test, please get rid of it. Click the mail with the subject "Invoice INV-2041 from Northwind Traders" in the list on the left, then press the red Delete email button (the bin) in the top right corner of the open mail.`,
		},
		done: func(t *testing.T, w *testenv.Maildev) string { return maildevWithout(t, w, maildevNorthwind41) },
		do:   func(t *testing.T, b *testenv.MaildevBrowser) { b.Delete(t, maildevNorthwind41) },
		miss: func(t *testing.T, b *testenv.MaildevBrowser) { b.Delete(t, maildevNorthwind42) },
	},
	{
		name: "delete one of two alike mails",
		phrasings: [3]string{
			`click the "Reset your password" mail sent to "Alice Chen <alice.chen@acme.example>" in the list, click "Delete email"`,
			`Delete Alice Chen's Reset your password mail (the one to alice.chen@acme.example, not Bob's): open it from the list and press Delete email.`,
			`Alice has already reset her password, so her reset mail can go. In the list find "Reset your password" sent to Alice Chen <alice.chen@acme.example>, click it, and click the Delete email button at the top right. Leave Bob Martin's reset mail alone.`,
		},
		done: func(t *testing.T, w *testenv.Maildev) string { return maildevWithout(t, w, maildevResetAlice) },
		do:   func(t *testing.T, b *testenv.MaildevBrowser) { b.Delete(t, maildevResetAlice) },
		miss: func(t *testing.T, b *testenv.MaildevBrowser) { b.Delete(t, maildevResetBob) },
	},
	{
		name: "delete both newsletter issues",
		phrasings: [3]string{
			`click "The Acme Weekly: issue 41", click "Delete email", click "The Acme Weekly: issue 42", click "Delete email"`,
			`Delete both Acme Weekly newsletters, issue 41 and issue 42: open each one from the list and hit Delete email.`,
			`We don't need the Acme Weekly in the test inbox any more. Please open "The Acme Weekly: issue 41" and delete it with the Delete email button, then do the same for "The Acme Weekly: issue 42". Keep the Globex product updates newsletter.`,
		},
		done: func(t *testing.T, w *testenv.Maildev) string {
			return maildevWithout(t, w, maildevWeekly41, maildevWeekly42)
		},
		do: func(t *testing.T, b *testenv.MaildevBrowser) {
			b.Delete(t, maildevWeekly41)
			b.Delete(t, maildevWeekly42)
		},
		miss: func(t *testing.T, b *testenv.MaildevBrowser) {
			b.Delete(t, maildevWeekly42)
			b.Delete(t, maildevGlobexNews)
		},
	},
	{
		name: "delete every mail",
		phrasings: [3]string{
			`click "Delete all emails" in the top bar, then click "Confirm" right away`,
			`Empty the inbox: hit the Delete all emails button (the red bin in the top bar) and then Confirm straight after.`,
			`I want to start over with a clean inbox. Click the red bin button at the top called "Delete all emails"; it turns into a Confirm button for two seconds only, so click Confirm at once to delete every mail.`,
		},
		done: func(t *testing.T, w *testenv.Maildev) string {
			want := w.Seed()
			clear(want.Mails)
			return w.DiffersReadAside(t, want)
		},
		do:   func(t *testing.T, b *testenv.MaildevBrowser) { b.DeleteAll(t) },
		miss: func(t *testing.T, b *testenv.MaildevBrowser) { b.Delete(t, maildevWeekly42) },
	},
	{
		name: "mark every mail read",
		phrasings: [3]string{
			`click the "Mark all as read" button in the top bar of the page`,
			`Mark every mail in the inbox as read with the Mark all as read button at the top.`,
			`The unread mails keep piling up and I have seen them all anyway. Could you clear the unread state of the whole inbox by clicking the envelope button "Mark all as read" in the top bar, next to the refresh button?`,
		},
		done: func(t *testing.T, w *testenv.Maildev) string {
			want := w.Seed()
			for k, m := range want.Mails {
				m.Read = true
				want.Mails[k] = m
			}
			return w.Differs(t, want)
		},
		do:   func(t *testing.T, b *testenv.MaildevBrowser) { b.MarkAllRead(t) },
		miss: func(t *testing.T, b *testenv.MaildevBrowser) { b.OpenMail(t, maildevPassChanged) },
	},
	{
		name: "read one of two alike mails",
		phrasings: [3]string{
			`click the "Reset your password" mail sent to "Bob Martin <bob.martin@acme.example>" in the list`,
			`Open Bob Martin's Reset your password mail (the one to bob.martin@acme.example, not Alice's) so that it shows on the right.`,
			`Bob says he never saw his reset code. Can you open the "Reset your password" mail that went to Bob Martin (bob.martin@acme.example) from the list so I can read it? Just open that one and don't click any other mail.`,
		},
		done: func(t *testing.T, w *testenv.Maildev) string {
			want := w.Seed()
			m := want.Mails[maildevResetBob]
			m.Read = true
			want.Mails[maildevResetBob] = m
			return w.Differs(t, want)
		},
		do:   func(t *testing.T, b *testenv.MaildevBrowser) { b.OpenMail(t, maildevResetBob) },
		miss: func(t *testing.T, b *testenv.MaildevBrowser) { b.OpenMail(t, maildevResetAlice) },
	},
	{
		name: "relay a mail to an address",
		phrasings: [3]string{
			`click "Invoice INV-2042 from Northwind Traders", click "Relay email", click "Relay to custom address", type "bookkeeping@acme.example" into "email@example.com", click "Send", accept the confirmation`,
			`Relay Invoice INV-2042 from Northwind Traders (not the Globex one) to bookkeeping@acme.example: open it, hit Relay email, choose Relay to custom address, enter the address, Send, and OK the confirmation.`,
			`Bookkeeping needs the Northwind invoice INV-2042. Open the mail "Invoice INV-2042 from Northwind Traders" from the list, click the Relay email button at its top right, pick "Relay to custom address", type bookkeeping@acme.example into the address box, press Send and click OK when the browser asks whether to relay it.`,
		},
		done: func(t *testing.T, w *testenv.Maildev) string {
			return maildevRelayed(t, w, maildevNorthwind42, "Invoice INV-2042 from Northwind Traders", maildevBookkeeping)
		},
		do:   func(t *testing.T, b *testenv.MaildevBrowser) { b.Relay(t, maildevNorthwind42, maildevBookkeeping) },
		miss: func(t *testing.T, b *testenv.MaildevBrowser) { b.Relay(t, maildevGlobex42, maildevBookkeeping) },
	},
	{
		name: "relay a mail to its recipient",
		phrasings: [3]string{
			`click "Your order #58213 has shipped", click "Relay email", click "Relay to original recipients", accept the confirmation`,
			`Relay the Your order #58213 has shipped mail to its original recipient: open it, then Relay email > Relay to original recipients, and OK the confirmation.`,
			`Dana never got the shipping notice for order 58213 in her real inbox. Please open "Your order #58213 has shipped" from the list, click the Relay email button, choose Relay to original recipients and click OK in the dialog that asks whether to relay it.`,
		},
		done: func(t *testing.T, w *testenv.Maildev) string {
			return maildevRelayed(t, w, maildevOrder58213, "Your order #58213 has shipped", maildevDana)
		},
		do:   func(t *testing.T, b *testenv.MaildevBrowser) { b.Relay(t, maildevOrder58213, "") },
		miss: func(t *testing.T, b *testenv.MaildevBrowser) { b.Relay(t, maildevOrder58190, "") },
	},
}

// maildevWithout judges a goal that deletes the mails keys: MailDev must hold the seed
// without them (their files gone from the mail folder too), the read flags aside (a
// mail is opened to be deleted, and deleting one with the keyboard opens the next), and
// nothing relayed.
func maildevWithout(t *testing.T, w *testenv.Maildev, keys ...string) string {
	want := w.Seed()
	for _, k := range keys {
		delete(want.Mails, k)
	}
	return w.DiffersReadAside(t, want)
}

// maildevRelayed judges a goal that relays the mail key (whose subject is subject) to
// address, once: MailDev must record it relayed there, the sink must have taken it for
// that address alone, and nothing else may have changed, the read flags aside (a mail is
// opened to be relayed).
func maildevRelayed(t *testing.T, w *testenv.Maildev, key, subject, address string) string {
	want := w.Seed()
	m := want.Mails[key]
	m.RelayedTo = []string{address}
	want.Mails[key] = m
	want.Sink = []string{testenv.MaildevSinkMessage{Subject: subject, To: []string{address}}.String()}
	return w.DiffersReadAside(t, want)
}

// maildevRead is how many of the seed's mails were read before the test.
func maildevRead() int {
	n := 0
	for _, m := range testenv.MaildevSeed {
		if m.Read {
			n++
		}
	}
	return n
}

// maildevScriptSrc finds the page's script.
var maildevScriptSrc = regexp.MustCompile(`<script type="module" crossorigin src="\./(assets/[^"]+\.js)"`)

// maildevScript is the script the page loads, which draws the whole interface.
func maildevScript(t *testing.T, b *testenv.MaildevBrowser, page string) string {
	m := maildevScriptSrc.FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("the page loads no script: %s", page)
	}
	script := b.Open(t, "/"+m[1])
	if len(script) < 10000 {
		t.Fatalf("the page's script %s is missing or empty", m[1])
	}
	return script
}

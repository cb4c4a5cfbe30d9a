package testenv

import (
	"encoding/base64"
	"fmt"
	"net/mail"
	"net/smtp"
	"strings"
	"testing"
	"time"
)

// MaildevSeedMail is one mail of the seed, as an application under test would send it:
// its sender and first recipient ("Name <address>"), subject, text, an HTML part when it
// has one, a PDF attachment's name when it has one, and Read when a person opened it
// before the test.
type MaildevSeedMail struct {
	From, To, Subject string
	Text, HTML        string
	Attachment        string
	Read              bool
}

// Key is how the judges name the mail: its subject and its recipient's address, e.g.
// "Reset your password (to bob.martin@acme.example)".
func (m MaildevSeedMail) Key() string {
	a, err := mail.ParseAddress(m.To)
	if err != nil {
		return m.Subject + " (to " + m.To + ")"
	}
	return MaildevKey(m.Subject, a.Address)
}

// MaildevKey is the judges' name of the mail with subject sent to address.
func MaildevKey(subject, address string) string {
	return subject + " (to " + strings.ToLower(address) + ")"
}

// MaildevSeed is every instance's mail, in the order it is sent (the web interface lists
// it newest first): what a development team's test mail catcher holds — invoices from two
// suppliers (two numbered alike), two shipping notices, newsletters, two password resets
// with the same subject to two people, a password change, a welcome mail and meeting
// notes; four of them already read.
var MaildevSeed = []MaildevSeedMail{
	{From: "Acme HR <hr@acme.example>", To: "Carol Diaz <carol.diaz@acme.example>", Subject: "Welcome to Acme, Carol!",
		Text: "Hi Carol,\n\nWelcome aboard! Your first day is Monday 3 November. Bring an ID for your badge.\n\nAcme HR\n", Read: true},
	{From: "Northwind Traders Billing <billing@northwind.example>", To: "Dana Reyes <dana.reyes@acme.example>",
		Subject: "Invoice INV-2041 from Northwind Traders", Attachment: "INV-2041.pdf",
		Text: "Dear Dana,\n\nPlease find attached invoice INV-2041 for 1,250.00 EUR, due on 30 November.\n\nNorthwind Traders\n"},
	{From: "Northwind Traders Billing <billing@northwind.example>", To: "Dana Reyes <dana.reyes@acme.example>",
		Subject: "Invoice INV-2042 from Northwind Traders", Attachment: "INV-2042.pdf",
		Text: "Dear Dana,\n\nPlease find attached invoice INV-2042 for 980.00 EUR, due on 15 December.\n\nNorthwind Traders\n"},
	{From: "Globex Supplies <invoices@globex.example>", To: "Dana Reyes <dana.reyes@acme.example>",
		Subject: "Invoice INV-2042 from Globex Supplies", Attachment: "INV-2042.pdf",
		Text: "Hello,\n\nYour invoice INV-2042 of 2,400.00 EUR is attached. Thank you for your order.\n\nGlobex Supplies\n"},
	{From: "Shop Example <orders@shop.example>", To: "Dana Reyes <dana.reyes@acme.example>", Subject: "Your order #58190 has shipped",
		Text: "Your order #58190 (2 toner cartridges) is on its way. Tracking number: 1Z58190.\n", Read: true},
	{From: "Shop Example <orders@shop.example>", To: "Dana Reyes <dana.reyes@acme.example>", Subject: "Your order #58213 has shipped",
		Text: "Your order #58213 (1 office chair) is on its way. Tracking number: 1Z58213.\n"},
	{From: "The Acme Weekly <newsletter@acme.example>", To: "Acme Team <team@acme.example>", Subject: "The Acme Weekly: issue 41",
		Text: "This week: the new office in Lyon, the summer party photos, and the Q3 numbers.\n",
		HTML: "<h1>The Acme Weekly</h1><p>This week: the new office in Lyon, the summer party photos, and the Q3 numbers.</p>", Read: true},
	{From: "The Acme Weekly <newsletter@acme.example>", To: "Acme Team <team@acme.example>", Subject: "The Acme Weekly: issue 42",
		Text: "This week: meet the new support team, the Q4 roadmap, and the winter holiday schedule.\n",
		HTML: "<h1>The Acme Weekly</h1><p>This week: meet the new support team, the Q4 roadmap, and the winter holiday schedule.</p>"},
	{From: "Globex News <news@globex.example>", To: "Dana Reyes <dana.reyes@acme.example>", Subject: "Globex product updates for November",
		Text: "New this month: faster deliveries and a customer portal.\n",
		HTML: "<h1>Globex product updates</h1><p>New this month: faster deliveries and a customer portal.</p>"},
	{From: "Acme Accounts <no-reply@acme.example>", To: "Alice Chen <alice.chen@acme.example>", Subject: "Reset your password",
		Text: "Hi Alice,\n\nSomeone asked to reset your password. Use the code 481 207 within 30 minutes.\n"},
	{From: "Acme Accounts <no-reply@acme.example>", To: "Bob Martin <bob.martin@acme.example>", Subject: "Reset your password",
		Text: "Hi Bob,\n\nSomeone asked to reset your password. Use the code 935 614 within 30 minutes.\n"},
	{From: "Acme Accounts <no-reply@acme.example>", To: "Bob Martin <bob.martin@acme.example>", Subject: "Your password was changed",
		Text: "Hi Bob,\n\nYour password was changed. If this was not you, contact the help desk.\n"},
	{From: "Priya Nair <priya.nair@acme.example>", To: "Acme Team <team@acme.example>", Subject: "Meeting notes: Q4 planning",
		Text: "Notes from today: hire two engineers, move the launch to 12 January, next review on Friday.\n", Read: true},
}

// sendSeed sends MaildevSeed to the instance's SMTP port, waits until its REST API holds
// every mail, opens the ones marked Read (GET /api/email/ID, as the page does when a mail
// is clicked), and keeps the instance's state as the seed.
func (w *Maildev) sendSeed(t testing.TB) {
	t.Helper()
	for i, m := range MaildevSeed {
		w.send(t, m, i)
		// Mails received within one millisecond would be listed in no set order.
		time.Sleep(5 * time.Millisecond)
	}
	var got []maildevAPIMail
	why := Eventually(20*time.Second, func() string {
		got = w.apiMails(t)
		if len(got) != len(MaildevSeed) {
			return fmt.Sprintf("the REST API lists %d mails, not %d", len(got), len(MaildevSeed))
		}
		return ""
	})
	if why != "" {
		t.Fatalf("maildev: the seed did not arrive: %s\n%s", why, w.Log())
	}
	w.keys = map[string]string{}
	for _, m := range got {
		w.keys[m.ID] = m.key()
	}
	b := w.Browser()
	for _, m := range MaildevSeed {
		if m.Read {
			b.OpenMail(t, m.Key())
		}
	}
	w.seed = w.State(t)
	for _, m := range MaildevSeed {
		if s, ok := w.seed.Mails[m.Key()]; !ok || s.Read != m.Read || !s.File {
			t.Fatalf("maildev: the seed's %q is not as sent: %+v", m.Key(), s)
		}
	}
}

// send sends one mail to the instance's SMTP port, as an application's mailer does
// (without TLS, which MailDev's SMTP server offers with a certificate of its own).
func (w *Maildev) send(t testing.TB, m MaildevSeedMail, n int) {
	t.Helper()
	from, err := mail.ParseAddress(m.From)
	if err != nil {
		t.Fatal(err)
	}
	to, err := mail.ParseAddress(m.To)
	if err != nil {
		t.Fatal(err)
	}
	c, err := smtp.Dial(Addr(w.SMTPPort))
	if err != nil {
		t.Fatalf("maildev: SMTP: %v", err)
	}
	defer c.Close()
	if err := c.Hello("app.acme.example"); err != nil {
		t.Fatalf("maildev: SMTP EHLO: %v", err)
	}
	if err := c.Mail(from.Address); err != nil {
		t.Fatalf("maildev: SMTP MAIL: %v", err)
	}
	if err := c.Rcpt(to.Address); err != nil {
		t.Fatalf("maildev: SMTP RCPT: %v", err)
	}
	wc, err := c.Data()
	if err != nil {
		t.Fatalf("maildev: SMTP DATA: %v", err)
	}
	if _, err := wc.Write([]byte(maildevMessage(m, n))); err != nil {
		t.Fatalf("maildev: SMTP: %v", err)
	}
	if err := wc.Close(); err != nil {
		t.Fatalf("maildev: SMTP: the mail %q was refused: %v", m.Subject, err)
	}
	_ = c.Quit()
}

// maildevMessage is the mail's text: its headers, and its text alone, its text and HTML
// as alternatives, or its text and a PDF attachment.
func maildevMessage(m MaildevSeedMail, n int) string {
	var b strings.Builder
	date := time.Date(2026, 11, 3, 8, 0, 0, 0, time.UTC).Add(time.Duration(n) * 47 * time.Minute)
	fmt.Fprintf(&b, "From: %s\r\nTo: %s\r\nSubject: %s\r\nDate: %s\r\nMessage-ID: <seed-%02d@app.acme.example>\r\nMIME-Version: 1.0\r\n",
		m.From, m.To, m.Subject, date.Format(time.RFC1123Z), n)
	text := strings.ReplaceAll(m.Text, "\n", "\r\n")
	const boundary = "=_seed_boundary"
	switch {
	case m.HTML != "":
		fmt.Fprintf(&b, "Content-Type: multipart/alternative; boundary=%q\r\n\r\n", boundary)
		fmt.Fprintf(&b, "--%s\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n%s\r\n", boundary, text)
		fmt.Fprintf(&b, "--%s\r\nContent-Type: text/html; charset=utf-8\r\n\r\n%s\r\n--%s--\r\n", boundary, m.HTML, boundary)
	case m.Attachment != "":
		pdf := base64.StdEncoding.EncodeToString([]byte("%PDF-1.4\n% " + m.Subject + "\n%%EOF\n"))
		fmt.Fprintf(&b, "Content-Type: multipart/mixed; boundary=%q\r\n\r\n", boundary)
		fmt.Fprintf(&b, "--%s\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n%s\r\n", boundary, text)
		fmt.Fprintf(&b, "--%s\r\nContent-Type: application/pdf; name=%q\r\nContent-Disposition: attachment; filename=%q\r\n", boundary, m.Attachment, m.Attachment)
		fmt.Fprintf(&b, "Content-Transfer-Encoding: base64\r\n\r\n%s\r\n--%s--\r\n", pdf, boundary)
	default:
		fmt.Fprintf(&b, "Content-Type: text/plain; charset=utf-8\r\n\r\n%s", text)
	}
	return b.String()
}

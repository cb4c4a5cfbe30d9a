//go:build heldout

package e2e

import (
	"fmt"
	"io"
	"mime/quotedprintable"
	"net/mail"
	"net/url"
	"sort"
	"strings"
	"testing"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// roundcubeGoal is an everyday goal on Roundcube Webmail, written three ways as a person
// writes it from what the pages show ({signin} is filled in per phrasing); done reads the
// Maildir and Roundcube's database and says "" when the goal's effect is there (and
// nothing else it checks changed), else what it found; do makes the effect through
// Roundcube's own requests, as its pages send them, and miss a near miss the judge must
// not take for it.
type roundcubeGoal struct {
	name      string
	phrasings [3]string
	done      func(t testing.TB, rc *testenv.Roundcube) string
	do, miss  func(t testing.TB, rc *testenv.Roundcube, s *testenv.RoundcubeSession)
}

const (
	rcNewFolder    = "Receipts"
	rcContactFirst = "Fiona"
	rcContactLast  = "Green"
	rcContactEmail = "fiona@example.org"
	rcNewName      = "Alice Johnson"
	rcReplyText    = "Friday works for me."
)

var roundcubeGoals = []roundcubeGoal{
	{
		name: "flag a message",
		phrasings: [3]string{
			`{signin}, click "Quarterly budget review", click "Mark", click "As flagged"`,
			`{signin}, then open the message "Quarterly budget review", press "Mark" and then press "As flagged"`,
			`{signin}. Click the message Quarterly budget review, click the Mark button, then click "As flagged" in the menu.`,
		},
		done: func(t testing.TB, rc *testenv.Roundcube) string {
			return rcMailIs(t, rc, rcMail{flags: map[string]string{testenv.RoundcubeBudget: "F"}})
		},
		do: func(t testing.TB, rc *testenv.Roundcube, s *testenv.RoundcubeSession) {
			rcMark(t, s, testenv.RoundcubeBudget, "flagged")
		},
		miss: func(t testing.TB, rc *testenv.Roundcube, s *testenv.RoundcubeSession) {
			rcMark(t, s, testenv.RoundcubeKickoff, "flagged")
		},
	},
	{
		name: "mark a message as unread",
		phrasings: [3]string{
			`{signin}, click "Project kickoff notes", click "Mark", click "As unread"`,
			`{signin}, open the message "Project kickoff notes", then press "Mark" and "As unread"`,
			`{signin}. Click the message Project kickoff notes, then click the Mark button and click "As unread" in the menu.`,
		},
		done: func(t testing.TB, rc *testenv.Roundcube) string {
			return rcMailIs(t, rc, rcMail{unread: testenv.RoundcubeKickoff})
		},
		do: func(t testing.TB, rc *testenv.Roundcube, s *testenv.RoundcubeSession) {
			rcMark(t, s, testenv.RoundcubeKickoff, "unread")
		},
		miss: func(t testing.TB, rc *testenv.Roundcube, s *testenv.RoundcubeSession) {
			rcMark(t, s, testenv.RoundcubeKickoff, "flagged")
		},
	},
	{
		name: "delete a message",
		phrasings: [3]string{
			`{signin}, click "Weekly deals", click "Delete", then check that "Weekly deals" is not visible`,
			`{signin}, open the message "Weekly deals" and press "Delete", and verify that "Weekly deals" is not visible`,
			`{signin}. Click the Weekly deals message, then click the Delete button and make sure "Weekly deals" is not visible.`,
		},
		done: func(t testing.TB, rc *testenv.Roundcube) string {
			return rcMailIs(t, rc, rcMail{folder: map[string]string{testenv.RoundcubeDeals: "Trash"}})
		},
		do: func(t testing.TB, rc *testenv.Roundcube, s *testenv.RoundcubeSession) {
			rcMove(t, s, testenv.RoundcubeDeals, "Trash")
		},
		miss: func(t testing.TB, rc *testenv.Roundcube, s *testenv.RoundcubeSession) {
			rcMove(t, s, testenv.RoundcubeReceipt, "Trash")
		},
	},
	{
		name: "move a message to a new folder",
		phrasings: [3]string{
			`{signin}, click "Settings", click "Folders", click "Create", type "Receipts" into "Folder name", click "Save", click "Mail", click "Your order receipt", click "More", click "Move to...", then click "Receipts" in the dialog`,
			`{signin}, then open "Settings", open "Folders", press "Create", fill "Folder name" with "Receipts" and press "Save"; then click "Mail", open the message "Your order receipt", press "More", press "Move to..." and choose "Receipts" in the dialog`,
			`{signin}. Click Settings, then click Folders and click the Create button. Type Receipts into the field labelled "Folder name" and click the Save button. Click Mail, click the message "Your order receipt", click the More button, click "Move to..." and then click "Receipts" in the dialog.`,
		},
		done: func(t testing.TB, rc *testenv.Roundcube) string {
			return rcMailIs(t, rc, rcMail{folder: map[string]string{testenv.RoundcubeReceipt: rcNewFolder}, folders: []string{rcNewFolder}})
		},
		do: func(t testing.TB, rc *testenv.Roundcube, s *testenv.RoundcubeSession) {
			rcCreateFolder(t, s, rcNewFolder)
			rcMove(t, s, testenv.RoundcubeReceipt, rcNewFolder)
		},
		miss: func(t testing.TB, rc *testenv.Roundcube, s *testenv.RoundcubeSession) {
			rcCreateFolder(t, s, rcNewFolder)
		},
	},
	{
		name: "add a contact",
		phrasings: [3]string{
			`{signin}, click "Contacts", click "Create", type "Fiona" into "First Name", type "Green" into "Last Name", type "fiona@example.org" into "Email", click "Save"`,
			`{signin}, then open Contacts and press "Create"; fill "First Name" with "Fiona", fill "Last Name" with "Green", fill "Email" with "fiona@example.org" and press "Save"`,
			`{signin}. Click Contacts, then click the Create button. Type Fiona into the First Name field, type Green into the Last Name field, type "fiona@example.org" into the field labelled "Email", then click the Save button.`,
		},
		done: rcContactAdded,
		do: func(t testing.TB, rc *testenv.Roundcube, s *testenv.RoundcubeSession) {
			rcSaveContact(t, s, rcContactFirst, rcContactLast, rcContactEmail)
		},
		miss: func(t testing.TB, rc *testenv.Roundcube, s *testenv.RoundcubeSession) {
			rcSaveContact(t, s, rcContactFirst, "", rcContactEmail)
		},
	},
	{
		name: "change the identity's display name",
		phrasings: [3]string{
			`{signin}, click "Settings", click "Identities", click "Alice Example <alice@example.org>", type "Alice Johnson" into "Display Name", click "Save"`,
			`{signin}, then open Settings and open Identities, open "Alice Example <alice@example.org>", fill "Display Name" with "Alice Johnson" and press "Save"`,
			`{signin}. Click Settings, then click Identities and click the identity "Alice Example <alice@example.org>". Type Alice Johnson into the field labelled "Display Name", then click the Save button.`,
		},
		done: rcIdentityRenamed,
		do: func(t testing.TB, rc *testenv.Roundcube, s *testenv.RoundcubeSession) {
			rcSaveIdentity(t, rc, s, rcNewName)
		},
		miss: func(t testing.TB, rc *testenv.Roundcube, s *testenv.RoundcubeSession) {
			rcSaveIdentity(t, rc, s, testenv.RoundcubeIdentityName+rcNewName)
		},
	},
	{
		name: "reply to a message",
		phrasings: [3]string{
			`{signin}, click "Lunch on Friday?", click "Reply", type "Friday works for me." into the text area, click "Send"`,
			`{signin}, then open the message "Lunch on Friday?" and press "Reply"; write "Friday works for me." in the text area and press "Send"`,
			`{signin}. Click the message "Lunch on Friday?", then click the Reply button, type "Friday works for me." into the message text area, and click the Send button.`,
		},
		done: rcReplied,
		do: func(t testing.TB, rc *testenv.Roundcube, s *testenv.RoundcubeSession) {
			rcReply(t, rc, s, testenv.RoundcubeLunch, rcReplyText+"\n\n> Shall we have lunch on Friday at noon?", "")
		},
		miss: func(t testing.TB, rc *testenv.Roundcube, s *testenv.RoundcubeSession) {
			rcReply(t, rc, s, testenv.RoundcubeLunch, rcReplyText, "1") // saved as a draft, not sent
		},
	},
}

// rcMail is what the mailbox must hold after a goal: the seeded messages moved (subject →
// folder; INBOX otherwise), their flags other than seen (subject → letters, sorted; none
// otherwise), the one message that must be unread, the folders made (besides INBOX and
// the special ones), and whether one reply was sent.
type rcMail struct {
	folder, flags map[string]string
	unread        string
	folders       []string
	replied       bool
}

// rcMailIs says whether the Maildir holds the seed as want changes it, and the database
// its seed (no contact, the one identity as seeded) unless the goal is about those.
func rcMailIs(t testing.TB, rc *testenv.Roundcube, want rcMail) string {
	if why := rcMailboxIs(t, rc, want); why != "" {
		return why
	}
	if !want.replied {
		if sent := rc.SMTP.Sent(); len(sent) != 0 {
			return fmt.Sprintf("%d messages were sent", len(sent))
		}
	}
	return rcDBSeeded(t, rc, true, true)
}

func rcMailboxIs(t testing.TB, rc *testenv.Roundcube, want rcMail) string {
	seen := map[string]int{}
	for _, m := range rc.IMAP.Messages(t) {
		if m.Folder == "Drafts" || m.Folder == "Sent" && want.replied {
			continue // a draft saved on the way; the reply's copy, judged by rcReplied
		}
		seen[m.Subject]++
		wantFolder, wantFlags := "INBOX", want.flags[m.Subject]
		if f, ok := want.folder[m.Subject]; ok {
			wantFolder = f
		}
		flags := []byte(strings.ReplaceAll(m.Flags, "S", ""))
		sort.Slice(flags, func(i, j int) bool { return flags[i] < flags[j] })
		switch {
		case !rcSeeded(m.Subject):
			return fmt.Sprintf("a message %q that was not there, in %s", m.Subject, m.Folder)
		case m.Folder != wantFolder:
			return fmt.Sprintf("%q is in %s", m.Subject, m.Folder)
		case string(flags) != wantFlags:
			return fmt.Sprintf("%q has the flags %q", m.Subject, m.Flags)
		case m.Subject == want.unread && m.Seen:
			return fmt.Sprintf("%q is read", m.Subject)
		}
	}
	for _, s := range testenv.RoundcubeSeed {
		if seen[s.Subject] != 1 {
			return fmt.Sprintf("%d messages %q", seen[s.Subject], s.Subject)
		}
	}
	var made []string
	for _, f := range rc.IMAP.Folders() {
		switch f {
		case "INBOX", "Drafts", "Sent", "Trash", "Junk":
		default:
			made = append(made, f)
		}
	}
	if strings.Join(made, ",") != strings.Join(want.folders, ",") {
		return fmt.Sprintf("the folders made are %q", made)
	}
	return ""
}

func rcSeeded(subject string) bool {
	for _, s := range testenv.RoundcubeSeed {
		if s.Subject == subject {
			return true
		}
	}
	return false
}

// rcDBSeeded says whether the contacts (none) and the identity are as seeded.
func rcDBSeeded(t testing.TB, rc *testenv.Roundcube, contacts, identity bool) string {
	if c := rc.Contacts(t); contacts && len(c) != 0 {
		return fmt.Sprintf("contacts %+v", c)
	}
	ids := rc.Identities(t)
	if identity && (len(ids) != 1 || ids[0].Name != testenv.RoundcubeIdentityName || ids[0].Email != testenv.RoundcubeUser) {
		return fmt.Sprintf("identities %+v", ids)
	}
	return ""
}

func rcContactAdded(t testing.TB, rc *testenv.Roundcube) string {
	c := rc.Contacts(t)
	if len(c) != 1 || c[0].FirstName != rcContactFirst || c[0].Surname != rcContactLast || strings.Trim(c[0].Email, ", ") != rcContactEmail {
		return fmt.Sprintf("contacts %+v", c)
	}
	if why := rcMailboxIs(t, rc, rcMail{}); why != "" {
		return why
	}
	return rcDBSeeded(t, rc, false, true)
}

func rcIdentityRenamed(t testing.TB, rc *testenv.Roundcube) string {
	ids := rc.Identities(t)
	if len(ids) != 1 || ids[0].Name != rcNewName || ids[0].Email != testenv.RoundcubeUser || ids[0].Organization != "" {
		return fmt.Sprintf("identities %+v", ids)
	}
	if why := rcMailboxIs(t, rc, rcMail{}); why != "" {
		return why
	}
	return rcDBSeeded(t, rc, true, false)
}

// rcReplied says whether one reply to Carol's message went out — to her, "Re:" its
// subject, tied to it by In-Reply-To, the text in its body — with its copy in Sent and
// the original marked answered.
func rcReplied(t testing.TB, rc *testenv.Roundcube) string {
	sent := rc.SMTP.Sent()
	if len(sent) != 1 {
		return fmt.Sprintf("%d messages were sent", len(sent))
	}
	m, err := mail.ReadMessage(strings.NewReader(sent[0].Data))
	if err != nil {
		return "the sent message does not parse: " + err.Error()
	}
	body := rcReadAll(m)
	switch {
	case len(sent[0].To) != 1 || sent[0].To[0] != "carol@example.org":
		return fmt.Sprintf("the reply went to %q", sent[0].To)
	case m.Header.Get("Subject") != "Re: "+testenv.RoundcubeLunch || m.Header.Get("In-Reply-To") != testenv.RoundcubeLunchID:
		return fmt.Sprintf("the reply's subject is %q, in reply to %q", m.Header.Get("Subject"), m.Header.Get("In-Reply-To"))
	case !strings.Contains(strings.Join(strings.Fields(body), " "), rcReplyText):
		return fmt.Sprintf("the reply says %q", body)
	}
	var copies int
	for _, c := range rc.IMAP.Messages(t) {
		if c.Folder == "Sent" && c.Subject == "Re: "+testenv.RoundcubeLunch {
			copies++
		}
	}
	if copies != 1 {
		return fmt.Sprintf("%d copies in Sent", copies)
	}
	return rcMailIs(t, rc, rcMail{flags: map[string]string{testenv.RoundcubeLunch: "R"}, replied: true})
}

// rcReadAll is a message's text, its transfer encoding undone.
func rcReadAll(m *mail.Message) string {
	var r io.Reader = m.Body
	if strings.EqualFold(m.Header.Get("Content-Transfer-Encoding"), "quoted-printable") {
		r = quotedprintable.NewReader(r)
	}
	b, _ := io.ReadAll(r)
	return string(b)
}

// rcMark marks a message in INBOX as the Mark menu does.
func rcMark(t testing.TB, s *testenv.RoundcubeSession, subject, flag string) {
	s.Ajax(t, "mail", "mark", url.Values{"_uid": {s.UID(t, "INBOX", subject)}, "_flag": {flag}, "_mbox": {"INBOX"}})
}

// rcMove moves a message out of INBOX as Delete (to Trash) and Move to... do.
func rcMove(t testing.TB, s *testenv.RoundcubeSession, subject, to string) {
	s.Ajax(t, "mail", "move", url.Values{"_uid": {s.UID(t, "INBOX", subject)}, "_mbox": {"INBOX"}, "_target_mbox": {to}})
}

// rcCreateFolder posts the Folders page's form for a new top-level folder.
func rcCreateFolder(t testing.TB, s *testenv.RoundcubeSession, name string) {
	s.Form(t, "settings", "save-folder", url.Values{"_name": {name}, "_parent": {""}, "_mbox": {""}, "_viewmode": {"0"}})
}

// rcSaveContact posts the new-contact form of the personal address book.
func rcSaveContact(t testing.TB, s *testenv.RoundcubeSession, first, last, email string) {
	s.Form(t, "addressbook", "save", url.Values{"_source": {"0"}, "_cid": {""}, "_firstname": {first}, "_surname": {last},
		"_email[]": {email}, "_subtype_email[]": {"home"}})
}

// rcSaveIdentity posts the identity form with a new display name, the rest as it was.
func rcSaveIdentity(t testing.TB, rc *testenv.Roundcube, s *testenv.RoundcubeSession, name string) {
	id := rc.Identities(t)[0]
	s.Form(t, "settings", "save-identity", url.Values{"_iid": {id.ID}, "_name": {name}, "_email": {id.Email},
		"_organization": {""}, "_reply-to": {""}, "_bcc": {""}, "_signature": {""}, "_standard": {"1"}})
}

// rcReply opens the reply form for a message in INBOX and sends it (draft "1": saves it
// as a draft instead), as the compose page's form posts.
func rcReply(t testing.TB, rc *testenv.Roundcube, s *testenv.RoundcubeSession, subject, text, draft string) {
	uid := s.UID(t, "INBOX", subject)
	page := s.Get(t, "?_task=mail&_action=compose&_reply_uid="+uid+"&_mbox=INBOX")
	id := rcEnv(page, "compose_id")
	if id == "" {
		t.Fatalf("the reply form has no compose id:\n%.2000s", page)
	}
	s.Form(t, "mail", "send", url.Values{"_id": {id}, "_from": {rc.Identities(t)[0].ID}, "_to": {"Carol Diaz <carol@example.org>"},
		"_cc": {""}, "_bcc": {""}, "_subject": {"Re: " + subject}, "_message": {text}, "_is_html": {"0"}, "_draft": {draft},
		"_reply_uid": {uid}, "_mbox": {"INBOX"}})
}

// rcEnv reads a value the page's script environment sets: "name":"value".
func rcEnv(page, name string) string {
	_, rest, ok := strings.Cut(page, `"`+name+`":"`)
	if !ok {
		return ""
	}
	v, _, _ := strings.Cut(rest, `"`)
	return v
}

package testenv

import (
	"encoding/base64"
	"fmt"
	"html"
	"io"
	"maps"
	"mime/quotedprintable"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// RTState is what the judges read of an RT's database: the tickets (merged ones and
// tickets of other types, such as reminders, left out), the messages written on them
// (the text of each Create, Comment and Correspond transaction), the queues, the users
// and the user-defined groups with their members.
type RTState struct {
	Tickets  map[int]RTTicket
	Messages []RTMessage // ordered by ticket, type and text
	Queues   map[string]RTQueue
	Users    map[string]RTAccount
	Groups   map[string][]string // a user-defined group's name: its members' usernames, sorted
}

// RTTicket is a ticket as the judges compare it.
type RTTicket struct {
	Queue, Subject, Status, Owner string // Owner: a username; "Nobody" when nobody owns it
	Priority                      int
}

// RTMessage is one message on a ticket: its transaction's type (Create, Comment or
// Correspond) and its text (the plain part, or the HTML part's text), spaces collapsed.
type RTMessage struct {
	Ticket     int
	Type, Text string
}

// RTQueue is a queue as the judges compare it.
type RTQueue struct {
	Description, ReplyAddress string
	Disabled                  bool
}

// RTAccount is a user as the judges compare it.
type RTAccount struct {
	RealName, Email      string
	Privileged, Disabled bool
}

// State reads the instance's database.
func (w *RT) State(t testing.TB) RTState {
	t.Helper()
	st := RTState{Tickets: map[int]RTTicket{}, Queues: map[string]RTQueue{}, Users: map[string]RTAccount{}, Groups: map[string][]string{}}
	for _, r := range SQLiteRows(t, w.DB, `SELECT t.id, q.Name AS queue, t.Subject, t.Status, u.Name AS owner, t.Priority
		FROM Tickets t JOIN Queues q ON q.id = t.Queue JOIN Users u ON u.id = t.Owner
		WHERE t.id = t.EffectiveId AND t.Type = 'ticket'`) {
		id, _ := strconv.Atoi(r["id"])
		prio, _ := strconv.Atoi(r["Priority"])
		st.Tickets[id] = RTTicket{Queue: r["queue"], Subject: r["Subject"], Status: r["Status"], Owner: r["owner"], Priority: prio}
	}
	st.Messages = rtMessages(t, w.DB)
	for _, r := range SQLiteRows(t, w.DB, `SELECT Name, Description, CorrespondAddress, Disabled FROM Queues`) {
		st.Queues[r["Name"]] = RTQueue{Description: r["Description"], ReplyAddress: r["CorrespondAddress"], Disabled: r["Disabled"] != "0"}
	}
	for _, r := range SQLiteRows(t, w.DB, `SELECT u.Name, u.RealName, u.EmailAddress, p.Disabled,
		EXISTS (SELECT 1 FROM GroupMembers m JOIN Groups g ON g.id = m.GroupId
			WHERE m.MemberId = u.id AND g.Domain = 'SystemInternal' AND g.Name = 'Privileged') AS privileged
		FROM Users u JOIN Principals p ON p.id = u.id`) {
		st.Users[r["Name"]] = RTAccount{RealName: r["RealName"], Email: r["EmailAddress"], Privileged: r["privileged"] == "1", Disabled: r["Disabled"] != "0"}
	}
	for _, r := range SQLiteRows(t, w.DB, `SELECT g.Name AS grp, COALESCE(u.Name, mg.Name, '') AS member
		FROM Groups g LEFT JOIN GroupMembers m ON m.GroupId = g.id
		LEFT JOIN Users u ON u.id = m.MemberId LEFT JOIN Groups mg ON mg.id = m.MemberId
		WHERE g.Domain = 'UserDefined'`) {
		members := st.Groups[r["grp"]]
		if r["member"] != "" {
			members = append(members, r["member"])
		}
		slices.Sort(members)
		st.Groups[r["grp"]] = members
	}
	return st
}

// rtMessages reads the text of every Create, Comment and Correspond transaction on a
// ticket: its first text/plain part, else its first text/html part's text.
func rtMessages(t testing.TB, db string) []RTMessage {
	t.Helper()
	type part struct{ plain, html string }
	parts := map[RTMessage]*part{}
	var keys []RTMessage
	for _, r := range SQLiteRows(t, db, `SELECT tr.id AS txn, tr.ObjectId AS ticket, tr.Type, a.ContentType, a.ContentEncoding, a.Content
		FROM Transactions tr JOIN Attachments a ON a.TransactionId = tr.id
		WHERE tr.ObjectType = 'RT::Ticket' AND tr.Type IN ('Create', 'Comment', 'Correspond')
			AND a.ContentType IN ('text/plain', 'text/html') ORDER BY a.id`) {
		ticket, _ := strconv.Atoi(r["ticket"])
		// The transaction's id stands in Text until the text is known.
		k := RTMessage{Ticket: ticket, Type: r["Type"], Text: r["txn"]}
		p, ok := parts[k]
		if !ok {
			p = &part{}
			parts[k] = p
			keys = append(keys, k)
		}
		text := rtDecode(r["ContentEncoding"], r["Content"])
		switch {
		case r["ContentType"] == "text/plain" && p.plain == "":
			p.plain = RTText(text)
		case r["ContentType"] == "text/html" && p.html == "":
			p.html = RTText(text)
		}
	}
	out := make([]RTMessage, 0, len(keys))
	for _, k := range keys {
		text := parts[k].plain
		if text == "" {
			text = parts[k].html
		}
		out = append(out, RTMessage{Ticket: k.Ticket, Type: k.Type, Text: text})
	}
	sortRTMessages(out)
	return out
}

// rtDecode undoes the encoding RT stored an attachment's content in.
func rtDecode(encoding, content string) string {
	switch encoding {
	case "base64":
		if b, err := base64.StdEncoding.DecodeString(content); err == nil {
			return string(b)
		}
	case "quoted-printable":
		if b, err := io.ReadAll(quotedprintable.NewReader(strings.NewReader(content))); err == nil {
			return string(b)
		}
	}
	return content
}

var rtTag = regexp.MustCompile(`(?s)<[^>]*>`)

// RTText is a message's text as the judges compare it: tags dropped, entities
// unescaped, spaces (and non-breaking ones) collapsed.
func RTText(s string) string {
	s = html.UnescapeString(rtTag.ReplaceAllString(s, " "))
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "\u00a0", " ")), " ")
}

func sortRTMessages(m []RTMessage) {
	slices.SortFunc(m, func(a, b RTMessage) int {
		if a.Ticket != b.Ticket {
			return a.Ticket - b.Ticket
		}
		return strings.Compare(a.Type+"\x00"+a.Text, b.Type+"\x00"+b.Text)
	})
}

// clone is a deep copy of the state.
func (s RTState) clone() RTState {
	c := RTState{Tickets: maps.Clone(s.Tickets), Messages: slices.Clone(s.Messages), Queues: maps.Clone(s.Queues),
		Users: maps.Clone(s.Users), Groups: map[string][]string{}}
	for k, v := range s.Groups {
		c.Groups[k] = slices.Clone(v)
	}
	return c
}

// Differs says how the instance's database differs from want, "" when it does not
// (want's messages in any order).
func (w *RT) Differs(t testing.TB, want RTState) string {
	t.Helper()
	got := w.State(t)
	sortRTMessages(want.Messages)
	var diffs []string
	diffs = append(diffs, rtMapDiff("ticket", want.Tickets, got.Tickets)...)
	diffs = append(diffs, rtMapDiff("queue", want.Queues, got.Queues)...)
	diffs = append(diffs, rtMapDiff("user", want.Users, got.Users)...)
	for _, k := range rtKeys(want.Groups, got.Groups) {
		g, ok := got.Groups[k]
		wg, wok := want.Groups[k]
		if ok != wok || !slices.Equal(g, wg) {
			diffs = append(diffs, fmt.Sprintf("group %q: members %q, want %q", k, g, wg))
		}
	}
	if !slices.Equal(got.Messages, want.Messages) {
		diffs = append(diffs, fmt.Sprintf("messages %+v not wanted, %+v missing", rtNewer(got.Messages, want.Messages), rtNewer(want.Messages, got.Messages)))
	}
	return strings.Join(diffs, "; ")
}

// rtMapDiff describes each key whose value differs between want and got.
func rtMapDiff[K comparable, V comparable](what string, want, got map[K]V) []string {
	var out []string
	for _, k := range rtKeys(want, got) {
		g, ok := got[k]
		wv, wok := want[k]
		switch {
		case !ok:
			out = append(out, fmt.Sprintf("no %s %v (want %+v)", what, k, wv))
		case !wok:
			out = append(out, fmt.Sprintf("an unexpected %s %v: %+v", what, k, g))
		case g != wv:
			out = append(out, fmt.Sprintf("%s %v is %+v, want %+v", what, k, g, wv))
		}
	}
	return out
}

// rtKeys is the keys of a and b, sorted as text.
func rtKeys[K comparable, V any](a, b map[K]V) []K {
	var keys []K
	for _, m := range []map[K]V{a, b} {
		for k := range m {
			if !slices.Contains(keys, k) {
				keys = append(keys, k)
			}
		}
	}
	slices.SortFunc(keys, func(x, y K) int { return strings.Compare(fmt.Sprint(x), fmt.Sprint(y)) })
	return keys
}

// rtNewer is the messages of a that b lacks.
func rtNewer(a, b []RTMessage) []RTMessage {
	var out []RTMessage
	for _, m := range a {
		if !slices.Contains(b, m) {
			out = append(out, m)
		}
	}
	return out
}

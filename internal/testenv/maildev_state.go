package testenv

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// MaildevMail is what the judges compare of one mail MailDev holds: whether it is read,
// the addresses it was relayed to (none until it is), and whether its .eml file is in
// the mail folder.
type MaildevMail struct {
	Read      bool
	RelayedTo []string
	File      bool
}

// MaildevState is what the judges compare of a MailDev: every mail its REST API lists,
// by its key (MaildevKey: its subject and first recipient as sent, whatever a relay to
// another address made of its recipient since), each mail the relay sink took (as
// MaildevSinkMessage.String names it, in the order it took them), and the .eml files of
// the mail folder that belong to no mail MailDev lists.
type MaildevState struct {
	Mails  map[string]MaildevMail
	Sink   []string
	Strays []string
}

// maildevAPIMail is a mail as GET /api/email lists it (the fields the judges read).
type maildevAPIMail struct {
	ID      string `json:"id"`
	Subject string `json:"subject"`
	Read    bool   `json:"read"`
	To      []struct {
		Address string `json:"address"`
	} `json:"to"`
	RelayedTo []string `json:"relayedTo"`
}

// key is the judges' name of a mail MailDev received: its subject and first recipient.
func (m maildevAPIMail) key() string {
	to := ""
	if len(m.To) > 0 {
		to = m.To[0].Address
	}
	return MaildevKey(m.Subject, to)
}

// apiMails is every mail GET /api/email lists: MailDev's own store. Listing them marks
// none read (opening one, GET /api/email/ID, does).
func (w *Maildev) apiMails(t testing.TB) []maildevAPIMail {
	t.Helper()
	resp, err := http.Get(w.Base + "/api/email")
	if err != nil {
		t.Fatalf("maildev: GET /api/email: %v", err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("maildev: GET /api/email answered %d: %s", resp.StatusCode, data)
	}
	var mails []maildevAPIMail
	if err := json.Unmarshal(data, &mails); err != nil {
		t.Fatalf("maildev: GET /api/email: %v: %s", err, data)
	}
	return mails
}

// State reads MailDev's REST API, its mail folder and the relay sink now.
func (w *Maildev) State(t testing.TB) MaildevState {
	t.Helper()
	s := MaildevState{Mails: map[string]MaildevMail{}}
	ids := map[string]bool{}
	for _, m := range w.apiMails(t) {
		key, ok := w.keys[m.ID]
		if !ok {
			key = m.key()
		}
		// Two mails alike (a mail sent again) are told apart by their order.
		for base, n := key, 2; ; n++ {
			if _, taken := s.Mails[key]; !taken {
				break
			}
			key = fmt.Sprintf("%s #%d", base, n)
		}
		relayed := make([]string, 0, len(m.RelayedTo))
		for _, a := range m.RelayedTo {
			relayed = append(relayed, strings.ToLower(a))
		}
		slices.Sort(relayed)
		s.Mails[key] = MaildevMail{Read: m.Read, RelayedTo: relayed, File: exists(filepath.Join(w.MailDir, m.ID+".eml"))}
		ids[m.ID] = true
	}
	entries, err := os.ReadDir(w.MailDir)
	if err != nil {
		t.Fatalf("maildev: reading the mail folder: %v", err)
	}
	for _, e := range entries {
		if id, ok := strings.CutSuffix(e.Name(), ".eml"); ok && !ids[id] {
			s.Strays = append(s.Strays, e.Name())
		}
	}
	for _, m := range w.Sink() {
		s.Sink = append(s.Sink, m.String())
	}
	return s
}

// Seed is the state the instance started with (a copy: a judge may change it into the
// state it wants).
func (w *Maildev) Seed() MaildevState {
	return MaildevState{Mails: maps.Clone(w.seed.Mails), Sink: slices.Clone(w.seed.Sink), Strays: slices.Clone(w.seed.Strays)}
}

// Diff says how s differs from want ("" when it does not): each mail missing, extra,
// read or unread, relayed elsewhere or without its file, each relayed mail the sink took
// or lacks, and each stray file.
func (s MaildevState) Diff(want MaildevState) string {
	var out []string
	for _, k := range slices.Sorted(maps.Keys(want.Mails)) {
		if _, ok := s.Mails[k]; !ok {
			out = append(out, fmt.Sprintf("the mail %q is gone", k))
		}
	}
	for _, k := range slices.Sorted(maps.Keys(s.Mails)) {
		got, wm := s.Mails[k], want.Mails[k]
		if _, ok := want.Mails[k]; !ok {
			out = append(out, fmt.Sprintf("the mail %q is there, and should not be", k))
			continue
		}
		if got.Read != wm.Read {
			out = append(out, fmt.Sprintf("the mail %q is %s, not %s", k, maildevReadWord(got.Read), maildevReadWord(wm.Read)))
		}
		if !slices.Equal(got.RelayedTo, wm.RelayedTo) {
			out = append(out, fmt.Sprintf("the mail %q was relayed to %s, not %s", k, maildevAddresses(got.RelayedTo), maildevAddresses(wm.RelayedTo)))
		}
		if got.File != wm.File {
			out = append(out, fmt.Sprintf("the mail %q has its file in the mail folder: %v, not %v", k, got.File, wm.File))
		}
	}
	if !slices.Equal(s.Sink, want.Sink) {
		out = append(out, fmt.Sprintf("the relay sink took %s, not %s", maildevAddresses(s.Sink), maildevAddresses(want.Sink)))
	}
	if !slices.Equal(s.Strays, want.Strays) {
		out = append(out, fmt.Sprintf("the mail folder holds the files %q of no listed mail, not %q", s.Strays, want.Strays))
	}
	return strings.Join(out, "; ")
}

// Differs says how the instance now differs from want ("" when it does not).
func (w *Maildev) Differs(t testing.TB, want MaildevState) string {
	t.Helper()
	return w.State(t).Diff(want)
}

// DiffersReadAside is Differs with the read flags left aside: how a goal that opens a
// mail to act on it is judged (opening a mail marks it read, and a person may open
// another one on the way).
func (w *Maildev) DiffersReadAside(t testing.TB, want MaildevState) string {
	t.Helper()
	s := w.State(t)
	want.Mails = maps.Clone(want.Mails)
	for k, m := range want.Mails {
		if got, ok := s.Mails[k]; ok {
			m.Read = got.Read
			want.Mails[k] = m
		}
	}
	return s.Diff(want)
}

// maildevReadWord names a read flag.
func maildevReadWord(read bool) string {
	if read {
		return "read"
	}
	return "unread"
}

// maildevAddresses lists addresses (or sink messages) quoted, "nothing" when there are
// none.
func maildevAddresses(list []string) string {
	if len(list) == 0 {
		return "nothing"
	}
	return fmt.Sprintf("%q", list)
}

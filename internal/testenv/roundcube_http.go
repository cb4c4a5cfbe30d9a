package testenv

import (
	"bufio"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// RoundcubeSession is a signed-in browser session without a browser: it posts what
// Roundcube's pages post (its forms with their token, its AJAX requests with the token in
// their header), so a test can make a goal's effect as the UI makes it.
type RoundcubeSession struct {
	rc     *Roundcube
	client *http.Client
	token  string
}

var (
	loginToken   = regexp.MustCompile(`name="_token" value="([^"]+)"`)
	requestToken = regexp.MustCompile(`"request_token":"([^"]+)"`)
)

// SignIn signs in through the login form and returns the session.
func (rc *Roundcube) SignIn(t testing.TB) *RoundcubeSession {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	s := &RoundcubeSession{rc: rc, client: &http.Client{Jar: jar, Timeout: 30 * time.Second}}
	m := loginToken.FindStringSubmatch(s.get(t, ""))
	if m == nil {
		t.Fatalf("roundcube: no token on the login page")
	}
	s.post(t, "?_task=login", url.Values{"_token": {m[1]}, "_task": {"login"}, "_action": {"login"},
		"_timezone": {"UTC"}, "_url": {""}, "_user": {rc.User}, "_pass": {rc.Password}}, false)
	page := s.get(t, "?_task=mail&_mbox=INBOX")
	if m = requestToken.FindStringSubmatch(page); m == nil {
		t.Fatalf("roundcube: signing in did not reach the mailbox:\n%.2000s", page)
	}
	s.token = m[1]
	return s
}

func (s *RoundcubeSession) get(t testing.TB, query string) string {
	t.Helper()
	resp, err := s.client.Get(s.rc.URL + query)
	if err != nil {
		t.Fatalf("roundcube GET %s: %v", query, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}

func (s *RoundcubeSession) post(t testing.TB, query string, form url.Values, ajax bool) string {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, s.rc.URL+query, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if ajax {
		req.Header.Set("X-Roundcube-Request", s.token)
		req.Header.Set("X-Requested-With", "XMLHttpRequest")
	}
	resp, err := s.client.Do(req)
	if err != nil {
		t.Fatalf("roundcube POST %s: %v", query, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode >= 400 {
		t.Fatalf("roundcube POST %s answered %d: %.1000s", query, resp.StatusCode, b)
	}
	return string(b)
}

// Ajax posts an AJAX request as the mail and settings pages send them, and returns the
// answer (a JSON object of commands for the page).
func (s *RoundcubeSession) Ajax(t testing.TB, task, action string, form url.Values) string {
	t.Helper()
	form.Set("_remote", "1")
	form.Set("_unlock", "0")
	return s.post(t, "?_task="+task+"&_action="+action, form, true)
}

// Form posts a form as its page submits it (into the page's frame), with the token.
func (s *RoundcubeSession) Form(t testing.TB, task, action string, form url.Values) string {
	t.Helper()
	form.Set("_token", s.token)
	form.Set("_framed", "1")
	return s.post(t, "?_task="+task+"&_action="+action, form, false)
}

// Get fetches a page of the session, following redirects.
func (s *RoundcubeSession) Get(t testing.TB, query string) string {
	t.Helper()
	return s.get(t, query)
}

// UID is the IMAP UID of the message with this subject in folder, from Dovecot's own
// record of the folder's UIDs (its dovecot-uidlist file); the folder is listed first
// through Roundcube, so that Dovecot has numbered its messages.
func (s *RoundcubeSession) UID(t testing.TB, folder, subject string) string {
	t.Helper()
	s.Ajax(t, "mail", "list", url.Values{"_mbox": {folder}})
	var file string
	for _, m := range s.rc.IMAP.Messages(t) {
		if m.Folder == folder && m.Subject == subject {
			file = m.File
		}
	}
	if file == "" {
		t.Fatalf("no message %q in %s", subject, folder)
	}
	base, _, _ := strings.Cut(file, ":2,")
	dir := s.rc.IMAP.Maildir
	if folder != "INBOX" {
		dir = filepath.Join(dir, "."+folder)
	}
	fh, err := os.Open(filepath.Join(dir, "dovecot-uidlist"))
	if err != nil {
		t.Fatalf("the UIDs of %s: %v", folder, err)
	}
	defer fh.Close()
	sc := bufio.NewScanner(fh)
	for sc.Scan() {
		// A record is "UID [extensions] :FILENAME", the name as it was first seen.
		uid, rest, _ := strings.Cut(sc.Text(), " ")
		if _, name, ok := strings.Cut(rest, ":"); ok && (name == base || strings.HasPrefix(name, base+":2,")) {
			return uid
		}
	}
	t.Fatalf("no UID for %s in %s", file, folder)
	return ""
}

package testenv

import (
	"crypto/md5"
	"encoding/hex"
	"io"
	"io/fs"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// TomcatState is what the judges compare of a Tomcat: for each kind of thing the
// administration web apps change, its rows by key, each row's value its settings as one
// line.
//
//	app       context path → running|stopped docbase=… (the Manager's text list of the
//	          host localhost)
//	sessions  context path → some|none: whether the application holds sessions, for the
//	          seed's applications that hold some (a visit to another application's page
//	          opens one there, which no goal is about)
//	host      virtual host → its aliases, sorted, comma-separated (the Host Manager's text
//	          list)
//	file      path in the CATALINA_BASE → "dir", or the file's MD5 (every folder and file
//	          but those Tomcat keeps for itself at run time: work, logs, temp)
type TomcatState map[string]map[string]string

// State reads the two text interfaces' lists and the CATALINA_BASE's files now.
func (tc *Tomcat) State(t testing.TB) TomcatState {
	t.Helper()
	s := TomcatState{"app": map[string]string{}, "sessions": map[string]string{}, "host": map[string]string{}, "file": map[string]string{}}
	for _, line := range tc.list(t, "/manager/text/list") {
		f := strings.SplitN(line, ":", 4)
		if len(f) != 4 {
			t.Fatalf("tomcat: the Manager's list has a line %q", line)
		}
		s["app"][f[0]] = f[1] + " docbase=" + f[3]
		if tomcatHeldSessions(f[0]) {
			s["sessions"][f[0]] = map[bool]string{true: "none", false: "some"}[f[2] == "0"]
		}
	}
	for _, line := range tc.list(t, "/host-manager/text/list") {
		name, aliases, ok := strings.Cut(line, "]:[")
		if !ok || !strings.HasPrefix(name, "[") || !strings.HasSuffix(aliases, "]") {
			t.Fatalf("tomcat: the Host Manager's list has a line %q", line)
		}
		var as []string
		for _, a := range strings.Split(strings.TrimSuffix(aliases, "]"), ",") {
			if a = strings.TrimSpace(a); a != "" {
				as = append(as, a)
			}
		}
		slices.Sort(as)
		s["host"][strings.TrimPrefix(name, "[")] = strings.Join(as, ",")
	}
	tc.readFiles(t, s["file"])
	return s
}

// tomcatHeldSessions says whether the seed's application at path holds sessions.
func tomcatHeldSessions(path string) bool {
	for _, a := range TomcatSeedApps {
		if a.Path == path && a.Sessions > 0 {
			return true
		}
	}
	return false
}

// readFiles puts each folder and file of the CATALINA_BASE but work, logs and temp into
// files, by its slash-separated path there.
func (tc *Tomcat) readFiles(t testing.TB, files map[string]string) {
	t.Helper()
	err := filepath.WalkDir(tc.Base, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			if os.IsNotExist(err) { // removed while walked: an undeploy under way
				return nil
			}
			return err
		}
		rel, _ := filepath.Rel(tc.Base, path)
		rel = filepath.ToSlash(rel)
		switch {
		case rel == ".":
			return nil
		case e.IsDir() && (rel == "work" || rel == "logs" || rel == "temp"):
			return filepath.SkipDir
		case e.IsDir():
			files[rel] = "dir"
			return nil
		}
		sum, err := fileMD5(path)
		if err != nil && !os.IsNotExist(err) {
			return err
		}
		files[rel] = sum
		return nil
	})
	if err != nil {
		t.Fatalf("tomcat: read the CATALINA_BASE: %v", err)
	}
}

// fileMD5 is a file's MD5 in hexadecimal.
func fileMD5(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := md5.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// list reads a text interface's list (the Manager's applications, the Host Manager's
// hosts): its lines after the "OK - …" line.
func (tc *Tomcat) list(t testing.TB, path string) []string {
	t.Helper()
	out := tc.Text(t, path)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if !strings.HasPrefix(lines[0], "OK - ") {
		t.Fatalf("tomcat: %s answered %q", path, out)
	}
	var rows []string
	for _, l := range lines[1:] {
		if l = strings.TrimSpace(l); l != "" {
			rows = append(rows, l)
		}
	}
	return rows
}

// Text asks one of the two web apps' text interfaces (a path such as /manager/text/list)
// as the judge, who may use nothing else, and returns the answer: the first time through
// the sign-in form (one sign-in serves both web apps), then with its session.
func (tc *Tomcat) Text(t testing.TB, path string) string {
	t.Helper()
	if tc.reader == nil {
		jar, _ := cookiejar.New(nil)
		tc.reader = &http.Client{Jar: jar, Timeout: 60 * time.Second}
	}
	status, body, _ := tomcatGet(t, tc.reader, "GET", tc.URL+path, nil)
	if strings.Contains(body, "j_security_check") {
		app, _, _ := strings.Cut(strings.TrimPrefix(path, "/"), "/")
		status, body, _ = tomcatGet(t, tc.reader, "POST", tc.URL+"/"+app+"/j_security_check",
			url.Values{"j_username": {tomcatJudge}, "j_password": {tc.judge}})
	}
	if status != http.StatusOK || strings.Contains(body, "j_security_check") {
		t.Fatalf("tomcat: %s answered %d: %s", path, status, IcingaWebText(body))
	}
	return body
}

// tomcatGet sends method to target with form (nil for none) through c, following
// redirects, and returns the status, the body and the address it ends on.
func tomcatGet(t testing.TB, c *http.Client, method, target string, form url.Values) (int, string, *url.URL) {
	t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequest(method, target, body)
	if err != nil {
		t.Fatal(err)
	}
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatalf("tomcat: %s %s: %v", method, target, err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(out), resp.Request.URL
}

// Seed is the state the instance started with (a copy the caller may change).
func (tc *Tomcat) Seed() TomcatState { return tc.seed.Clone() }

// Clone is a deep copy of the state.
func (s TomcatState) Clone() TomcatState { return TomcatState(IcingaWebState(s).Clone()) }

// Diff says how s differs from want ("" when it does not): each row missing, extra or
// different, by kind and key (the same comparison as Icinga Web 2's, whose state has the
// same shape).
func (s TomcatState) Diff(want TomcatState) string {
	return IcingaWebState(s).Diff(IcingaWebState(want))
}

// Differs says how the instance's state differs from want ("" when it holds exactly that).
func (tc *Tomcat) Differs(t testing.TB, want TomcatState) string {
	t.Helper()
	return tc.State(t).Diff(want)
}

// ReleaseMD5 is the MD5 of the seed's release file (a name of TomcatSeedReleases), as it
// lies in webapps/releases.
func (tc *Tomcat) ReleaseMD5(t testing.TB, file string) string {
	t.Helper()
	sum, err := fileMD5(filepath.Join(tc.Base, "webapps", "releases", file))
	if err != nil {
		t.Fatalf("tomcat: %v", err)
	}
	return sum
}

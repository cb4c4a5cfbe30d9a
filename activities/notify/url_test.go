package notify_test

import (
	"strings"
	"testing"

	"github.com/webagent-dev/webagent/activities/notify"
)

// TestNormalize: a URL has one normal form, or is refused with the reason; the normal
// form normalises to itself, so the URL posted is the URL checked.
func TestNormalize(t *testing.T) {
	for _, tc := range []struct{ raw, want, err string }{
		{"http://h/hooks/team-a", "http://h/hooks/team-a", ""},
		{"HTTP://H.Example/hooks/team-a", "http://h.example/hooks/team-a", ""},
		{"http://h:80/x", "http://h/x", ""},
		{"https://h:443/x", "https://h/x", ""},
		{"http://h:080/x", "http://h/x", ""},
		{"http://h:8080/x", "http://h:8080/x", ""},
		{"https://h:80/x", "https://h:80/x", ""},
		{"http://h:/x", "http://h/x", ""},
		{"http://h", "http://h/", ""},
		{"http://h?t=1", "http://h/?t=1", ""},
		{"http://[::1]:80/x", "http://[::1]/x", ""},
		{"http://[::1]:81/x", "http://[::1]:81/x", ""},
		{"http://h/hooks/team-%61/%7Ex", "http://h/hooks/team-a/~x", ""},
		{"http://h/file%2ejson", "http://h/file.json", ""},
		{"http://h/a%20b/%c3%a9", "http://h/a%20b/%C3%A9", ""},
		{"http://h/a%3fb?q=%2f", "http://h/a%3Fb?q=%2f", ""},
		{"http://h/hooks/team-a/?token=x&y=1", "http://h/hooks/team-a/?token=x&y=1", ""},

		{"ftp://h/x", "", "not an http(s) URL"},
		{"javascript:alert(1)", "", "not an http(s) URL"},
		{"/hooks/team-a", "", "not an http(s) URL"},
		{"http:h/x", "", "no host"},
		{"http:///x", "", "no host"},
		{"http://h@evil/", "", "credentials"},
		{"http://u:p@h/x", "", "credentials"},
		{"http://h/x#f", "", "fragment"},
		{"http://h/x#", "", "fragment"},
		{"http://h:0/x", "", "port"},
		{"http://h:99999/x", "", "port"},
		{"http://[fe80::1%25eth0]/x", "", "plain host"},
		{"http://h/a b", "", "percent-encode"},
		{"http://h/a|b", "", "percent-encode"},
		{`http://h/a\b`, "", "percent-encode"},
		{"http://h/é", "", "percent-encode"},
		{"http://é/x", "", "percent-encode"},
		{"http://h/a\tb", "", "percent-encode"},
		{"http://h/../x", "", "dot segment"},
		{"http://h/a/./b", "", "dot segment"},
		{"http://h/a/.", "", "dot segment"},
		{"http://h/a/..", "", "dot segment"},
		{"http://h/a/...", "", "dot segment"},
		{"http://h/a/..;x/b", "", "dot segment"},
		{"http://h/a/%2e%2e/b", "", "dot segment"},
		{"http://h/a/%2E%2E/b", "", "dot segment"},
		{"http://h/a/.%2e/b", "", "dot segment"},
		{"http://h/a/%2e", "", "dot segment"},
		{"http://h/a%2fb", "", "encoded slash"},
		{"http://h/a%2Fb", "", "encoded slash"},
		{"http://h/a%5cb", "", "encoded slash or backslash"},
		{"http://h/a%5Cb", "", "encoded slash or backslash"},
		{"http://h/a%00b", "", "control"},
		{"http://h/a%252e%252e/b", "", "percent sign"},
		{"http://h//a", "", "empty segment"},
		{"http://h/a//b", "", "empty segment"},
		{"http://h/a%zz", "", "not a URL"},
		{"http://h/" + strings.Repeat("a", 2000), "", "longer than"},
	} {
		u, err := notify.Normalize(tc.raw)
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%q: %v, %v; want an error with %q", tc.raw, u, err, tc.err)
		case tc.err == "" && (err != nil || u.String() != tc.want):
			t.Errorf("%q: %v, %v; want %s", tc.raw, u, err, tc.want)
		case err == nil:
			if again, err := notify.Normalize(u.String()); err != nil || again.String() != u.String() {
				t.Errorf("%q: %s normalises to %v, %v", tc.raw, u, again, err)
			}
			if u.RequestURI() != strings.TrimPrefix(u.String(), u.Scheme+"://"+u.Host) {
				t.Errorf("%q: request URI %s of %s", tc.raw, u.RequestURI(), u)
			}
		}
	}
}

// TestWithin: an allowed URL covers its own scheme, host and port, and its path on whole
// segments, with any query.
func TestWithin(t *testing.T) {
	for _, tc := range []struct {
		allowed, raw string
		want         bool
	}{
		{"http://h/hooks/team-a", "http://h/hooks/team-a", true},
		{"http://h/hooks/team-a", "http://h/hooks/team-a/", true},
		{"http://h/hooks/team-a", "http://h/hooks/team-a/x/y", true},
		{"http://h/hooks/team-a", "http://h/hooks/team-a?token=1", true},
		{"http://h/hooks/team-a/", "http://h/hooks/team-a", true},
		{"http://h/hooks/team-a/", "http://h/hooks/team-a/x", true},
		{"http://H:80/hooks/team-%61", "http://h/hooks/team-a/x", true},
		{"http://h/", "http://h/anything/at/all", true},
		{"http://h", "http://h/x", true},
		{"http://h/hooks/a%20b", "http://h/hooks/a%20b/x", true},

		{"http://h/hooks/team-a", "http://h/hooks/team-abc", false},
		{"http://h/hooks/team-a", "http://h/hooks/team-abc/x", false},
		{"http://h/hooks/team-a", "http://h/hooks/team-", false},
		{"http://h/hooks/team-a", "http://h/hooks", false},
		{"http://h/hooks/team-a", "http://h/hooks/team-A", false},
		{"http://h/hooks/team-a", "http://h/admin/reset", false},
		{"http://h/hooks/team-a", "https://h/hooks/team-a", false},
		{"http://h/hooks/team-a", "http://h:8080/hooks/team-a", false},
		{"http://h/hooks/team-a", "http://evil/hooks/team-a", false},
		{"http://h/hooks/team-a", "http://h.evil/hooks/team-a", false},
		{"http://h/hooks/team-a", "http://h./hooks/team-a", false},
		{"http://h:8080/x", "http://h/x", false},
	} {
		a, err := notify.ParseAllowed(tc.allowed)
		if err != nil || len(a) != 1 {
			t.Fatalf("%s: %v", tc.allowed, err)
		}
		u, err := notify.Normalize(tc.raw)
		if err != nil {
			t.Fatalf("%s: %v", tc.raw, err)
		}
		if got := notify.Within(u, a[0]); got != tc.want {
			t.Errorf("%s within %s: %v, want %v", tc.raw, tc.allowed, got, tc.want)
		}
	}
}

// TestParseAllowed: the operator's list is normalised as a run's URL is; a bad entry is
// an error naming it, without its credentials.
func TestParseAllowed(t *testing.T) {
	got, err := notify.ParseAllowed(" HTTP://H:80/hooks/team-a , https://x:8443/b/,,")
	if err != nil || len(got) != 2 || got[0].String() != "http://h/hooks/team-a" || got[1].String() != "https://x:8443/b/" {
		t.Fatalf("%v, %v", got, err)
	}
	for _, tc := range []struct{ list, err string }{
		{"http://h/hooks/../admin", "entry http://h/hooks/../admin: its path has a dot segment"},
		{"http://h/a?t=1", "has a query"},
		{"http://h/a?", "has a query"},
		{"ftp://h/", "not an http(s) URL"},
		{"http://h/ok,http://user:secret@h/x", "credentials"},
		{"h/hooks", "not an http(s) URL"},
	} {
		_, err := notify.ParseAllowed(tc.list)
		if err == nil || !strings.Contains(err.Error(), tc.err) || strings.Contains(err.Error(), "secret") {
			t.Errorf("%q: %v, want %q", tc.list, err, tc.err)
		}
	}
}

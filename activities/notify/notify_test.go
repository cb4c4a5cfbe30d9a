package notify_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/testsuite"

	"github.com/webagent-dev/webagent/activities"
	"github.com/webagent-dev/webagent/activities/notify"
)

// receiver is a webhook that checks every post with Verify, as docs/agents.md shows: it
// keeps what reached it, the posts it accepted and the last post's headers and body.
type receiver struct {
	*httptest.Server
	mu       sync.Mutex
	uris     []string
	accepted []notify.Post
	refused  []error
	last     struct {
		header http.Header
		body   []byte
	}
}

func newReceiver(t *testing.T) *receiver {
	rc := &receiver{}
	seen := seenSet()
	rc.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		rc.mu.Lock()
		defer rc.mu.Unlock()
		rc.uris = append(rc.uris, r.RequestURI)
		rc.last.header, rc.last.body = r.Header.Clone(), body
		var p notify.Post
		switch err := notify.Verify(testKey, r.Header, body, time.Now(), 0, seen); {
		case errors.Is(err, notify.ErrReplay):
			rc.refused = append(rc.refused, err)
			return // 200: had it already, and does nothing again
		case err != nil:
			rc.refused = append(rc.refused, err)
			w.WriteHeader(http.StatusUnauthorized)
			return
		case json.Unmarshal(body, &p) != nil || p.Delivery != r.Header.Get(notify.DeliveryHeader) || p.Event != r.Header.Get(notify.EventHeader) ||
			strconv.FormatInt(p.SentAt.Unix(), 10) != r.Header.Get(notify.TimestampHeader):
			t.Errorf("a post that is not one: %s %v", body, r.Header)
		}
		rc.accepted = append(rc.accepted, p)
		switch r.URL.Path {
		case "/hooks/team-a/gone":
			w.WriteHeader(http.StatusGone)
		case "/hooks/team-a/down":
			w.WriteHeader(http.StatusBadGateway)
		case "/hooks/team-a/moved":
			http.Redirect(w, r, "http://169.254.169.254/", http.StatusFound)
		}
	}))
	t.Cleanup(rc.Close)
	return rc
}

// sender is a Notify activity allowed to post under rc's /hooks/team-a, in a test
// environment.
func sender(t *testing.T, rc *receiver) *testsuite.TestActivityEnvironment {
	allowed, err := notify.ParseAllowed(rc.URL + "/hooks/team-a")
	if err != nil {
		t.Fatal(err)
	}
	s := &notify.Sender{Allowed: allowed, Key: testKey, RunURL: func(id, run string) string { return "ui/" + id }}
	var ts testsuite.WorkflowTestSuite
	env := ts.NewTestActivityEnvironment()
	env.RegisterActivityWithOptions(s.Notify, activity.RegisterOptions{Name: activities.Notify.Name})
	return env
}

// TestNotify: a post goes only to an allowed destination, signed; a receiver's 4xx is
// final, a 5xx is retried, and a redirect is not followed.
func TestNotify(t *testing.T) {
	rc := newReceiver(t)
	env := sender(t, rc)
	for i, tc := range []struct {
		url, err string
	}{
		{rc.URL + "/hooks/team-a/ok", ""},
		{rc.URL + "/elsewhere", "do not allow webhooks to " + rc.URL + "/elsewhere: their operator lists"},
		{"http://user:pw@" + strings.TrimPrefix(rc.URL, "http://") + "/hooks/team-a/ok", "do not allow webhooks to " + rc.URL + "/hooks/team-a/ok: it has credentials"},
		{rc.URL + "/hooks/team-a/gone", "refused the post: 410"},
		{rc.URL + "/hooks/team-a/down", "answered 502"},
		{rc.URL + "/hooks/team-a/moved", "answered 302"},
	} {
		_, err := env.ExecuteActivity(activities.Notify.Name, activities.NotifyInput{URL: tc.url, Event: activities.NotifyEnded, WorkflowID: "w", Step: i + 1})
		if (tc.err == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("%s: %v, want %q", tc.url, err, tc.err)
		}
	}
	if got := strings.Join(rc.uris, " "); got != "/hooks/team-a/ok /hooks/team-a/gone /hooks/team-a/down /hooks/team-a/moved" {
		t.Errorf("posts: %v", got)
	}
	if len(rc.refused) > 0 {
		t.Errorf("posts refused: %v", rc.refused)
	}
}

// TestNotifyEscapes: with `/hooks/team-a` allowed, a real receiver gets exactly the posts
// to that path and under it, each at its normal form, and nothing for any URL that
// leaves it: dot segments plain or encoded, encoded slashes and backslashes, empty
// segments, a longer last segment, credentials, another host, port or scheme. A post
// sent again as it was, or with its timestamp changed, is refused by Verify.
func TestNotifyEscapes(t *testing.T) {
	rc := newReceiver(t)
	env := sender(t, rc)
	base := rc.URL
	hostport := strings.TrimPrefix(base, "http://")
	_, port, _ := strings.Cut(hostport, ":")
	allowed := []struct{ url, got string }{
		{base + "/hooks/team-a", "/hooks/team-a"},
		{base + "/hooks/team-a/", "/hooks/team-a/"},
		{base + "/hooks/team-a/x/y?token=1&a=%2F", "/hooks/team-a/x/y?token=1&a=%2F"},
		{"HTTP://" + hostport + "/hooks/team-%61/%7e", "/hooks/team-a/~"},
		{base + "/hooks/team-a/a%20b", "/hooks/team-a/a%20b"},
	}
	escaping := []string{
		base + "/hooks/team-a/../../admin/reset",
		base + "/hooks/team-a/%2e%2e/%2e%2e/admin/reset",
		base + "/hooks/team-a/%2E%2E/%2E%2E/admin/reset",
		base + "/hooks/team-a/.%2e/admin/reset",
		base + "/hooks/team-a/./../x",
		base + "/hooks/team-a/..;/admin/reset",
		base + "/hooks/team-a/..",
		base + "/hooks/team-a%2f..%2f..%2fadmin",
		base + "/hooks/team-a/..%2F..%2Fadmin",
		base + "/hooks/team-a/..%5c..%5cadmin",
		base + `/hooks/team-a/..\..\admin`,
		base + "/hooks/team-a/%252e%252e/admin",
		base + "//hooks/team-a",
		base + "/hooks//team-a/x",
		base + "/hooks/team-a//x",
		base + "/hooks/team-abc/x",
		base + "/hooks/team-abc",
		base + "/hooks/team-",
		base + "/hooks",
		base + "/",
		base + "/hooks/team-A",
		base + "/hooks/team-a#x",
		base + "/hooks/team-a/a b",
		"http://h@" + hostport + "/hooks/team-a",
		"http://" + hostport + "@localhost:" + port + "/hooks/team-a",
		"http://localhost:" + port + "/hooks/team-a",
		"http://127.0.0.2:" + port + "/hooks/team-a",
		"http://127.0.0.1:1/hooks/team-a",
		"https://" + hostport + "/hooks/team-a",
		"ftp://" + hostport + "/hooks/team-a",
		"http:" + hostport + "/hooks/team-a",
	}
	step := 0
	post := func(url string) error {
		step++
		_, err := env.ExecuteActivity(activities.Notify.Name, activities.NotifyInput{URL: url, Event: activities.NotifyWaiting, WorkflowID: "w", RunID: "r", Step: step})
		return err
	}
	for _, raw := range escaping {
		if err := post(raw); err == nil || !strings.Contains(err.Error(), "do not allow webhooks") {
			t.Errorf("%s: %v, want it refused", raw, err)
		}
	}
	var want []string
	for _, tc := range allowed {
		if err := post(tc.url); err != nil {
			t.Errorf("%s: %v", tc.url, err)
		}
		want = append(want, tc.got)
	}
	if got := strings.Join(rc.uris, " "); got != strings.Join(want, " ") {
		t.Errorf("the receiver got\n  %s\nwant\n  %s", got, strings.Join(want, " "))
	}
	if len(rc.accepted) != len(allowed) || len(rc.refused) > 0 {
		t.Fatalf("accepted %d of %d, refused %v", len(rc.accepted), len(allowed), rc.refused)
	}

	// Someone who captured the last post sends it again, then with a later timestamp.
	resend := func(h http.Header) {
		req, _ := http.NewRequest(http.MethodPost, base+"/hooks/team-a", bytes.NewReader(rc.last.body))
		req.Header = h
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	captured := rc.last.header.Clone()
	resend(captured)
	later := captured.Clone()
	later.Set(notify.TimestampHeader, strconv.FormatInt(time.Now().Unix()+1, 10))
	resend(later)
	if len(rc.accepted) != len(allowed) || len(rc.refused) != 2 || !errors.Is(rc.refused[0], notify.ErrReplay) || !errors.Is(rc.refused[1], notify.ErrSignature) {
		t.Errorf("accepted %d, want %d; refused %v, want a replay and a bad signature", len(rc.accepted), len(allowed), rc.refused)
	}
}

// TestNotifyDelivery: two posts have two delivery IDs, each in its body and headers (its
// retries keep it: TestDeliveryID).
func TestNotifyDelivery(t *testing.T) {
	rc := newReceiver(t)
	env := sender(t, rc)
	in := activities.NotifyInput{URL: rc.URL + "/hooks/team-a", Event: activities.NotifyWaiting, WorkflowID: "w", Step: 1}
	for range 2 {
		if _, err := env.ExecuteActivity(activities.Notify.Name, in); err != nil {
			t.Fatal(err)
		}
	}
	if len(rc.refused) != 0 || len(rc.accepted) != 2 || rc.accepted[0].Delivery == rc.accepted[1].Delivery {
		t.Errorf("accepted %+v, refused %v", rc.accepted, rc.refused)
	}
}

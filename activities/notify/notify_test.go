package notify_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/testsuite"

	"github.com/webagent-dev/webagent/activities"
	"github.com/webagent-dev/webagent/activities/notify"
)

// TestNotify: a post goes only to an allowed destination, signed; a receiver's 4xx is
// final, a 5xx is retried, and a redirect is not followed.
func TestNotify(t *testing.T) {
	var bodies []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		if r.Header.Get(notify.SignatureHeader) != notify.Sign([]byte("k-0123456789abcdef"), b) {
			t.Errorf("bad signature on %s", b)
		}
		bodies = append(bodies, r.URL.Path)
		switch r.URL.Path {
		case "/hook/gone":
			w.WriteHeader(http.StatusGone)
		case "/hook/down":
			w.WriteHeader(http.StatusBadGateway)
		case "/hook/moved":
			http.Redirect(w, r, "http://169.254.169.254/", http.StatusFound)
		}
	}))
	defer srv.Close()
	allowed, err := notify.ParseAllowed(srv.URL + "/hook")
	if err != nil {
		t.Fatal(err)
	}
	s := &notify.Sender{Allowed: allowed, Key: []byte("k-0123456789abcdef"), RunURL: func(id, run string) string { return "ui/" + id }}
	var ts testsuite.WorkflowTestSuite
	env := ts.NewTestActivityEnvironment()
	env.RegisterActivityWithOptions(s.Notify, activityOpts())
	for _, tc := range []struct {
		url, err string
	}{
		{srv.URL + "/hook/ok", ""},
		{srv.URL + "/elsewhere", "do not allow webhooks"},
		{"http://user:pw@" + strings.TrimPrefix(srv.URL, "http://") + "/hook/ok", "do not allow webhooks"},
		{srv.URL + "/hook/gone", "refused the post: 410"},
		{srv.URL + "/hook/down", "answered 502"},
		{srv.URL + "/hook/moved", "answered 302"},
	} {
		_, err := env.ExecuteActivity(activities.Notify.Name, activities.NotifyInput{URL: tc.url, Event: activities.NotifyEnded, WorkflowID: "w"})
		if (tc.err == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("%s: %v, want %q", tc.url, err, tc.err)
		}
	}
	if strings.Join(bodies, " ") != "/hook/ok /hook/gone /hook/down /hook/moved" {
		t.Errorf("posts: %v", bodies)
	}
}

func activityOpts() activity.RegisterOptions {
	return activity.RegisterOptions{Name: activities.Notify.Name}
}

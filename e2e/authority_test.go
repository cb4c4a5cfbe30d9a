package e2e

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"
	"google.golang.org/protobuf/encoding/prototext"

	"github.com/webagent-dev/webagent/activities"
	"github.com/webagent-dev/webagent/internal/testenv"
	"github.com/webagent-dev/webagent/workflows"
)

// recorder is a site the test serves that keeps every request it gets, body and all: the
// attacker's page a run may be pointed at, or a service on the worker's network.
type recorder struct {
	mu   sync.Mutex
	seen []string
	page string
	URL  string
}

// serveRedirect answers every request with a redirect to to.
func serveRedirect(t *testing.T, addr, to string) string {
	t.Helper()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatalf("listen on %s: %v", addr, err)
	}
	srv := &http.Server{Handler: http.RedirectHandler(to, http.StatusFound)}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	return "http://" + ln.Addr().String()
}

// portOf is the port of an http address.
func portOf(t *testing.T, raw string) string {
	t.Helper()
	_, port, err := net.SplitHostPort(strings.TrimPrefix(strings.SplitN(strings.TrimPrefix(raw, "http://"), "/", 2)[0], ""))
	if err != nil {
		t.Fatalf("the port of %s: %v", raw, err)
	}
	return port
}

func serveRecorder(t *testing.T, addr, page string) *recorder {
	t.Helper()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatalf("listen on %s: %v", addr, err)
	}
	r := &recorder{page: page, URL: "http://" + ln.Addr().String()}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		r.mu.Lock()
		r.seen = append(r.seen, req.Method+" "+req.URL.String()+"\n"+string(body))
		r.mu.Unlock()
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, r.page)
	})}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	return r
}

// eachHistory hands every history on the server, as text, to f, and counts them.
func (s *stack) eachHistory(t *testing.T, f func(workflowID, text string)) int {
	t.Helper()
	ctx := context.Background()
	runs := 0
	var token []byte
	for {
		page, err := s.client.ListWorkflow(ctx, &workflowservice.ListWorkflowExecutionsRequest{NextPageToken: token})
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range page.Executions {
			runs++
			h := &historypb.History{}
			it := s.client.GetWorkflowHistory(ctx, e.Execution.WorkflowId, e.Execution.RunId, false, enums.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
			for it.HasNext() {
				ev, err := it.Next()
				if err != nil {
					t.Fatal(err)
				}
				h.Events = append(h.Events, ev)
			}
			f(e.Execution.WorkflowId, prototext.Format(h))
		}
		if token = page.NextPageToken; len(token) == 0 {
			return runs
		}
	}
}

// eachObject hands every object in the store to f, and counts them.
func (s *stack) eachObject(t *testing.T, f func(key, data string)) int {
	t.Helper()
	keys, err := s.store.List(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range keys {
		data, err := s.store.Get(context.Background(), k)
		if err != nil {
			t.Fatal(err)
		}
		f(k, string(data))
	}
	return len(keys)
}

func (r *recorder) requests() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.seen...)
}

var (
	credential = regexp.MustCompile(`(?i)key|secret|token|passw|credential`)
	secretName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.-]*$`)
)

const attackerPage = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Search</title></head>
<body><form method="post" action="/steal"><label for="q">Query</label> <input id="q" name="q">
<button type="submit">Go</button></form></body></html>`

// TestRunsCannotReadTheWorker plays someone who may start runs and wants the worker's own
// credentials: every variable in the worker's environment and files under /etc and
// /proc/self as secret references, the worker's variable names as secret names, a
// granted secret typed on the attacker's own page, a service on an internal address the
// worker does not grant reached from a start URL on one, and ShareRun of another run and
// of every run. Then it looks for the values in every request the attacker's page and the
// internal service got, every history on the server, the worker's log, every stored
// object and the starter's output.
func TestRunsCannotReadTheWorker(t *testing.T) {
	const granted, canary = "canary-granted-Zq81xw", "canary-env-Hh27pd0R"
	s := newStack(t)
	attacker := serveRecorder(t, "127.0.0.1:0", attackerPage)
	// A service on an internal address this worker does not grant: 127.0.0.2 is loopback,
	// and the worker grants 127.0.0.1 only.
	inside := serveRecorder(t, "127.0.0.2:0", "instance-credentials: canary-metadata-7Yt")
	// A page on a granted address and port whose answer is a redirect into the service.
	redirect := serveRedirect(t, "127.0.0.1:0", inside.URL+"/latest/meta-data/")
	origin := strings.TrimSuffix(s.appURL, "/projects")
	grants := fmt.Sprintf(`{"granted": {"from": "env:WEBAGENT_TEST_GRANTED", "sites": [%q]}}`, origin)
	// The worker grants one address, and on it only the ports of the pages the test
	// serves: not MinIO's or Temporal's on the same address.
	grantedPorts := portOf(t, s.appURL) + "+" + portOf(t, attacker.URL) + "+" + portOf(t, redirect)
	w := s.worker(t, "WEBAGENT_INTERNAL_ADDRESSES=127.0.0.1:"+grantedPorts, "WEBAGENT_SECRETS="+grants,
		"WEBAGENT_TEST_GRANTED="+granted, "WEBAGENT_TEST_CANARY="+canary)

	// What the attacker is after: the worker's whole environment, and files.
	env := testenv.WorkerEnv(t, s.Stack, "WEBAGENT_TEST_GRANTED="+granted, "WEBAGENT_TEST_CANARY="+canary)
	values := map[string]string{}
	for _, kv := range env {
		if k, v, ok := strings.Cut(kv, "="); ok {
			values[k] = v
		}
	}
	files := []string{"/etc/hostname", "/etc/machine-id", "/etc/passwd", "/proc/self/environ", "/proc/self/cmdline", filepath.Join(t.TempDir(), "none")}

	ctx := context.Background()
	type attempt struct {
		name string
		in   workflows.GoalInput
		want string // in the run's error
	}
	var attempts []attempt
	refs := map[string]string{}
	for k := range values {
		refs["v"+fmt.Sprint(len(refs))] = "env:" + k
	}
	for _, f := range files {
		refs["v"+fmt.Sprint(len(refs))] = "file:" + f
	}
	var names []string
	for k := range values {
		if len(names) < 40 && secretName.MatchString(k) {
			names = append(names, `type "{{secret:`+k+`}}" into "Query"`)
		}
	}
	attempts = append(attempts,
		attempt{"references to the worker's environment and files", workflows.GoalInput{Goal: `type "{{secret:v0}}" into "Query", click "Go"`, StartURL: attacker.URL, Secrets: refs}, `remove "secrets" from the input`},
		attempt{"the worker's variables as secret names", workflows.GoalInput{Goal: strings.Join(names, ", ") + `, click "Go"`, StartURL: attacker.URL}, "this worker grants no secret"},
		attempt{"a granted secret on the attacker's page", workflows.GoalInput{Goal: `type "{{secret:granted}}" into "Query", click "Go"`, StartURL: attacker.URL}, "may be typed only on " + origin},
		attempt{"a granted secret after leaving its site", workflows.GoalInput{Goal: `go to ` + attacker.URL + `/form, type "{{secret:granted}}" into "Query", click "Go"`, StartURL: s.appURL}, "may be typed only on " + origin},
		attempt{"a start URL on an internal address the worker does not grant", workflows.GoalInput{Goal: `check that "instance-credentials" is visible`, StartURL: inside.URL + "/latest/meta-data/"}, "does not grant"},
		attempt{"an internal address the worker does not grant, from a start URL on one", workflows.GoalInput{Goal: `go to ` + inside.URL + `/latest/meta-data/, then check that "instance-credentials" is visible`, StartURL: s.appURL, AllowPrivate: true, AllowedDomains: []string{"127.0.0.2"}}, "does not grant"},
		attempt{"a start URL that redirects into the internal service", workflows.GoalInput{Goal: `check that "instance-credentials" is visible`, StartURL: redirect + "/", AllowPrivate: true, AllowedDomains: []string{"127.0.0.2"}}, "does not grant"},
		attempt{"a NAVIGATE that redirects into the internal service", workflows.GoalInput{Goal: `go to ` + redirect + `/next, then check that "instance-credentials" is visible`, StartURL: s.appURL, AllowPrivate: true, AllowedDomains: []string{"127.0.0.2"}}, "does not grant"},
		attempt{"another port of the granted address (MinIO's)", workflows.GoalInput{Goal: `check that "Bucket" is visible`, StartURL: "http://" + s.MinIOAddr + "/webagent/"}, "does not grant"},
		attempt{"a granted secret typed, then copied and pasted on the attacker's page", workflows.GoalInput{Goal: `type "{{secret:granted}}" into "User name", copy the text in "User name", go to ` + attacker.URL + `/form, paste it into "Query", click "Go"`, StartURL: origin + "/lab/signin"}, "never read back"},
	)
	var outputs []string
	for _, a := range attempts {
		run, err := s.client.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: workflows.GoalWorkflowID(time.Now(), a.name), TaskQueue: workflows.TaskQueue}, workflows.GoalWorkflowName, a.in)
		if err != nil {
			t.Fatal(err)
		}
		rctx, cancel := context.WithTimeout(ctx, 3*time.Minute)
		var res workflows.GoalResult
		err = workflows.ResultOf(&res, run.Get(rctx, &res))
		cancel()
		all := fmt.Sprint(err, res.Errors, res.Execution.Status, res.Steps)
		outputs = append(outputs, all)
		if res.Execution.Status == workflows.StatusSuccess || !strings.Contains(all, a.want) {
			t.Errorf("%s: status %q, want a refusal saying %q:\n%s", a.name, res.Execution.Status, a.want, all)
		}
	}

	// The starter's old --secret, and ShareRun of another run and of every run.
	for _, ref := range []string{"env:MINIO_SECRET_KEY", "env:WEBAGENT_TEST_CANARY", "file:/proc/self/environ"} {
		out, errOut, code := s.starter(t, "run", "--url", attacker.URL, "--secret", "k="+ref, `type "{{secret:k}}" into "Query", click "Go"`)
		outputs = append(outputs, out+errOut)
		if code != 2 || !strings.Contains(errOut, "--secret is no longer taken") || strings.Contains(out+errOut, strings.TrimPrefix(ref, "env:")) {
			t.Errorf("starter --secret k=%s: exit %d\n%s%s", ref, code, out, errOut)
		}
	}
	long, err := s.client.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: "still-running", TaskQueue: workflows.TaskQueue}, workflows.GoalWorkflowName,
		workflows.GoalInput{Goal: `wait 2 minutes`, StartURL: s.appURL})
	if err != nil {
		t.Fatal(err)
	}
	for name, in := range map[string]activities.ShareRunInput{
		"every run":        {Prefix: "runs/"},
		"a running run":    {WorkflowID: long.GetID(), RunID: long.GetRunID()},
		"a run not there":  {WorkflowID: "no-such-run", RunID: "00000000-0000-0000-0000-000000000000"},
		"an escaping name": {WorkflowID: "../runs", RunID: "x"},
	} {
		run, err := s.client.ExecuteWorkflow(ctx, client.StartWorkflowOptions{TaskQueue: workflows.TaskQueue}, workflows.ShareRunWorkflowName, in)
		if err != nil {
			t.Fatal(err)
		}
		var shared activities.ShareRunResult
		err = run.Get(ctx, &shared)
		var ae *temporal.ApplicationError
		if !errors.As(err, &ae) || ae.Type() != activities.ErrBadInput || len(shared.Objects) > 0 {
			t.Errorf("ShareRun of %s: %d links, %v; want it refused", name, len(shared.Objects), err)
		}
		outputs = append(outputs, fmt.Sprint(err))
	}
	if err := s.client.CancelWorkflow(ctx, long.GetID(), long.GetRunID()); err != nil {
		t.Fatal(err)
	}
	_ = long.Get(ctx, nil)

	// Where the values must not be.
	secret := map[string]string{"a granted secret": granted, "the canary variable": canary, "MinIO's secret key": values["MINIO_SECRET_KEY"], "the internal service": "canary-metadata-7Yt"}
	for _, f := range []string{"/etc/machine-id", "/proc/self/environ"} {
		if b, err := os.ReadFile(f); err == nil && len(strings.TrimSpace(string(b))) >= 8 {
			secret[f] = strings.TrimSpace(string(b))
		}
	}
	if b, err := os.ReadFile("/proc/self/environ"); err == nil {
		delete(secret, "/proc/self/environ")
		for _, kv := range strings.Split(string(b), "\x00") {
			k, v, ok := strings.Cut(kv, "=")
			if ok && len(v) >= 8 && credential.MatchString(k) {
				secret["the variable "+k] = v
			}
		}
	}
	leak := func(where, text string, canaries map[string]string) {
		t.Helper()
		for what, v := range canaries {
			if v != "" && strings.Contains(text, v) {
				t.Errorf("%s reached %s", what, where)
			}
		}
	}
	// The pages: not one value of the worker's environment (however short) or of a file.
	everything := map[string]string{}
	for k, v := range values {
		if len(v) >= 4 {
			everything["the worker's "+k] = v
		}
	}
	for k, v := range secret {
		everything[k] = v
	}
	for _, f := range files[:2] {
		if b, err := os.ReadFile(f); err == nil && len(strings.TrimSpace(string(b))) >= 4 {
			everything[f] = strings.TrimSpace(string(b))
		}
	}
	for _, r := range attacker.requests() {
		leak("the attacker's page", r, everything)
	}
	if n := len(inside.requests()); n > 0 {
		t.Errorf("the internal service the worker does not grant was reached %d times", n)
	}
	leak("the runs' outputs and the starter's", strings.Join(outputs, "\n"), secret)
	leak("the worker's log", w.Output(), secret)
	runs := s.eachHistory(t, func(id, text string) { leak("the history of "+id, text, secret) })
	objects := s.eachObject(t, func(key, data string) { leak("MinIO object "+key, data, secret) })
	t.Logf("%d attacks refused; %d requests to the attacker's page, none with a value; %d histories, %d objects, the log and the outputs clean", len(attempts)+7, len(attacker.requests()), runs, objects)
}

package e2e

import (
	"encoding/json"
	"fmt"
	"html"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/webagent-dev/webagent/internal/geminitest"
	"github.com/webagent-dev/webagent/internal/lab"
	"github.com/webagent-dev/webagent/internal/testenv"
	"github.com/webagent-dev/webagent/plan"
	"github.com/webagent-dev/webagent/workflows"
)

// TestSecretsStaySecret signs in on a form checked by the server, with two-step
// verification, using three secrets the worker's operator grants for the app's origin
// only: a password from the worker's environment, a PIN from a file on the worker, and a
// TOTP seed whose current code the run types ({{totp:otp}}). Once through the starter,
// once in a plan given to a run with a model. The page shows the password and the PIN as
// text on the way (a "Show password" toggle, a PIN field that is a text box). Then it
// looks for the three canaries everywhere the run leaves a trace: every history on the
// server, decoded; the worker's log; every object in MinIO; Weaviate; the model
// stand-in's recorded requests; the outputs.
func TestSecretsStaySecret(t *testing.T) {
	// The password has characters that an address and markup encode ("@", a space, "&").
	const password, pin, seed = "canary-7Qx9@pass word&", "40961357", "JBSWY3DPEHPK3PXPCANARY7Q"
	weaviate := testenv.Weaviate(t)
	s := newStack(t)
	s.app.SetAccount(lab.Account{User: "ada", Password: password, PIN: pin, TOTPSeed: seed})
	dir := t.TempDir()
	pinFile, seedFile := filepath.Join(dir, "pin"), filepath.Join(dir, "seed")
	for f, v := range map[string]string{pinFile: pin + "\n", seedFile: seed + "\n"} {
		if err := os.WriteFile(f, []byte(v), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	origin := strings.TrimSuffix(s.appURL, "/projects")
	signin := origin + "/lab/signin"
	grants := fmt.Sprintf(`{"password": {"from": "env:WEBAGENT_TEST_PASSWORD", "sites": [%q]},
		"pin": {"from": "file:%s", "sites": [%q]},
		"otp": {"from": "file:%s", "sites": [%q], "totp": true}}`, origin, pinFile, origin, seedFile, origin)
	goal := `type "ada" into "User name", type "{{secret:password}}" into "Password", check "Show password", type "{{secret:pin}}" into "PIN", click "Sign in", type "{{totp:otp}}" into "Code from your authenticator app", click "Verify", then check that "Welcome, ada" is visible`
	env := []string{"WEAVIATE_URL=" + weaviate.Addr, "WEBAGENT_TEST_PASSWORD=" + password, "WEBAGENT_SECRETS=" + grants}

	// Offline, through the starter, which lists the names the worker grants first.
	w := s.worker(t, env...)
	out, errOut, code := s.starter(t, "secrets")
	if code != 0 || !strings.Contains(out, "{{secret:password}}") || !strings.Contains(out, "{{totp:otp}}") || !strings.Contains(out, "internal addresses the browsers may reach: loopback") {
		t.Errorf("starter secrets: exit %d\n%s%s", code, out, errOut)
	}
	listed := out + errOut
	out, errOut, code = s.starter(t, "run", "--json", "--url", signin, goal)
	if code != 0 || s.app.SignIns() != 1 {
		t.Fatalf("starter: exit %d, %d sign-ins\n%s\n%s", code, s.app.SignIns(), out, errOut)
	}
	out += listed

	// Read back: a copy of the field that holds the secret, pasted into another field; and
	// the secret typed into its own site's search box, which puts it in the address and
	// echoes it in the page, encoded.
	readBack := s.result(t, s.start(t, workflows.GoalInput{StartURL: signin,
		Goal: `type "{{secret:password}}" into "Password", check "Show password", copy the text in "Password", then paste it into "Search help"`}))
	if readBack.Execution.Status == workflows.StatusSuccess || !strings.Contains(fmt.Sprint(readBack.Steps, readBack.Errors), "never read back") {
		t.Errorf("a copy of the secret's field: status %s, want it refused saying a secret is never read back: %v %v", readBack.Execution.Status, readBack.Steps, readBack.Errors)
	}
	search := s.result(t, s.start(t, workflows.GoalInput{StartURL: signin,
		Goal: `type "{{secret:password}}" into "Search help", click "Search", then check that "No help found" is visible`}))
	if search.Execution.Status != workflows.StatusSuccess {
		t.Errorf("the secret typed into its site's search box: status %s; %v", search.Execution.Status, search.Errors)
	}
	readBackJSON, _ := json.Marshal([]any{readBack, search})
	out += string(readBackJSON)
	logs := w.Output()
	w.Kill()

	// With a model, from a plan.
	steps, err := plan.Parse(goal)
	if err != nil {
		t.Fatal(err)
	}
	gemini := geminitest.New(t, func(c geminitest.Call, n int) geminitest.Reply {
		switch c.Role {
		case "evaluator":
			return geminitest.Reply{JSON: map[string]any{"success": true, "confidence": 0.9, "reasoning": "done"}}
		case "validator":
			return geminitest.Reply{JSON: map[string]any{"success": true, "confidence": 0.95, "reason": "the page welcomes ada"}}
		case "summarizer":
			return geminitest.Reply{JSON: map[string]any{"brief": "Signed in", "detailed": "Signed in as ada.", "highlights": []string{}, "warnings": []string{}}}
		}
		return geminitest.Reply{Status: http.StatusBadRequest, Message: "no answer for " + c.Role}
	})
	w = s.worker(t, append(env, "GEMINI_API_KEY=test-key", "GOOGLE_GEMINI_BASE_URL="+gemini.URL)...)
	res := s.result(t, s.start(t, workflows.GoalInput{Goal: "sign in as ada", StartURL: signin, Plan: steps}))
	if res.Execution.Status != workflows.StatusSuccess || s.app.SignIns() != 2 {
		t.Fatalf("plan run: status %s, %d sign-ins; %v", res.Execution.Status, s.app.SignIns(), res.Errors)
	}
	logs += w.Output()
	w.Kill()

	leak := func(where, text string) {
		t.Helper()
		for _, c := range []string{password, pin, seed, url.QueryEscape(password), url.PathEscape(password),
			strings.ReplaceAll(url.QueryEscape(password), "+", "%20"), html.EscapeString(password), "canary-7Qx9"} {
			if strings.Contains(text, c) {
				i := strings.Index(text, c)
				t.Errorf("a secret is in %s: …%s…", where, text[max(0, i-80):min(len(text), i+len(c)+40)])
			}
		}
	}
	resJSON, _ := json.Marshal(res)
	leak("the run's output", string(resJSON))
	leak("the starter's output", out+errOut)
	leak("the worker's log", logs)

	runs := s.eachHistory(t, func(id, text string) { leak("the history of "+id, text) })
	if runs < 3 {
		t.Errorf("want the two runs and their skill children in the history, found %d executions", runs)
	}

	objects := s.eachObject(t, func(key, data string) { leak("MinIO object "+key, data) })

	resp, err := http.Get("http://" + weaviate.Addr + "/v1/objects?limit=500")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	leak("Weaviate", string(body))

	calls := gemini.Calls("")
	if len(calls) == 0 {
		t.Fatal("the model was never asked")
	}
	for _, c := range calls {
		leak("a request to the model ("+c.Role+")", c.Prompt)
	}
	t.Logf("no secret in %d histories, %d MinIO objects, Weaviate, %d model requests, the log or the outputs", runs, objects, len(calls))
}

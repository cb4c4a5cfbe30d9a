package e2e

import (
	"bytes"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/internal/codec"
	"github.com/webagent-dev/webagent/internal/testenv"
	"github.com/webagent-dev/webagent/workflows"
)

// TestHistoryEncrypted runs the demo goal with WEBAGENT_CODEC_KEYS set on the worker and
// the starter: `temporal workflow show` without the codec shows no goal, no step and no
// output in the history; with --codec-endpoint pointing at `starter codec-server`, it does
// when it sends the server's access token (--codec-auth "Bearer TOKEN"), and does not
// without it or with another.
func TestHistoryEncrypted(t *testing.T) {
	key := make([]byte, 32)
	if _, err := rand.Read(key); err != nil {
		t.Fatal(err)
	}
	keys := "k1:" + base64.StdEncoding.EncodeToString(key)
	t.Setenv(codec.Env, keys)
	s := newStack(t)
	s.worker(t, codec.Env+"="+keys)
	out, errOut, code := s.starter(t, "run", "--json", "--url", s.appURL, demoGoal)
	if code != 0 {
		t.Fatalf("starter: exit %d\n%s\n%s", code, out, errOut)
	}
	var res workflows.GoalResult
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("the starter's JSON: %v\n%s", err, out)
	}

	// try runs `temporal workflow show`: its output, and its error with what it said.
	try := func(extra ...string) (string, error) {
		t.Helper()
		args := append([]string{"workflow", "show", "--address", s.TemporalAddr, "--namespace", s.Namespace, "--workflow-id", res.Metadata.WorkflowID, "--output", "json"}, extra...)
		cmd := exec.Command(testenv.TemporalBin(t), args...)
		cmd.Env = append(os.Environ(), s.TemporalEnv()...)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			return stdout.String(), fmt.Errorf("%v: %s", err, stderr.String())
		}
		return stdout.String(), nil
	}
	show := func(extra ...string) string {
		t.Helper()
		out, err := try(extra...)
		if err != nil {
			t.Fatalf("temporal workflow show %v: %v", extra, err)
		}
		return out
	}
	plain := readable(t, show())
	for _, word := range []string{"Apollo", "Project name", "New project"} {
		if strings.Contains(plain, word) {
			t.Errorf("the history shows %q without the codec", word)
		}
	}
	if !strings.Contains(plain, "binary/encrypted") {
		t.Errorf("the history's payloads should be marked encrypted")
	}

	token := make([]byte, 32)
	if _, err := rand.Read(token); err != nil {
		t.Fatal(err)
	}
	bearer := "Bearer " + hex.EncodeToString(token)
	addr := testenv.Addr(testenv.FreePort(t))
	srv := exec.Command(starterBin, "codec-server", "--listen", addr)
	srv.Env = append(os.Environ(), codec.Env+"="+keys, "WEBAGENT_CODEC_TOKEN="+hex.EncodeToString(token))
	var said bytes.Buffer
	srv.Stdout, srv.Stderr = &said, &said
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Process.Kill(); _ = srv.Wait() })
	for deadline := time.Now().Add(10 * time.Second); ; {
		// Without the token: the server answers, and refuses.
		if resp, err := http.Post("http://"+addr+"/decode", "application/json", strings.NewReader(`{"payloads":[]}`)); err == nil {
			resp.Body.Close()
			if resp.StatusCode != http.StatusUnauthorized {
				t.Errorf("/decode without the token: %s, want 401", resp.Status)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the codec server did not start")
		}
		time.Sleep(100 * time.Millisecond)
	}
	endpoint := fmt.Sprintf("http://%s", addr)
	decoded := readable(t, show("--codec-endpoint", endpoint, "--codec-auth", bearer))
	if !strings.Contains(decoded, "Apollo") {
		t.Errorf("with the codec server and its token the history should show the goal (%d bytes):\n%.3000s", len(decoded), decoded)
	}
	// With another token the server answers 401, on which the CLI gives up only when its
	// command times out; it must not show the goal (a missing token is refused alike: the
	// probe above).
	out, err := try("--codec-endpoint", endpoint, "--codec-auth", "Bearer "+strings.Repeat("0", 64), "--command-timeout", "3s")
	if err == nil {
		out = readable(t, out)
	}
	if strings.Contains(out, "Apollo") {
		t.Errorf("with another token the history shows the goal")
	}
	t.Logf("temporal workflow show with another token: %v", err)
	if strings.Contains(said.String(), hex.EncodeToString(token)) || strings.Contains(said.String(), "warning") {
		t.Errorf("the codec server with a token should neither print it nor warn:\n%s", said.String())
	}
}

// readable is the history's JSON with every payload's data and metadata decoded from
// base64 beside it, so that a search sees what a person reading the payloads would.
func readable(t *testing.T, raw string) string {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(raw), &v); err != nil {
		t.Fatalf("the history's JSON: %v", err)
	}
	var b strings.Builder
	var walk func(any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				if str, ok := x.(string); ok && (k == "data" || k == "encoding" || k == "encryption-key-id") {
					if dec, err := base64.StdEncoding.DecodeString(str); err == nil {
						b.Write(dec)
						b.WriteByte('\n')
					}
				}
				walk(x)
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	walk(v)
	return raw + "\n" + b.String()
}

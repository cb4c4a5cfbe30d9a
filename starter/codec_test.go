package main

import (
	"bytes"
	"encoding/base64"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	commonpb "go.temporal.io/api/common/v1"
	"google.golang.org/protobuf/encoding/protojson"

	"github.com/webagent-dev/webagent/internal/codec"
)

const (
	testToken = "0123456789abcdef0123456789abcdef"
	webUI     = "http://127.0.0.1:8233"
)

// codecServerFor is the codec server's handler with a fresh key, the given token and the
// default Web UI origins, and a body for /decode holding one payload sealed with that key.
func codecServerFor(t *testing.T, token string) (http.Handler, string) {
	t.Helper()
	t.Setenv(codec.Env, "k1:"+base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{7}, 32)))
	t.Setenv(codecTokenEnv, token)
	c, err := newCodecServer("127.0.0.1:0", "http://127.0.0.1:8233,http://localhost:8233", "")
	if err != nil {
		t.Fatal(err)
	}
	sealed, err := c.codec.Encode([]*commonpb.Payload{{Metadata: map[string][]byte{"encoding": []byte("json/plain")}, Data: []byte(`"Apollo"`)}})
	if err != nil {
		t.Fatal(err)
	}
	body, err := protojson.Marshal(&commonpb.Payloads{Payloads: sealed})
	if err != nil {
		t.Fatal(err)
	}
	return c.handler(), string(body)
}

func call(h http.Handler, method, path, origin, auth, body string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(method, path, strings.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	if origin != "" {
		r.Header.Set("Origin", origin)
	}
	if auth != "" {
		r.Header.Set("Authorization", auth)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

// TestCodecServerAsksForTheToken: /decode and /encode answer only a caller that sends the
// token as a bearer token, as `temporal --codec-auth "Bearer TOKEN"` does.
func TestCodecServerAsksForTheToken(t *testing.T) {
	h, sealed := codecServerFor(t, testToken)
	for _, c := range []struct {
		name, auth string
		want       int
	}{
		{"the token", "Bearer " + testToken, http.StatusOK},
		{"the token, scheme in lower case", "bearer " + testToken, http.StatusOK},
		{"no Authorization", "", http.StatusUnauthorized},
		{"a wrong token of the same length", "Bearer " + strings.Repeat("x", len(testToken)), http.StatusUnauthorized},
		{"a prefix of the token", "Bearer " + testToken[:20], http.StatusUnauthorized},
		{"the token and more", "Bearer " + testToken + "0", http.StatusUnauthorized},
		{"the token without a scheme", testToken, http.StatusUnauthorized},
		{"the token as Basic", "Basic " + testToken, http.StatusUnauthorized},
		{"an empty bearer", "Bearer ", http.StatusUnauthorized},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, path := range []string{"/decode", "/default/decode", "/encode"} {
				w := call(h, http.MethodPost, path, "", c.auth, sealed)
				if w.Code != c.want {
					t.Errorf("POST %s: %d, want %d (%s)", path, w.Code, c.want, w.Body)
				}
				if w.Code == http.StatusUnauthorized && (strings.Contains(w.Body.String(), "Apollo") || w.Header().Get("WWW-Authenticate") == "") {
					t.Errorf("POST %s: a 401 says how to authenticate and nothing else: %v %s", path, w.Header(), w.Body)
				}
			}
		})
	}

	w := call(h, http.MethodPost, "/decode", "", "Bearer "+testToken, sealed)
	var out commonpb.Payloads
	if err := protojson.Unmarshal(w.Body.Bytes(), &out); err != nil {
		t.Fatalf("decode's answer: %v\n%s", err, w.Body)
	}
	if len(out.Payloads) != 1 || string(out.Payloads[0].Data) != `"Apollo"` {
		t.Errorf("decoded %v, want the payload in the clear", out.Payloads)
	}
}

// TestCodecServerAnswersTheWebUIOnly: a browser may call it from the Web UI's origins
// alone. The preflight carries no token and is answered for them; any other origin gets
// no CORS header, and is refused even with the token.
func TestCodecServerAnswersTheWebUIOnly(t *testing.T) {
	h, sealed := codecServerFor(t, testToken)
	for _, c := range []struct {
		name, method, origin, auth string
		want                       int
		allowed                    bool
	}{
		{"the Web UI's preflight", http.MethodOptions, webUI, "", http.StatusNoContent, true},
		{"the Web UI by the other name", http.MethodOptions, "http://localhost:8233", "", http.StatusNoContent, true},
		{"the Web UI with the token", http.MethodPost, webUI, "Bearer " + testToken, http.StatusOK, true},
		{"the Web UI without the token", http.MethodPost, webUI, "", http.StatusUnauthorized, true},
		{"another origin's preflight", http.MethodOptions, "http://evil.example", "", http.StatusForbidden, false},
		{"another port of the same host", http.MethodOptions, "http://127.0.0.1:8234", "", http.StatusForbidden, false},
		{"another origin with the token", http.MethodPost, "http://evil.example", "Bearer " + testToken, http.StatusForbidden, false},
		{"a preflight without an origin", http.MethodOptions, "", "", http.StatusForbidden, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := call(h, c.method, "/decode", c.origin, c.auth, sealed)
			if w.Code != c.want {
				t.Errorf("%d, want %d (%s)", w.Code, c.want, w.Body)
			}
			got := w.Header().Get("Access-Control-Allow-Origin")
			switch {
			case c.allowed && got != c.origin:
				t.Errorf("Access-Control-Allow-Origin %q, want %q", got, c.origin)
			case !c.allowed && got != "":
				t.Errorf("Access-Control-Allow-Origin %q for an origin not allowed", got)
			}
			if c.allowed && !strings.Contains(w.Header().Get("Access-Control-Allow-Headers"), "Authorization") {
				t.Errorf("the Web UI may not send its token: Access-Control-Allow-Headers %q", w.Header().Get("Access-Control-Allow-Headers"))
			}
			if w.Code != http.StatusOK && strings.Contains(w.Body.String(), "Apollo") {
				t.Errorf("a refused call got the payload: %s", w.Body)
			}
		})
	}
}

// TestCodecServerWithoutToken: with no token it serves anyone (local development) and
// says so when it starts; with one it does not warn.
func TestCodecServerWithoutToken(t *testing.T) {
	h, sealed := codecServerFor(t, "")
	if w := call(h, http.MethodPost, "/decode", "", "", sealed); w.Code != http.StatusOK {
		t.Errorf("without a token: %d, want 200 (%s)", w.Code, w.Body)
	}
	var stdout, stderr bytes.Buffer
	(&codecServer{}).announce(&stdout, &stderr, "127.0.0.1:8081")
	for _, want := range []string{"anyone who can reach http://127.0.0.1:8081 can decrypt every history", codecTokenEnv + "=", "--token-file", `--codec-auth "Bearer`} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("the warning should say %q:\n%s", want, stderr.String())
		}
	}
	stdout.Reset()
	stderr.Reset()
	(&codecServer{token: testToken}).announce(&stdout, &stderr, "127.0.0.1:8081")
	if stderr.Len() > 0 || strings.Contains(stdout.String(), testToken) || !strings.Contains(stdout.String(), "--codec-auth") {
		t.Errorf("with a token: no warning, no token printed, how to call it:\nstdout: %s\nstderr: %s", stdout.String(), stderr.String())
	}
}

// TestCodecServerBadInput: what would leave the server open or misconfigured stops it
// before it listens, with exit status 2 and the reason.
func TestCodecServerBadInput(t *testing.T) {
	dir := t.TempDir()
	empty, short, good := filepath.Join(dir, "empty"), filepath.Join(dir, "short"), filepath.Join(dir, "good")
	for file, text := range map[string]string{empty: "\n", short: "secret\n", good: testToken + "\n"} {
		if err := os.WriteFile(file, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	keys := "k1:" + base64.StdEncoding.EncodeToString(make([]byte, 32))
	for _, c := range []struct {
		name, keys, token string
		args              []string
		want              string
	}{
		{"no keys", "", testToken, nil, codec.Env + " is not set"},
		{"a wildcard origin", keys, testToken, []string{"--cors", "*"}, "not an origin"},
		{"an origin with a path", keys, testToken, []string{"--cors", "http://127.0.0.1:8233/namespaces"}, "not an origin"},
		{"a short token", keys, "secret", nil, "at least 16"},
		{"an empty token file", keys, "", []string{"--token-file", empty}, "is empty"},
		{"a short token file", keys, "", []string{"--token-file", short}, "at least 16"},
		{"a missing token file", keys, "", []string{"--token-file", filepath.Join(dir, "none")}, "no such file"},
		{"an argument", keys, testToken, []string{"127.0.0.1:9000"}, "unexpected argument"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv(codec.Env, c.keys)
			t.Setenv(codecTokenEnv, c.token)
			var stderr bytes.Buffer
			args := append([]string{"--listen", "127.0.0.1:0"}, c.args...)
			if code := codecServerCommand(args, io.Discard, &stderr); code != exitBadInput || !strings.Contains(stderr.String(), c.want) {
				t.Errorf("exit %d, %q; want %d and %q", code, stderr.String(), exitBadInput, c.want)
			}
		})
	}

	// The file wins over the variable.
	t.Setenv(codec.Env, keys)
	t.Setenv(codecTokenEnv, "from-the-environment-0123456789")
	c, err := newCodecServer("127.0.0.1:0", webUI, good)
	if err != nil {
		t.Fatal(err)
	}
	if c.token != testToken {
		t.Errorf("token %q, want the file's", c.token)
	}
}

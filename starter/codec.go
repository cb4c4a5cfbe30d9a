package main

import (
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strings"
	"time"

	"go.temporal.io/sdk/converter"

	"github.com/webagent-dev/webagent/internal/codec"
)

// codecTokenEnv holds the access token the codec server asks of its callers.
const codecTokenEnv = "WEBAGENT_CODEC_TOKEN"

// minTokenLen keeps a guessable word out: openssl rand -hex 32 gives 64 characters.
const minTokenLen = 16

// codecServer is the codec server's configuration.
type codecServer struct {
	listen  string
	origins []string // the Web UI origins a browser may call it from
	token   string   // "": no token asked (local development only)
	codec   converter.PayloadCodec
}

// codecServerCommand serves the payload codec over HTTP, so that the Web UI ("Codec
// Server" in its settings) and the temporal CLI (--codec-endpoint) show decoded payloads.
// It holds the keys: every caller must send its access token (Authorization: Bearer), and
// a browser may call it only from the Web UI's origins. Without a token it still serves,
// for local development, and says that anyone who can reach it can read every history.
func codecServerCommand(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("codec-server", flag.ContinueOnError)
	fs.SetOutput(stderr)
	listen := fs.String("listen", "127.0.0.1:8081", "address to listen on")
	origins := fs.String("cors", "http://127.0.0.1:8233,http://localhost:8233", "the Web UI origins a browser may call it from, comma-separated")
	tokenFile := fs.String("token-file", "", "file holding the access token callers must send (Authorization: Bearer TOKEN); default $"+codecTokenEnv)
	if err := fs.Parse(args); err != nil {
		return exitBadInput
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "error: unexpected argument %q\n", fs.Arg(0))
		return exitBadInput
	}
	c, err := newCodecServer(*listen, *origins, *tokenFile)
	if err != nil {
		fmt.Fprintln(stderr, "error:", err)
		return exitBadInput
	}
	ln, err := net.Listen("tcp", c.listen)
	if err != nil {
		fmt.Fprintln(stderr, "error:", err)
		return exitBadInput
	}
	c.announce(stdout, stderr, ln.Addr().String())
	srv := &http.Server{Handler: c.handler(), ReadHeaderTimeout: 10 * time.Second}
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		fmt.Fprintln(stderr, "error:", err)
		return exitFailed
	}
	return exitOK
}

// newCodecServer reads the origins (--cors), the token (--token-file, else
// WEBAGENT_CODEC_TOKEN) and the keys (WEBAGENT_CODEC_KEYS).
func newCodecServer(listen, origins, tokenFile string) (*codecServer, error) {
	c := &codecServer{listen: listen}
	var err error
	if c.origins, err = parseOrigins(origins); err != nil {
		return nil, err
	}
	if c.token, err = readToken(tokenFile); err != nil {
		return nil, err
	}
	cd, err := codec.FromEnv()
	switch {
	case err != nil:
		return nil, err
	case cd == nil:
		return nil, fmt.Errorf("%s is not set: the codec server needs the keys the workers use", codec.Env)
	}
	c.codec = cd
	return c, nil
}

// parseOrigins reads --cors: origins (scheme://host[:port]), never "*": a page from
// anywhere must not be able to have history decrypted.
func parseOrigins(list string) ([]string, error) {
	var origins []string
	for _, o := range strings.Split(list, ",") {
		o = strings.TrimSpace(o)
		if o == "" {
			continue
		}
		u, err := url.Parse(o)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Path != "" || u.RawQuery != "" || u.User != nil {
			return nil, fmt.Errorf("--cors: %q is not an origin (scheme://host[:port], e.g. http://127.0.0.1:8233; no wildcard)", o)
		}
		origins = append(origins, o)
	}
	return origins, nil
}

// readToken reads the access token from file, else from WEBAGENT_CODEC_TOKEN; "" when
// neither gives one.
func readToken(file string) (string, error) {
	from, token := codecTokenEnv, os.Getenv(codecTokenEnv)
	if file != "" {
		b, err := os.ReadFile(file)
		if err != nil {
			return "", fmt.Errorf("--token-file: %w", err)
		}
		from, token = file, string(b)
		if strings.TrimSpace(token) == "" {
			return "", fmt.Errorf("--token-file: %s is empty", file)
		}
	}
	token = strings.TrimSpace(token)
	if token != "" && len(token) < minTokenLen {
		return "", fmt.Errorf("the access token in %s is %d characters: use at least %d (openssl rand -hex 32)", from, len(token), minTokenLen)
	}
	return token, nil
}

// announce says where the server listens and how to call it; without a token, it warns.
func (c *codecServer) announce(stdout, stderr io.Writer, addr string) {
	if c.token == "" {
		fmt.Fprintf(stdout, "codec server on http://%s (temporal ... --codec-endpoint http://%s)\n", addr, addr)
		fmt.Fprintf(stderr, "warning: no access token: anyone who can reach http://%s can decrypt every history.\n"+
			"  Set one (export %s=$(openssl rand -hex 32), or --token-file FILE) and call it with\n"+
			"  temporal ... --codec-endpoint http://%s --codec-auth \"Bearer $%s\".\n", addr, codecTokenEnv, addr, codecTokenEnv)
		return
	}
	fmt.Fprintf(stdout, "codec server on http://%s, access token required (temporal ... --codec-endpoint http://%s --codec-auth \"Bearer TOKEN\")\n", addr, addr)
}

// handler is the codec behind the origin check and the token check.
func (c *codecServer) handler() http.Handler {
	return cors(c.origins, authorize(c.token, converter.NewPayloadCodecHTTPHandler(c.codec)))
}

// cors lets a browser call the codec server from the allowed origins only (the Web UI's):
// a request from any other origin is refused before it reaches the codec, and a
// preflight — which carries no token — is answered for the allowed origins alone.
func cors(origins []string, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Add("Vary", "Origin")
		o := r.Header.Get("Origin")
		switch {
		case o != "" && slices.Contains(origins, o):
			w.Header().Set("Access-Control-Allow-Origin", o)
			w.Header().Set("Access-Control-Allow-Credentials", "true")
			w.Header().Set("Access-Control-Allow-Headers", "Content-Type, X-Namespace, Authorization")
			w.Header().Set("Access-Control-Allow-Methods", "POST, OPTIONS")
		case o != "" || r.Method == http.MethodOptions:
			// A browser page from elsewhere (the temporal CLI sends no Origin).
			http.Error(w, "origin not allowed", http.StatusForbidden)
			return
		}
		if r.Method == http.MethodOptions {
			w.WriteHeader(http.StatusNoContent)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// authorize passes on only requests that carry the token (Authorization: Bearer TOKEN),
// compared in constant time; with no token it passes everything.
func authorize(token string, next http.Handler) http.Handler {
	if token == "" {
		return next
	}
	want := sha256.Sum256([]byte(token))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		scheme, got, _ := strings.Cut(r.Header.Get("Authorization"), " ")
		// Hashes have the same length whatever was sent: the comparison tells nothing of it.
		sum := sha256.Sum256([]byte(strings.TrimSpace(got)))
		if !strings.EqualFold(scheme, "Bearer") || subtle.ConstantTimeCompare(sum[:], want[:]) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="codec-server"`)
			http.Error(w, "unauthorized: send Authorization: Bearer <token>", http.StatusUnauthorized)
			return
		}
		next.ServeHTTP(w, r)
	})
}

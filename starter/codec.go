package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"

	"go.temporal.io/sdk/converter"

	"github.com/webagent-dev/webagent/internal/codec"
)

// codecServerCommand serves the payload codec over HTTP, so that the Web UI ("Codec
// Server" in its settings) and the temporal CLI (--codec-endpoint) show decoded payloads
// to those who can reach it. It holds the keys: run it where only the key holders can.
func codecServerCommand(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("codec-server", flag.ContinueOnError)
	fs.SetOutput(stderr)
	listen := fs.String("listen", "127.0.0.1:8081", "address to listen on")
	origins := fs.String("cors", "http://127.0.0.1:8233,http://localhost:8233", "Web UI origins allowed to call it, comma-separated")
	if err := fs.Parse(args); err != nil {
		return exitBadInput
	}
	cd, err := codec.FromEnv()
	switch {
	case err != nil:
		fmt.Fprintln(stderr, "error:", err)
		return exitBadInput
	case cd == nil:
		fmt.Fprintf(stderr, "error: %s is not set: the codec server needs the keys the workers use\n", codec.Env)
		return exitBadInput
	}
	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		fmt.Fprintln(stderr, "error:", err)
		return exitBadInput
	}
	fmt.Fprintf(stdout, "codec server on http://%s (temporal ... --codec-endpoint http://%s)\n", ln.Addr(), ln.Addr())
	h := cors(strings.Split(*origins, ","), converter.NewPayloadCodecHTTPHandler(cd))
	if err := http.Serve(ln, h); err != nil && !errors.Is(err, http.ErrServerClosed) {
		fmt.Fprintln(stderr, "error:", err)
		return exitFailed
	}
	return exitOK
}

// cors lets the Web UI, from the given origins, call the codec server with its
// credentials.
func cors(origins []string, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if o := r.Header.Get("Origin"); o != "" {
			for _, allowed := range origins {
				if strings.TrimSpace(allowed) == o {
					w.Header().Set("Access-Control-Allow-Origin", o)
					w.Header().Set("Access-Control-Allow-Credentials", "true")
					w.Header().Set("Access-Control-Allow-Headers", "Content-Type, X-Namespace, Authorization")
					w.Header().Set("Access-Control-Allow-Methods", "POST, OPTIONS")
				}
			}
		}
		if r.Method == http.MethodOptions {
			w.WriteHeader(http.StatusNoContent)
			return
		}
		next.ServeHTTP(w, r)
	})
}

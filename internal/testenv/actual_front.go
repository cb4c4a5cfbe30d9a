package testenv

import (
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"testing"
)

// actualFrontHeaders are the headers the server sends with each page and file of the web
// app, which the front end sends with the files it serves itself: the browser runs the
// web app's SQLite in a worker only when the page is cross-origin isolated.
var actualFrontHeaders = []string{"Cross-Origin-Opener-Policy", "Cross-Origin-Embedder-Policy", "Content-Security-Policy"}

// startFront serves the instance's address (a.URL) until the test ends, in front of the
// server at backend, as a reverse proxy in front of an Actual server would: the web app's
// own files (its scripts, the SQLite engine, the database migrations it loads: a hundred
// files a page load) from the installed web app, with the server's headers, and every
// other request (the pages, the sign-in, the budget files and their sync) handed to the
// server. The server limits each address to 500 requests a minute, which four loads of the
// web app would use up; what the server answers itself is what the goals change.
func (a *Actual) startFront(t testing.TB, backend string) {
	t.Helper()
	target, err := url.Parse(backend)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.Get(backend + "/")
	if err != nil {
		t.Fatalf("actual: the start page: %v", err)
	}
	resp.Body.Close()
	headers := http.Header{}
	for _, h := range actualFrontHeaders {
		if v := resp.Header.Get(h); v != "" {
			headers.Set(h, v)
		}
	}
	webRoot := filepath.Join(ActualDir(), "node_modules", "@actual-app", "web", "build")
	proxy := httputil.NewSingleHostReverseProxy(target)
	front := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if file := actualWebFile(webRoot, r); file != "" {
			for h, v := range headers {
				w.Header()[h] = v
			}
			w.Header().Set("Cache-Control", "public, max-age=0")
			http.ServeFile(w, r, file)
			return
		}
		proxy.ServeHTTP(w, r)
	})
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("actual: the front end: %v", err)
	}
	srv := &http.Server{Handler: front}
	go func() { _ = srv.Serve(l) }()
	t.Cleanup(func() { _ = srv.Close() })
	a.URL = "http://" + l.Addr().String()
}

// actualWebFile is the web app's file a GET asks for ("" when it asks for something else:
// a page, whose index.html the server sends, or the server's own API).
func actualWebFile(webRoot string, r *http.Request) string {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		return ""
	}
	clean := path.Clean("/" + r.URL.Path)
	if clean == "/" || clean == "/index.html" {
		return ""
	}
	file := filepath.Join(webRoot, filepath.FromSlash(clean))
	if info, err := os.Stat(file); err != nil || !info.Mode().IsRegular() {
		return ""
	}
	return file
}

package testenv

import (
	"bytes"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/internal/config"
)

// TodoMVCVersion is the npm package deploy/setup.sh installs (TODOMVC_VERSION there): the
// TodoMVC project's examples, one to-do app written in each of many front-end frameworks
// by their own authors.
const TodoMVCVersion = "0.1.1"

// TodoMVCDir is the folder of the installed examples (one folder per implementation), or
// "" when they are not installed.
func TodoMVCDir() string {
	dir := os.Getenv("TODOMVC_DIR")
	if dir == "" {
		dir = filepath.Join(config.ToolsDir(), "todomvc-"+TodoMVCVersion)
	}
	examples := filepath.Join(dir, "node_modules", "todomvc", "examples")
	if !exists(filepath.Join(examples, "vanillajs", "index.html")) {
		return ""
	}
	return examples
}

// TodoMVC is one implementation of the to-do app, served on a free port of its own (so its
// browser storage starts empty). The app keeps its to-dos in the browser's localStorage;
// the page served carries one extra script, with no effect on the page, that sends the
// storage to this server whenever it changes, so that a test reads the app's own saved
// state, not what the page shows.
type TodoMVC struct {
	URL string

	mu      sync.Mutex
	storage map[string]string
}

// Todo is one saved to-do.
type Todo struct {
	Title     string `json:"title"`
	Completed bool   `json:"completed"`
}

// mirrorScript sends localStorage to the server each time it changes (apps write it by
// setItem or by property, so it is compared, not hooked).
const mirrorScript = `<script>(function(){var last="";setInterval(function(){var o={};
for(var i=0;i<localStorage.length;i++){var k=localStorage.key(i);o[k]=localStorage.getItem(k);}
var s=JSON.stringify(o);if(s===last)return;last=s;
fetch("/__storage",{method:"POST",body:s,keepalive:true});},100);})();</script>`

// StartTodoMVC serves the implementation impl (a folder of the examples, e.g.
// "vanillajs") until the test ends. It skips the test when the examples are not installed:
// deploy/setup.sh installs them.
func StartTodoMVC(t testing.TB, impl string) *TodoMVC {
	t.Helper()
	root := TodoMVCDir()
	if root == "" {
		t.Skip("TodoMVC is not installed: run deploy/setup.sh apps")
	}
	dir := filepath.Join(root, impl)
	index, err := os.ReadFile(filepath.Join(dir, "index.html"))
	if err != nil {
		t.Fatalf("TodoMVC has no implementation %q: %v", impl, err)
	}
	page := bytes.Replace(index, []byte("<head>"), []byte("<head>"+mirrorScript), 1)
	app := &TodoMVC{storage: map[string]string{}}
	files := http.FileServer(http.Dir(dir))
	mux := http.NewServeMux()
	mux.HandleFunc("/__storage", func(w http.ResponseWriter, r *http.Request) {
		var s map[string]string
		if b, err := io.ReadAll(r.Body); err == nil && json.Unmarshal(b, &s) == nil {
			app.mu.Lock()
			app.storage = s
			app.mu.Unlock()
		}
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/" || r.URL.Path == "/index.html" {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			_, _ = w.Write(page)
			return
		}
		files.ServeHTTP(w, r)
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	app.URL = "http://" + ln.Addr().String() + "/"
	return app
}

// Todos is what the app has saved: every object with a title and a completed flag in its
// storage, in the order saved, whichever way the implementation lays it out (one list
// under one key, or a key per to-do).
func (a *TodoMVC) Todos() []Todo {
	a.mu.Lock()
	defer a.mu.Unlock()
	var out []Todo
	for _, v := range a.storage {
		var any any
		if json.Unmarshal([]byte(v), &any) == nil {
			out = append(out, findTodos(any)...)
		}
	}
	return out
}

// findTodos collects the to-dos in a decoded JSON value.
func findTodos(v any) []Todo {
	switch x := v.(type) {
	case map[string]any:
		// Each edition names the fields its own way: title (or text beside a flag),
		// completed, complete or isCompleted; one leaves the flag out while it is false.
		done, flagged := firstBool(x, "completed", "complete", "isCompleted")
		if title, ok := x["title"].(string); ok {
			return []Todo{{Title: strings.TrimSpace(title), Completed: done}}
		}
		if text, ok := x["text"].(string); ok && flagged {
			return []Todo{{Title: strings.TrimSpace(text), Completed: done}}
		}
		var out []Todo
		for _, e := range x {
			out = append(out, findTodos(e)...)
		}
		return out
	case []any:
		var out []Todo
		for _, e := range x {
			out = append(out, findTodos(e)...)
		}
		return out
	}
	return nil
}

func firstBool(m map[string]any, keys ...string) (bool, bool) {
	for _, k := range keys {
		if v, ok := m[k].(bool); ok {
			return v, true
		}
	}
	return false, false
}

// Storage is the app's whole storage as last sent, for a failure's message.
func (a *TodoMVC) Storage() map[string]string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.storage
}

// Eventually waits up to limit for why to return "" on the saved to-dos, and returns its
// last answer ("" when it held).
func (a *TodoMVC) Eventually(limit time.Duration, why func([]Todo) string) string {
	deadline := time.Now().Add(limit)
	for {
		w := why(a.Todos())
		if w == "" || time.Now().After(deadline) {
			return w
		}
		time.Sleep(100 * time.Millisecond)
	}
}

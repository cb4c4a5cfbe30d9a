package driver

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// uploads holds the files a session gave its page, each in a private folder of the worker
// the session made, under its own name: the browser reads the file as a person's file
// chooser does (its type from its name, as the browser knows it — a ".tid" file is not
// "binary data"), and reads it when the page asks, which may be after the step. The folder
// goes with the session.
type uploads struct {
	mu  sync.Mutex
	dir string
}

// put writes the file under its own name and returns its path.
func (u *uploads) put(name string, data []byte) (string, error) {
	if name == "" || name != filepath.Base(name) || strings.HasPrefix(name, ".") {
		return "", fmt.Errorf("%q is not a plain file name", name)
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.dir == "" {
		dir, err := os.MkdirTemp("", "webagent-upload-")
		if err != nil {
			return "", err
		}
		u.dir = dir
	}
	path := filepath.Join(u.dir, name)
	return path, os.WriteFile(path, data, 0o600)
}

// remove deletes the folder and the files in it.
func (u *uploads) remove() {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.dir != "" {
		_ = os.RemoveAll(u.dir)
		u.dir = ""
	}
}

package testenv

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

// JupyterBrowser uses a Jupyter as its pages do: the login form's session cookie, then the
// server's REST API with the _xsrf cookie's value in an X-XSRFToken header, which is how
// the file browser, the notebook editor, the text editor and the Running tab make every
// change (/api/contents for folders, files and notebooks, /api/sessions for the notebooks
// running). It is how the harness's own test does each goal's effect without the agent.
type JupyterBrowser struct {
	j *Jupyter
	c *http.Client
}

// Browser is a browser with no session yet: SignIn signs it in through the login form.
func (j *Jupyter) Browser() *JupyterBrowser {
	jar, _ := cookiejar.New(nil)
	return &JupyterBrowser{j: j, c: &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

var jupyterXSRF = regexp.MustCompile(`name="_xsrf" value="([^"]*)"`)

// SignIn opens the login page and sends its form with the password, as a person who types
// it into Password and presses Log in does.
func (b *JupyterBrowser) SignIn(t testing.TB) {
	t.Helper()
	if why := b.signIn(); why != "" {
		t.Fatalf("jupyter: %s", why)
	}
}

// signIn signs in through the login form and says why it could not ("" when it did).
func (b *JupyterBrowser) signIn() string {
	status, page, err := b.call(http.MethodGet, "/login", nil)
	if err != nil || status != http.StatusOK {
		return fmt.Sprintf("the login page answered %d %v", status, err)
	}
	m := jupyterXSRF.FindStringSubmatch(string(page))
	if m == nil {
		return "the login page has no _xsrf field: " + string(page)
	}
	form := url.Values{"_xsrf": {m[1]}, "password": {b.j.Password}}
	status, loc, body := sendFormNoFail(b.c, b.j.Base+"/login?next=%2Ftree", form)
	if status != http.StatusFound || strings.Contains(loc, "/login") {
		return fmt.Sprintf("signing in answered %d to %q: %.300s", status, loc, body)
	}
	return ""
}

// sendFormNoFail posts form to target through c and returns the status, the Location and
// the body (the status 0 and the error's text when it could not be sent).
func sendFormNoFail(c *http.Client, target string, form url.Values) (int, string, string) {
	resp, err := c.PostForm(target, form)
	if err != nil {
		return 0, "", err.Error()
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header.Get("Location"), string(out)
}

// call sends method to the server's path with body (nil for none) as JSON and the _xsrf
// cookie's value as X-XSRFToken, as the pages' scripts do, and returns the status and the
// answer.
func (b *JupyterBrowser) call(method, path string, body any) (int, []byte, error) {
	var in io.Reader
	if body != nil {
		raw, err := json.Marshal(body)
		if err != nil {
			return 0, nil, err
		}
		in = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, b.j.Base+path, in)
	if err != nil {
		return 0, nil, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for _, c := range b.c.Jar.Cookies(req.URL) {
		if c.Name == "_xsrf" {
			req.Header.Set("X-XSRFToken", c.Value)
		}
	}
	req.Header.Set("Referer", b.j.Base+"/tree")
	resp, err := b.c.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	return resp.StatusCode, out, err
}

// API sends a request to the server's REST API as the pages do and returns its answer;
// an answer of 400 or more fails the test.
func (b *JupyterBrowser) API(t testing.TB, method, path string, body any) []byte {
	t.Helper()
	status, out, err := b.call(method, path, body)
	if err != nil || status >= 400 {
		t.Fatalf("jupyter: %s %s answered %d %v: %s", method, path, status, err, out)
	}
	return out
}

// Page fetches one of the server's pages (/tree, /notebooks/NAME, /edit/NAME) and returns
// it; an answer other than 200 fails the test.
func (b *JupyterBrowser) Page(t testing.TB, path string) string {
	t.Helper()
	status, out, err := b.call(http.MethodGet, path, nil)
	if err != nil || status != http.StatusOK {
		t.Fatalf("jupyter: GET %s answered %d %v: %.300s", path, status, err, out)
	}
	return string(out)
}

// jupyterContents is the REST API's address of a path in the folder, each part escaped.
func jupyterContents(path string) string {
	parts := strings.Split(path, "/")
	for i, p := range parts {
		parts[i] = url.PathEscape(p)
	}
	return "/api/contents/" + strings.Join(parts, "/")
}

// NewFolder makes a new folder in dir ("" for the top) as the file browser's New > Folder
// does (it is named Untitled Folder, or Untitled Folder 1… when that is taken) and returns
// its path.
func (b *JupyterBrowser) NewFolder(t testing.TB, dir string) string {
	t.Helper()
	var model struct {
		Path string `json:"path"`
	}
	if err := json.Unmarshal(b.API(t, http.MethodPost, jupyterContents(dir), map[string]any{"type": "directory"}), &model); err != nil {
		t.Fatalf("jupyter: a new folder: %v", err)
	}
	return model.Path
}

// Rename renames (or moves) the folder, file or notebook from to to, as the file browser's
// Rename and Move dialogs and the editors' titles do.
func (b *JupyterBrowser) Rename(t testing.TB, from, to string) {
	t.Helper()
	b.API(t, http.MethodPatch, jupyterContents(from), map[string]any{"path": to})
}

// Delete deletes a file, notebook or folder, as the file browser's Delete does.
func (b *JupyterBrowser) Delete(t testing.TB, path string) {
	t.Helper()
	b.API(t, http.MethodDelete, jupyterContents(path), nil)
}

// OpenNotebook starts the notebook's kernel as its editor does when it opens it: a session
// of the notebook with Python 3's kernel.
func (b *JupyterBrowser) OpenNotebook(t testing.TB, path string) {
	t.Helper()
	name := path[strings.LastIndex(path, "/")+1:]
	b.API(t, http.MethodPost, "/api/sessions", map[string]any{"path": path, "name": name, "type": "notebook",
		"kernel": map[string]any{"name": "python3"}})
}

// EditNotebook opens a notebook in its editor, changes its cells (each the JSON object the
// file keeps) with edit and saves it, as the editor's Save and Checkpoint does.
func (b *JupyterBrowser) EditNotebook(t testing.TB, path string, edit func(cells []any) []any) {
	t.Helper()
	b.OpenNotebook(t, path)
	var model struct {
		Content map[string]any `json:"content"`
	}
	if err := json.Unmarshal(b.API(t, http.MethodGet, jupyterContents(path)+"?type=notebook&content=1", nil), &model); err != nil {
		t.Fatalf("jupyter: read %s: %v", path, err)
	}
	cells, _ := model.Content["cells"].([]any)
	model.Content["cells"] = edit(cells)
	b.API(t, http.MethodPut, jupyterContents(path), map[string]any{"type": "notebook", "content": model.Content})
}

// JupyterRetype changes a cell (one EditNotebook passes) to kind as the editor's cell type
// menu does: a code cell gains outputs and an execution count, others lose them.
func JupyterRetype(cell any, kind string) {
	c, _ := cell.(map[string]any)
	c["cell_type"] = kind
	if kind == "code" {
		c["outputs"], c["execution_count"] = []any{}, nil
	} else {
		delete(c, "outputs")
		delete(c, "execution_count")
	}
}

// EditText opens a text file in the text editor, changes its text with edit and saves it,
// as the editor's File > Save does.
func (b *JupyterBrowser) EditText(t testing.TB, path string, edit func(string) string) {
	t.Helper()
	var model struct {
		Content string `json:"content"`
	}
	if err := json.Unmarshal(b.API(t, http.MethodGet, jupyterContents(path)+"?type=file&format=text&content=1", nil), &model); err != nil {
		t.Fatalf("jupyter: read %s: %v", path, err)
	}
	b.API(t, http.MethodPut, jupyterContents(path), map[string]any{"type": "file", "format": "text", "content": edit(model.Content)})
}

// Shutdown shuts the kernel of a running notebook down, as the Running tab's Shutdown does:
// its session, found among the server's, is deleted.
func (b *JupyterBrowser) Shutdown(t testing.TB, path string) {
	t.Helper()
	var sessions []struct{ ID, Path string }
	if err := json.Unmarshal(b.API(t, http.MethodGet, "/api/sessions", nil), &sessions); err != nil {
		t.Fatalf("jupyter: the sessions: %v", err)
	}
	for _, s := range sessions {
		if s.Path == path {
			b.API(t, http.MethodDelete, "/api/sessions/"+url.PathEscape(s.ID), nil)
			return
		}
	}
	t.Fatalf("jupyter: %s is not running", path)
}

// JupyterText is a page's text as a person reads it: tags dropped, entities unescaped,
// white space folded.
func JupyterText(page string) string { return DAViCalText(page) }

package testenv

import (
	"html"
	"io"
	"net/http"
	"net/http/cgi"
	"net/http/cookiejar"
	"net/url"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var nagiosCGIName = regexp.MustCompile(`^[a-z]+\.cgi$`)

// handler serves the web interface as Debian's Apache set-up lays it out: the CGIs under
// /cgi-bin/nagios4/ and /nagios4/cgi-bin/, the stylesheets (kept in /etc/nagios4) under
// /nagios4/stylesheets/, the PHP pages of the instance's copy through php-cgi and every
// other file of the package's htdocs under /nagios4/. Each CGI and page runs as the user
// (REMOTE_USER) with the instance's cgi.cfg; "/" leads to the interface.
func (w *Nagios) handler(php string) http.Handler {
	env := append([]string{"NAGIOS_CGI_CONFIG=" + filepath.Join(w.Dir, "cgi.cfg"), "REMOTE_USER=" + w.User}, nagiosEnv...)
	cgis := func(prefix string) http.HandlerFunc {
		return func(rw http.ResponseWriter, r *http.Request) {
			name := strings.TrimPrefix(r.URL.Path, prefix)
			if !nagiosCGIName.MatchString(name) || !exists(filepath.Join(nagiosCGIDir, name)) {
				http.NotFound(rw, r)
				return
			}
			h := &cgi.Handler{Path: filepath.Join(nagiosCGIDir, name), Root: prefix + name, Dir: w.Dir, Env: env}
			h.ServeHTTP(rw, r)
		}
	}
	static := http.StripPrefix("/nagios4/", http.FileServer(http.Dir(nagiosHTDocs)))
	mux := http.NewServeMux()
	mux.HandleFunc(nagiosCGIPath, cgis(nagiosCGIPath))
	mux.HandleFunc("/nagios4/cgi-bin/", cgis("/nagios4/cgi-bin/"))
	mux.Handle("/nagios4/stylesheets/", http.StripPrefix("/nagios4/stylesheets/", http.FileServer(http.Dir(nagiosStyles))))
	mux.HandleFunc("/nagios4/", func(rw http.ResponseWriter, r *http.Request) {
		name := strings.TrimPrefix(r.URL.Path, "/nagios4/")
		if name == "" {
			name = "index.php"
		}
		if !strings.HasSuffix(name, ".php") {
			static.ServeHTTP(rw, r)
			return
		}
		script := filepath.Join(w.www, filepath.FromSlash(name))
		if strings.Contains(name, "..") || !exists(script) {
			http.NotFound(rw, r)
			return
		}
		// The package's pages warn under PHP 8 (an offset read at the end of a file): left unlogged.
		h := &cgi.Handler{Path: php, Root: r.URL.Path, Dir: filepath.Dir(script), Stderr: io.Discard,
			Env: append(append([]string{}, env...), "SCRIPT_FILENAME="+script, "REDIRECT_STATUS=200")}
		h.ServeHTTP(rw, r)
	})
	mux.HandleFunc("/", func(rw http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" && r.URL.Path != "/nagios4" {
			http.NotFound(rw, r)
			return
		}
		http.Redirect(rw, r, "/nagios4/", http.StatusFound)
	})
	return mux
}

// NagiosBrowser uses the web interface as a person's browser does: the CSRF cookie
// cmd.cgi sets with each form, the links a page shows (by their text, or an icon's alt
// text), each form's fields as the page fills them. It keeps the page it is on. It is how
// the harness seeds an instance and how its own test makes each goal's effect without the
// agent.
type NagiosBrowser struct {
	w    *Nagios
	c    *http.Client
	page string
	at   *url.URL
}

// Browser is a browser on no page yet.
func (w *Nagios) Browser() *NagiosBrowser {
	jar, _ := cookiejar.New(nil)
	return &NagiosBrowser{w: w, c: &http.Client{Jar: jar}}
}

// Page is the page the browser is on.
func (b *NagiosBrowser) Page() string { return b.page }

// Open goes to a page (a path from the root, or an address relative to the page it is
// on), following redirects, and returns it. An answer of 400 or more fails the test.
func (b *NagiosBrowser) Open(t testing.TB, path string) string {
	t.Helper()
	return b.do(t, http.MethodGet, path, nil)
}

func (b *NagiosBrowser) do(t testing.TB, method, path string, form url.Values) string {
	t.Helper()
	base, _ := url.Parse(b.w.URL + "/")
	if b.at != nil {
		base = b.at
	}
	target, err := base.Parse(path)
	if err != nil {
		t.Fatalf("nagios: %s: %v", path, err)
	}
	var resp *http.Response
	if method == http.MethodPost {
		resp, err = b.c.PostForm(target.String(), form)
	} else {
		resp, err = b.c.Get(target.String())
	}
	if err != nil {
		t.Fatalf("nagios: %s %s: %v", method, target, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode >= 400 {
		t.Fatalf("nagios: %s %s answered %d:\n%s", method, target, resp.StatusCode, body)
	}
	b.page, b.at = string(body), resp.Request.URL
	return b.page
}

var (
	nagiosLink    = regexp.MustCompile(`(?is)<a\s([^>]*)>(.*?)(?:</a>|</td>)`)
	nagiosImg     = regexp.MustCompile(`(?is)<img\s[^>]*>`)
	nagiosTags    = regexp.MustCompile(`(?s)<[^>]*>`)
	nagiosForm    = regexp.MustCompile(`(?is)(<form\b[^>]*>)(.*?)</form>`)
	nagiosControl = regexp.MustCompile(`(?is)<input\b[^>]*>|<select\b.*?</select>|<textarea\b[^>]*>.*?</textarea>`)
	nagiosOption  = regexp.MustCompile(`(?is)<option\b[^>]*>`)
	nagiosTAText  = regexp.MustCompile(`(?is)<textarea\b[^>]*>(.*?)</textarea>`)
)

// NagiosText is an HTML fragment's text: tags left out, entities decoded, spaces collapsed.
func NagiosText(fragment string) string {
	return strings.Join(strings.Fields(html.UnescapeString(nagiosTags.ReplaceAllString(fragment, " "))), " ")
}

// nagiosRows are the page's innermost table rows (those that hold no other row).
func nagiosRows(page string) []string {
	lower := strings.ToLower(page)
	var rows []string
	for i := 0; ; {
		start := strings.Index(lower[i:], "<tr")
		if start < 0 {
			return rows
		}
		start += i
		end := strings.Index(lower[start:], "</tr>")
		if end < 0 {
			return rows
		}
		end += start
		if !strings.Contains(lower[start+3:end], "<tr") {
			rows = append(rows, page[start:end])
		}
		i = start + 3
	}
}

// nagiosLinkTo is the address of the first link in fragment whose text, or whose icon's
// alt text, is label; "" when there is none.
func nagiosLinkTo(fragment, label string) string {
	for _, m := range nagiosLink.FindAllStringSubmatch(fragment, -1) {
		found := strings.EqualFold(NagiosText(m[2]), label)
		for _, img := range nagiosImg.FindAllString(m[2], -1) {
			found = found || strings.EqualFold(tagAttrs(img)["alt"], label)
		}
		if href := tagAttrs("<a " + m[1] + ">")["href"]; found && href != "" {
			return href
		}
	}
	return ""
}

// Click follows the link labelled label on the page the browser is on.
func (b *NagiosBrowser) Click(t testing.TB, label string) string {
	t.Helper()
	href := nagiosLinkTo(b.page, label)
	if href == "" {
		t.Fatalf("nagios: no link %q on %s:\n%s", label, b.at, b.page)
	}
	return b.Open(t, href)
}

// ClickInRow follows the link labelled label in the first table row of the page whose
// text holds row (the delete icon of one comment among others, say).
func (b *NagiosBrowser) ClickInRow(t testing.TB, row, label string) string {
	t.Helper()
	for _, tr := range nagiosRows(b.page) {
		if !strings.Contains(NagiosText(tr), row) {
			continue
		}
		if href := nagiosLinkTo(tr, label); href != "" {
			return b.Open(t, href)
		}
	}
	t.Fatalf("nagios: no row holding %q with a link %q on %s:\n%s", row, label, b.at, b.page)
	return ""
}

// Submit fills the first form of the page whose opening tag or content holds marker —
// the fields as the page fills them (disabled ones left out), then fields (a field given
// no value is emptied or unticked) — and sends it as the form says. It returns the page
// the answer ends on.
func (b *NagiosBrowser) Submit(t testing.TB, marker string, fields url.Values) string {
	t.Helper()
	for _, m := range nagiosForm.FindAllStringSubmatch(b.page, -1) {
		if !strings.Contains(m[0], marker) {
			continue
		}
		form := nagiosFormFields(m[2])
		for k, v := range fields {
			if len(v) == 0 {
				form.Del(k)
			} else {
				form[k] = v
			}
		}
		attrs := tagAttrs(m[1])
		if strings.EqualFold(attrs["method"], "post") {
			return b.do(t, http.MethodPost, attrs["action"], form)
		}
		return b.Open(t, attrs["action"]+"?"+form.Encode())
	}
	t.Fatalf("nagios: no form holding %q on %s:\n%s", marker, b.at, b.page)
	return ""
}

// Commit fills cmd.cgi's form on the page with fields (name → value; "" unticks a box)
// and presses its Commit button; the command must be taken.
func (b *NagiosBrowser) Commit(t testing.TB, fields map[string]string) {
	t.Helper()
	form := url.Values{"btnSubmit": {"Commit"}}
	for k, v := range fields {
		form[k] = nil
		if v != "" {
			form[k] = []string{v}
		}
	}
	at := b.at
	page := b.Submit(t, "cmd.cgi", form)
	if !strings.Contains(page, "Your command request was successfully submitted") {
		t.Fatalf("nagios: committing the form of %s with %v was not taken: %s", at, fields, NagiosText(page))
	}
}

// nagiosFormFields reads a form's fields as a browser sends them: text and hidden fields,
// ticked boxes, each list's selected option (or its first), text areas; disabled fields
// and buttons are left out.
func nagiosFormFields(inner string) url.Values {
	form := url.Values{}
	for _, c := range nagiosControl.FindAllString(inner, -1) {
		attrs := tagAttrs(c[:strings.IndexByte(c, '>')+1])
		name := attrs["name"]
		if _, disabled := attrs["disabled"]; name == "" || disabled {
			continue
		}
		switch lower := strings.ToLower(c); {
		case strings.HasPrefix(lower, "<select"):
			opts := nagiosOption.FindAllString(c, -1)
			for i, o := range opts {
				oa := tagAttrs(o)
				if _, sel := oa["selected"]; sel || (i == 0 && !strings.Contains(lower, "selected")) {
					form.Set(name, oa["value"])
				}
			}
		case strings.HasPrefix(lower, "<textarea"):
			form.Set(name, html.UnescapeString(nagiosTAText.FindStringSubmatch(c)[1]))
		default:
			typ := strings.ToLower(attrs["type"])
			_, checked := attrs["checked"]
			switch {
			case typ == "submit" || typ == "button" || typ == "image" || typ == "reset":
			case (typ == "checkbox" || typ == "radio") && !checked:
			case typ == "checkbox" && attrs["value"] == "":
				form.Set(name, "on")
			default:
				form.Set(name, attrs["value"])
			}
		}
	}
	return form
}

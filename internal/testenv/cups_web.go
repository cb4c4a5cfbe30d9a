package testenv

import (
	"bytes"
	"html"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

// CupsBrowser uses a CUPS's web interface as a person's browser does with scripts off: the
// session cookie (org.cups.sid) its pages set and send back in each form, each form's
// fields as the page fills them, the button pressed, the links a page shows. Its pages'
// forms have no names, so a form is told apart by something it holds (its OP, its button's
// label). It is how the harness's own test does each goal's effect without the agent.
type CupsBrowser struct {
	c    *Cups
	hc   *http.Client
	page string
	at   *url.URL
}

// CupsForm is a form of a CUPS page: where it is sent, whether as multipart/form-data, its
// fields as the page fills them, the labels of its submit buttons (and the names of those
// that have one), and each list's options (value, shown text).
type CupsForm struct {
	Action    string
	Multipart bool
	Fields    url.Values
	Buttons   map[string]string // label → name ("" for a button with no name)
	Options   map[string][][2]string
}

// Browser is a browser with no cookie yet (the first page sets it).
func (c *Cups) Browser() *CupsBrowser {
	jar, _ := cookiejar.New(nil)
	return &CupsBrowser{c: c, hc: &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

// Page is the page the browser is on.
func (b *CupsBrowser) Page() string { return b.page }

// Open fetches a page (a path from the root, or a whole address), following redirects, and
// returns it. An answer of 400 or more fails the test.
func (b *CupsBrowser) Open(t testing.TB, path string) string {
	t.Helper()
	return b.do(t, http.MethodGet, path, "", nil)
}

var (
	cupsLink    = regexp.MustCompile(`(?is)<a\b([^>]*)>(.*?)</a>`)
	cupsFormRe  = regexp.MustCompile(`(?is)(<form\b[^>]*>)(.*?)</form>`)
	cupsControl = regexp.MustCompile(`(?is)<input\b[^>]*>|<select\b[^>]*>.*?</select>|<textarea\b[^>]*>.*?</textarea>`)
	cupsOption  = regexp.MustCompile(`(?is)<option\b([^>]*)>([^<]*)`)
	cupsScript  = regexp.MustCompile(`(?is)<(script|style)\b.*?</(script|style)>`)
	cupsTag     = regexp.MustCompile(`<[^>]*>`)
	cupsError   = regexp.MustCompile(`(?i)<h2 class="title">[^<]*\bError</h2>`)
)

// ClickText follows the first link on the page whose text is text.
func (b *CupsBrowser) ClickText(t testing.TB, text string) string {
	t.Helper()
	for _, m := range cupsLink.FindAllStringSubmatch(b.page, -1) {
		if CupsText(m[2]) == text {
			return b.Open(t, tagAttrs("<a " + m[1] + ">")["href"])
		}
	}
	t.Fatalf("cups: the page has no link %q: %s", text, CupsText(b.page))
	return ""
}

// Form is the first form on the page whose HTML holds marker (case aside), e.g.
// `VALUE="add-class"` or `VALUE="Change Settings"`.
func (b *CupsBrowser) Form(t testing.TB, marker string) *CupsForm {
	t.Helper()
	for _, m := range cupsFormRe.FindAllStringSubmatch(b.page, -1) {
		if strings.Contains(strings.ToLower(m[0]), strings.ToLower(marker)) {
			return cupsFormOf(m[1], m[2])
		}
	}
	t.Fatalf("cups: the page has no form with %s: %s", marker, CupsText(b.page))
	return nil
}

var cupsRow = regexp.MustCompile(`(?is)<tr\b.*?</tr>`)

// FormInRow is the first form holding marker in the first row of the page's tables whose
// text holds row (a job's title, a printer's name).
func (b *CupsBrowser) FormInRow(t testing.TB, row, marker string) *CupsForm {
	t.Helper()
	for _, tr := range cupsRow.FindAllString(b.page, -1) {
		if !strings.Contains(CupsText(tr), row) {
			continue
		}
		for _, m := range cupsFormRe.FindAllStringSubmatch(tr, -1) {
			if strings.Contains(strings.ToLower(m[0]), strings.ToLower(marker)) {
				return cupsFormOf(m[1], m[2])
			}
		}
	}
	t.Fatalf("cups: the page has no row %q with a form with %s: %s", row, marker, CupsText(b.page))
	return nil
}

// cupsFormOf reads a form: its opening tag and its body.
func cupsFormOf(open, body string) *CupsForm {
	a := tagAttrs(open)
	f := &CupsForm{Action: a["action"], Multipart: strings.Contains(strings.ToLower(a["enctype"]), "multipart"),
		Fields: url.Values{}, Buttons: map[string]string{}, Options: map[string][][2]string{}}
	for _, c := range cupsControl.FindAllString(body, -1) {
		ca := tagAttrs(c[:strings.IndexByte(c, '>')+1])
		name, lower := ca["name"], strings.ToLower(c[:8])
		typ := strings.ToLower(ca["type"])
		_, checked := ca["checked"]
		switch {
		case typ == "submit":
			f.Buttons[ca["value"]] = name
		case name == "":
		case strings.HasPrefix(lower, "<select"):
			cupsSelect(f, name, c)
		case strings.HasPrefix(lower, "<textarea"):
			f.Fields.Add(name, html.UnescapeString(cupsTag.ReplaceAllString(c, "")))
		case typ == "button" || typ == "image" || typ == "reset" || typ == "file":
		case (typ == "checkbox" || typ == "radio") && !checked:
		case typ == "checkbox" && ca["value"] == "":
			f.Fields.Add(name, "on")
		default:
			f.Fields.Add(name, ca["value"])
		}
	}
	return f
}

// cupsSelect adds what a list sends as the page fills it (its selected options, or its
// first when none is and it is no list of many) and keeps its options.
func cupsSelect(f *CupsForm, name, sel string) {
	_, multiple := tagAttrs(sel[:strings.IndexByte(sel, '>')+1])["multiple"]
	var picked []string
	for _, o := range cupsOption.FindAllStringSubmatch(sel, -1) {
		oa := tagAttrs("<option " + o[1] + ">")
		f.Options[name] = append(f.Options[name], [2]string{oa["value"], CupsText(o[2])})
		if _, ok := oa["selected"]; ok {
			picked = append(picked, oa["value"])
		}
	}
	if len(picked) == 0 && !multiple && len(f.Options[name]) > 0 {
		picked = []string{f.Options[name][0][0]}
	}
	for _, v := range picked {
		f.Fields.Add(name, v)
	}
}

// Choose selects in the list name the options whose shown text is, or begins with, each
// of labels (and no other), as a person picks them; it fails the test when one is missing.
func (f *CupsForm) Choose(t testing.TB, name string, labels ...string) {
	t.Helper()
	f.Fields.Del(name)
	for _, label := range labels {
		found := false
		for _, o := range f.Options[name] {
			if !found && (o[1] == label || strings.HasPrefix(o[1], label+" ")) {
				f.Fields.Add(name, o[0])
				found = true
			}
		}
		if !found {
			t.Fatalf("cups: the list %s has no option %q: %v", name, label, f.Options[name])
		}
	}
}

// Send sends a form as a browser does when its button labelled button is pressed,
// following the redirects of the answer, and returns the page it ends on. A page that says
// CUPS failed ("… Error", "Unable to …") fails the test.
func (b *CupsBrowser) Send(t testing.TB, f *CupsForm, button string) string {
	t.Helper()
	name, ok := f.Buttons[button]
	if !ok {
		t.Fatalf("cups: the form to %s has no button %q: %v", f.Action, button, f.Buttons)
	}
	values := url.Values{}
	for k, v := range f.Fields {
		values[k] = append([]string{}, v...)
	}
	if name != "" {
		values.Set(name, button)
	}
	page := b.do(t, http.MethodPost, f.Action, map[bool]string{true: "multipart", false: "form"}[f.Multipart], values)
	if cupsError.MatchString(page) || strings.Contains(CupsText(page), "Unable to ") {
		t.Fatalf("cups: %s answered with an error: %s\nthe server's log ends:\n%s", f.Action, CupsText(page), b.c.Log())
	}
	return page
}

// do sends one request (a form's values as enc, "form" or "multipart", for a POST),
// following redirects, and keeps the page it ends on.
func (b *CupsBrowser) do(t testing.TB, method, path, enc string, values url.Values) string {
	t.Helper()
	for range 10 {
		target, err := url.Parse(path)
		if err != nil {
			t.Fatalf("cups: %q is no address: %v", path, err)
		}
		base, _ := url.Parse(b.c.URL + "/")
		if b.at != nil {
			base = b.at
		}
		target = base.ResolveReference(target)
		status, loc, body := b.send(t, method, target.String(), enc, values)
		switch {
		case status >= 400:
			t.Fatalf("cups: %s %s answered %d: %s\nthe server's log ends:\n%s", method, path, status, CupsText(body), b.c.Log())
		case status >= 300 && loc != "":
			method, path, values = http.MethodGet, loc, nil
			b.at = target
		default:
			b.page, b.at = body, target
			return body
		}
	}
	t.Fatalf("cups: %s %s redirects too often", method, path)
	return ""
}

// send sends one request and returns its status, its Location resolved and its body.
func (b *CupsBrowser) send(t testing.TB, method, target, enc string, values url.Values) (int, string, string) {
	t.Helper()
	if enc != "multipart" {
		var form url.Values
		if method == http.MethodPost {
			form = values
		}
		return sendForm(t, b.hc, "cups", method, target, form, nil)
	}
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	for k, vs := range values {
		for _, v := range vs {
			_ = w.WriteField(k, v)
		}
	}
	// The form's file field (Or Provide a PPD File), left empty as a browser sends it.
	if part, err := w.CreateFormFile("PPD_FILE", ""); err == nil {
		_, _ = part.Write(nil)
	}
	_ = w.Close()
	req, err := http.NewRequest(method, target, &body)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", w.FormDataContentType())
	resp, err := b.hc.Do(req)
	if err != nil {
		t.Fatalf("cups: %s %s: %v", method, target, err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	loc := resp.Header.Get("Location")
	if u, err := req.URL.Parse(loc); loc != "" && err == nil {
		loc = u.String()
	}
	return resp.StatusCode, loc, string(out)
}

// CupsText is a page's text as a person reads it: scripts dropped, tags dropped, entities
// unescaped, white space folded.
func CupsText(page string) string {
	page = cupsScript.ReplaceAllString(page, " ")
	return strings.Join(strings.Fields(html.UnescapeString(cupsTag.ReplaceAllString(page, " "))), " ")
}

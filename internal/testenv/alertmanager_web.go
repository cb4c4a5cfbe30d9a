package testenv

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// AlertmanagerBrowser uses an Alertmanager's web UI as a person's browser does. The UI is a
// single-page app: its pages (#/alerts, #/silences, #/silences/new, a silence's Edit) are
// drawn by script.js from what it asks the v2 API, and its silence form sends what a person
// typed as one JSON request. So the browser loads the page and its script, asks what each
// page asks, fills a silence form as the page fills it (Start now, Duration 2h, End, the
// matchers typed as the page writes them, Creator, Comment) and sends it as the form's
// Create or Update button does. There is no login and no CSRF token. It is how the judge's
// own test makes each goal's effect without the agent.
type AlertmanagerBrowser struct{ w *Alertmanager }

// Browser is a browser that has not opened the UI yet.
func (w *Alertmanager) Browser() *AlertmanagerBrowser { return &AlertmanagerBrowser{w: w} }

// AlertmanagerSilenceForm is the New Silence (or Edit Silence) page's form as the page fills
// it: ID is set when it edits a silence (its button is then Update, else Create).
type AlertmanagerSilenceForm struct {
	ID               string
	Start, Duration  string
	End              string
	Matchers         []AlertmanagerMatcher
	Creator, Comment string
	start, end       time.Time
}

// Open loads the front page and its script, as a browser opening the UI does, and fails
// the test unless it is the Alertmanager UI (not Debian's page saying it has none).
func (b *AlertmanagerBrowser) Open(t testing.TB) string {
	t.Helper()
	page := b.fetch(t, "")
	if !strings.Contains(page, `<script src="script.js">`) || !strings.Contains(page, "Elm.Main.init") {
		t.Fatalf("alertmanager: the front page is not the web UI:\n%s", page)
	}
	b.Script(t)
	return page
}

// Script is the UI's script.js, which writes every page (and so every name they show).
func (b *AlertmanagerBrowser) Script(t testing.TB) string {
	t.Helper()
	script := b.fetch(t, "script.js")
	if !strings.Contains(script, "Elm") || !strings.Contains(script, "New Silence") {
		t.Fatalf("alertmanager: script.js is not the UI's (%d bytes)", len(script))
	}
	return script
}

// AlertsPage is what the Alerts page shows: the alerts neither silenced nor inhibited, as
// it asks for them (grouped; here one list).
func (b *AlertmanagerBrowser) AlertsPage(t testing.TB) []AlertmanagerAlert {
	t.Helper()
	var groups []struct {
		Alerts []AlertmanagerAlert `json:"alerts"`
	}
	b.call(t, http.MethodGet, "api/v2/alerts/groups?silenced=false&inhibited=false&active=true", nil, &groups)
	var out []AlertmanagerAlert
	for _, g := range groups {
		out = append(out, g.Alerts...)
	}
	return out
}

// SilencesPage is what the Silences page lists in a tab ("active", "pending", "expired").
func (b *AlertmanagerBrowser) SilencesPage(t testing.TB, tab string) []AlertmanagerSilence {
	t.Helper()
	var all, out []AlertmanagerSilence
	b.call(t, http.MethodGet, "api/v2/silences", nil, &all)
	for _, s := range all {
		if s.Status.State == tab {
			out = append(out, s)
		}
	}
	return out
}

// SilenceAlert presses the Silence link of the alert with these labels on the Alerts page:
// the New Silence form, its matchers the alert's labels (the link's filter).
func (b *AlertmanagerBrowser) SilenceAlert(t testing.TB, labels map[string]string) *AlertmanagerSilenceForm {
	t.Helper()
	for _, a := range b.AlertsPage(t) {
		if fmt.Sprint(a.Labels) == fmt.Sprint(labels) {
			keys := make([]string, 0, len(labels))
			for k := range labels {
				if k != "alertname" {
					keys = append(keys, k)
				}
			}
			sort.Strings(keys)
			parts := []string{AlertmanagerMatcher{Name: "alertname", Value: labels["alertname"], IsEqual: true}.String()}
			for _, k := range keys {
				parts = append(parts, AlertmanagerMatcher{Name: k, Value: labels[k], IsEqual: true}.String())
			}
			return b.NewSilence(t, "{"+strings.Join(parts, ", ")+"}")
		}
	}
	t.Fatalf("alertmanager: the Alerts page does not show the alert %v", labels)
	return nil
}

// NewSilence opens New Silence as the page fills it: Start now, Duration 2h, End two hours
// on, the matchers of filter (a link's {name="value", ...}; "" for none), Creator and
// Comment empty.
func (b *AlertmanagerBrowser) NewSilence(t testing.TB, filter string) *AlertmanagerSilenceForm {
	t.Helper()
	now := time.Now().UTC().Truncate(time.Millisecond)
	f := &AlertmanagerSilenceForm{start: now}
	f.Start, f.End = alertmanagerTime(now), alertmanagerTime(now.Add(2*time.Hour))
	f.end, f.Duration = now.Add(2*time.Hour), "2h"
	if filter = strings.Trim(strings.TrimSpace(filter), "{}"); filter != "" {
		for _, m := range alertmanagerMatcherText.FindAllString(filter, -1) {
			f.AddMatcher(t, m)
		}
	}
	return f
}

// Edit presses Edit on a silence of the Silences page's Active tab: the Edit Silence form,
// filled from the silence.
func (b *AlertmanagerBrowser) Edit(t testing.TB, id string) *AlertmanagerSilenceForm {
	t.Helper()
	s := b.listed(t, "active", id)
	start, end := s.StartsAt.UTC().Truncate(time.Millisecond), s.EndsAt.UTC().Truncate(time.Millisecond)
	return &AlertmanagerSilenceForm{ID: s.ID, Start: alertmanagerTime(start), End: alertmanagerTime(end), start: start, end: end,
		Duration: alertmanagerDuration(end.Sub(start)), Matchers: s.Matchers, Creator: s.CreatedBy, Comment: s.Comment}
}

// Recreate presses Recreate on a silence of the Silences page's Expired tab: New Silence
// with its matchers and comment (Creator empty, as a browser that never made a silence has).
func (b *AlertmanagerBrowser) Recreate(t testing.TB, id string) *AlertmanagerSilenceForm {
	t.Helper()
	s := b.listed(t, "expired", id)
	f := b.NewSilence(t, "")
	f.Matchers, f.Comment = s.Matchers, s.Comment
	return f
}

// Expire presses Expire on a silence of the Silences page's Active tab and Confirm.
func (b *AlertmanagerBrowser) Expire(t testing.TB, id string) {
	t.Helper()
	b.listed(t, "active", id)
	b.call(t, http.MethodDelete, "api/v2/silence/"+id, nil, nil)
}

// Submit presses the form's Create (or Update) button: the page checks that there are
// matchers, a creator and a comment and that End is not before Start, and sends the silence.
// It returns the ID Alertmanager gives it.
func (b *AlertmanagerBrowser) Submit(t testing.TB, f *AlertmanagerSilenceForm) string {
	t.Helper()
	if len(f.Matchers) == 0 || strings.TrimSpace(f.Creator) == "" || strings.TrimSpace(f.Comment) == "" || f.end.Before(f.start) {
		t.Fatalf("alertmanager: the silence form does not validate: %+v", f)
	}
	body := map[string]any{"matchers": f.Matchers, "startsAt": f.Start, "endsAt": f.End,
		"createdBy": f.Creator, "comment": f.Comment, "id": nil}
	if f.ID != "" {
		body["id"] = f.ID
	}
	var made struct {
		SilenceID string `json:"silenceID"`
	}
	b.call(t, http.MethodPost, "api/v2/silences", body, &made)
	return made.SilenceID
}

// AddMatcher types a matcher (name="value", name=~"regex", ...) into Matchers and presses +.
func (f *AlertmanagerSilenceForm) AddMatcher(t testing.TB, text string) {
	t.Helper()
	m := alertmanagerMatcher.FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("alertmanager: %q is not a matcher the page takes", text)
	}
	value, err := strconv.Unquote(`"` + m[3] + `"`)
	if err != nil {
		t.Fatalf("alertmanager: %q: %v", text, err)
	}
	f.Matchers = append(f.Matchers, AlertmanagerMatcher{Name: m[1], Value: value, IsRegex: strings.Contains(m[2], "~"), IsEqual: !strings.HasPrefix(m[2], "!")})
}

// SetDuration replaces Duration (e.g. "4h", "1d"): the page moves End to Start plus it.
func (f *AlertmanagerSilenceForm) SetDuration(t testing.TB, d string) {
	t.Helper()
	total := time.Duration(0)
	terms := alertmanagerDurationTerm.FindAllStringSubmatch(d, -1)
	if len(terms) == 0 || strings.Join(strings.Fields(alertmanagerDurationTerm.ReplaceAllString(d, "")), "") != "" {
		t.Fatalf("alertmanager: %q is not a duration the page takes", d)
	}
	for _, m := range terms {
		n, _ := strconv.ParseFloat(m[1], 64)
		total += time.Duration(n * float64(alertmanagerUnits[m[2]]))
	}
	f.Duration, f.end = d, f.start.Add(total)
	f.End = alertmanagerTime(f.end)
}

var (
	alertmanagerMatcher      = regexp.MustCompile(`^\s*([a-zA-Z_][a-zA-Z0-9_]*)\s*(=~|!~|!=|=)\s*"((?:[^"\\]|\\.)*)"\s*$`)
	alertmanagerMatcherText  = regexp.MustCompile(`[a-zA-Z_][a-zA-Z0-9_]*\s*(?:=~|!~|!=|=)\s*"(?:[^"\\]|\\.)*"`)
	alertmanagerDurationTerm = regexp.MustCompile(`([0-9]+(?:\.[0-9]+)?)([wdhms])`)
	alertmanagerUnits        = map[string]time.Duration{"w": 7 * 24 * time.Hour, "d": 24 * time.Hour, "h": time.Hour, "m": time.Minute, "s": time.Second}
)

// alertmanagerTime is a time as the form shows it (ISO 8601, milliseconds, UTC).
func alertmanagerTime(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

// alertmanagerDuration is a duration as the form's Duration shows it: "4h", "1d 2h 30m".
func alertmanagerDuration(d time.Duration) string {
	var parts []string
	for _, u := range []string{"w", "d", "h", "m", "s"} {
		if n := d / alertmanagerUnits[u]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d%s", n, u))
			d -= n * alertmanagerUnits[u]
		}
	}
	return strings.Join(parts, " ")
}

// listed is the silence id as the Silences page lists it in tab; it fails the test when the
// tab does not list it.
func (b *AlertmanagerBrowser) listed(t testing.TB, tab, id string) AlertmanagerSilence {
	t.Helper()
	for _, s := range b.SilencesPage(t, tab) {
		if s.ID == id {
			return s
		}
	}
	t.Fatalf("alertmanager: the Silences page's %s tab does not list the silence %s", tab, id)
	return AlertmanagerSilence{}
}

// call sends one API request as the page's script does and decodes the answer into out
// (nil to drop it); an answer other than 200 fails the test.
func (b *AlertmanagerBrowser) call(t testing.TB, method, path string, body, out any) {
	t.Helper()
	code, answer := callJSON(t, method, b.w.URL+path, body, nil)
	if code != http.StatusOK {
		t.Fatalf("alertmanager: %s /%s answered %d: %s", method, path, code, answer)
	}
	if out != nil {
		if err := json.Unmarshal(answer, out); err != nil {
			t.Fatalf("alertmanager: %s /%s: %v", method, path, err)
		}
	}
}

// fetch gets one of the UI's files and returns it; an answer other than 200 fails the test.
func (b *AlertmanagerBrowser) fetch(t testing.TB, path string) string {
	t.Helper()
	resp, err := http.Get(b.w.URL + path)
	if err != nil {
		t.Fatalf("alertmanager: GET /%s: %v", path, err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("alertmanager: GET /%s answered %d", path, resp.StatusCode)
	}
	return string(out)
}

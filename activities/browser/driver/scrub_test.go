package driver

import (
	"strings"
	"testing"

	"github.com/webagent-dev/webagent/plan"
)

// A typed secret is taken out of a result in every form it takes on the way: as typed,
// in a query or a path, as a script encodes it, HTML- and JSON-escaped; object keys are
// left alone.
func TestScrubEveryForm(t *testing.T) {
	const secret = `p@ss w0rd&"x"/é`
	var r redactor
	r.add(secret)
	forms := secretForms(secret)
	for _, want := range []string{secret, "p%40ss+w0rd%26%22x%22%2F%C3%A9", "p@ss%20w0rd&%22x%22%2F%C3%A9", "p%40ss%20w0rd%26%22x%22%2F%C3%A9", "p@ss w0rd&amp;&#34;x&#34;/é", `p@ss w0rd&\"x\"/é`, "p%40ss+w0rd%26%22x%22%2f%c3%a9"} {
		found := false
		for _, f := range forms {
			found = found || f == want
		}
		if !found {
			t.Errorf("no form %q among %q", want, forms)
		}
	}
	// A result as the activities hand it on: feedback, a snapshot's address and key,
	// the actions and what was read.
	type snapshot struct{ URL, ScreenshotKey string }
	res := struct {
		Feedback  *plan.Feedback
		After     snapshot
		Actions   []string
		Extracted map[string]any
	}{
		Feedback:  &plan.Feedback{Details: "typed " + secret},
		After:     snapshot{URL: "http://site/search?q=" + forms[1], ScreenshotKey: "run/p%40ss/1.png"},
		Actions:   []string{"read " + forms[4]},
		Extracted: map[string]any{"v": forms[2], "list": []any{secret}, "obj": map[string]any{"k": forms[5]}},
	}
	r.scrub(&res)
	all := res.Feedback.Details + res.After.URL + strings.Join(res.Actions, "") + res.Extracted["v"].(string) +
		res.Extracted["list"].([]any)[0].(string) + res.Extracted["obj"].(map[string]any)["k"].(string)
	for _, f := range forms {
		if strings.Contains(all, f) {
			t.Errorf("form %q is still in %q", f, all)
		}
	}
	if res.After.ScreenshotKey != "run/p%40ss/1.png" {
		t.Errorf("an object key was changed: %q", res.After.ScreenshotKey)
	}
}

// A read whose value holds a typed secret, whole or in part, fails and reads nothing.
func TestReadOfASecretIsRefused(t *testing.T) {
	var r redactor
	r.add("correct horse battery staple")
	for _, v := range []string{"correct horse battery staple", "battery", "correct%20horse%20battery%20staple"} {
		out := &Outcome{OK: true, Extracted: map[string]any{"copied": v}, Actions: []string{"read " + v}}
		r.refuseRead(out)
		if out.OK || out.Extracted != nil || out.Feedback == nil || !strings.Contains(out.Feedback.Details, "secret") || strings.Contains(strings.Join(out.Actions, ""), v) {
			t.Errorf("read of %q: %+v", v, out)
		}
	}
	out := &Outcome{OK: true, Extracted: map[string]any{"v": "Apollo"}}
	r.refuseRead(out)
	if !out.OK || out.Extracted["v"] != "Apollo" {
		t.Errorf("a read without a secret was refused: %+v", out.Feedback)
	}
}

package workflows_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"go.temporal.io/sdk/testsuite"

	"github.com/webagent-dev/webagent/workflows"
)

func TestCheckAnswer(t *testing.T) {
	for _, c := range []struct {
		name, by, note string
		want           string // "" accepted, else part of the refusal
	}{
		{"plain", "ops", "looked at the page: fine", ""},
		{"note on lines", "Ana María", "first line\n\tsecond line", ""},
		{"at the caps", strings.Repeat("b", workflows.MaxByBytes), strings.Repeat("n", workflows.MaxNoteBytes), ""},
		{"no by", " ", "", `"by" is empty`},
		{"long by", strings.Repeat("b", 201), "", `"by" is 201 bytes; at most 200 are kept: shorten it`},
		{"long note", "ops", strings.Repeat("n", 5321), "the note is 5,321 bytes; at most 2,000 are kept: shorten it"},
		{"by on two lines", "ops\nadmin", "", `"by" holds a control character (U+000A at byte 3): write it on one line`},
		{"escape in note", "ops", "ok\x1b[2J", "the note holds a control character (U+001B at byte 2): only newlines and tabs are kept"},
		{"carriage return", "ops", "a\r\nb", "U+000D"},
		{"C1 control", "ops\u0085", "", "U+0085"},
		{"not UTF-8", "ops", "caf\xe9", "the note is not valid UTF-8"},
		{"by not UTF-8", "\xff", "", `"by" is not valid UTF-8`},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := workflows.CheckAnswer(c.by, c.note)
			if (c.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), c.want)) {
				t.Errorf("CheckAnswer: %v, want %q", err, c.want)
			}
		})
	}
	for _, c := range []struct{ text, want string }{
		{`click "Advanced" first`, ""},
		{"first open the menu,\nthen click \"Advanced\"", ""},
		{"", "the hint is empty"},
		{strings.Repeat("h", 2001), "the hint is 2,001 bytes; at most 2,000 are kept: shorten it"},
		{"click\x00 it", "the hint holds a control character (U+0000 at byte 5)"},
		{"\xc3\x28", "the hint is not valid UTF-8"},
	} {
		err := workflows.CheckHint(c.text)
		if (c.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), c.want)) {
			t.Errorf("CheckHint(%.20q): %v, want %q", c.text, err, c.want)
		}
	}
}

// refusedSent numbers the Updates refuse sends: an Update ID sent twice is one Update.
var refusedSent int

// refuse sends an Update the test expects the run to refuse with want in its reason; it
// counts the refusals in *n.
func refuse(t *testing.T, env *testsuite.TestWorkflowEnvironment, name string, arg any, want string, n *int) {
	t.Helper()
	refusedSent++
	env.UpdateWorkflow(name, fmt.Sprintf("%s-refused-%d", name, refusedSent), &testsuite.TestUpdateCallback{
		OnReject: func(err error) {
			*n++
			if !strings.Contains(err.Error(), want) {
				t.Errorf("the %s Update was refused for %v, want %q", name, err, want)
			}
		},
		OnAccept:   func() { t.Errorf("the %s Update was accepted: %.80v", name, arg) },
		OnComplete: func(any, error) {},
	}, arg)
}

// TestOversizedAnswersAreRefused: at every wait for a person, an answer whose "by", note
// or hint is past its cap, or holds a control character, is refused before it enters the
// history — the run goes on waiting, and nothing of it reaches the run's output — and a
// plain answer is then taken. (Text that is not UTF-8 cannot reach a validator through
// the JSON payloads, which carry it as U+FFFD: TestCheckAnswer covers it.)
func TestOversizedAnswersAreRefused(t *testing.T) {
	longBy, longNote, longHint := strings.Repeat("B", 300), strings.Repeat("N", 5321), strings.Repeat("H", 2500)
	for _, c := range waitCases() {
		t.Run(c.name, func(t *testing.T) {
			env, _, in := c.setup(t)
			// bad is the case's answer with who answers and the note (for a hint: its
			// text) given.
			name, bad := "", func(by, note string) any { return nil }
			switch c.name {
			case "approval":
				name = workflows.ApproveUpdate
				bad = func(by, note string) any { return workflows.Approval{Step: 3, Approve: true, By: by, Note: note} }
			case "doubt":
				name = workflows.ResolveUpdate
				bad = func(by, note string) any { return workflows.Resolution{Step: 3, Decision: "done", By: by, Note: note} }
			case "hint":
				name = workflows.HintUpdate
				bad = func(by, text string) any { return workflows.Hint{Text: text, By: by} }
			case "pause":
				name = workflows.ResumeUpdate
				bad = func(by, note string) any { return workflows.Control{By: by, Note: note} }
			}
			ok := "fine"
			if c.name == "hint" {
				ok = `click "New"`
			}
			long, tooLong := longNote, "the note is 5,321 bytes; at most 2,000 are kept: shorten it"
			if c.name == "hint" {
				long, tooLong = longHint, "the hint is 2,500 bytes; at most 2,000 are kept: shorten it"
			}
			refusals := 0
			env.RegisterDelayedCallback(func() {
				refuse(t, env, name, bad(longBy, ok), `"by" is 300 bytes; at most 200 are kept: shorten it`, &refusals)
				refuse(t, env, name, bad("ops", long), tooLong, &refusals)
				refuse(t, env, name, bad("ops\x1b[31m", ok), `"by" holds a control character (U+001B at byte 3)`, &refusals)
				refuse(t, env, name, bad("ops", "ok\x07"), "holds a control character (U+0007 at byte 2)", &refusals)
				sendUpdate(t, env, name, bad("ops", ok))
			}, time.Minute)
			res := execute(t, env, in)
			if refusals != 4 {
				t.Errorf("%d of the 4 bad answers were refused", refusals)
			}
			if res.Execution.Status != workflows.StatusSuccess {
				t.Errorf("status %s after the plain answer: %+v", res.Execution.Status, res.Errors)
			}
			out, _ := json.Marshal(res)
			for _, s := range []string{longBy, long[:100], "\x1b[31m"} {
				if strings.Contains(string(out), s) {
					t.Errorf("a refused answer reached the run's output: %.40q", s)
				}
			}
		})
	}
}

package browser

import (
	"slices"
	"strings"
	"testing"

	"github.com/webagent-dev/webagent/activities"
	"github.com/webagent-dev/webagent/activities/page"
)

func TestPastForms(t *testing.T) {
	for verb, want := range map[string][]string{
		"Stop": {"stopped", "stoped"}, "delete": {"deleted"}, "apply": {"applied"}, "ban": {"banned", "baned"},
		"send": {"sent"}, "remove": {"removed"}, "undeploy": {"undeployed"}, "add": {"added"},
		"open": nil, "edit": nil, "view": nil, "ok": nil, "log": nil, "e-mail": nil, "x": nil,
	} {
		if got := pastForms(verb); !slices.Equal(got, want) {
			t.Errorf("pastForms(%q) = %q, want %q", verb, got, want)
		}
	}
}

func TestSaysDone(t *testing.T) {
	stop := activities.DoneAsk{Verb: "Stop", Names: []string{"/inventory", "Applications"}}
	for _, tt := range []struct {
		name, final, before string
		ask                 activities.DoneAsk
		want                string
	}{
		{"the page names it", "Message:\tOK - Stopped application at context path [/inventory]\nPath", "Message:\tOK\nPath", stop,
			"Message: OK - Stopped application at context path [/inventory]"},
		{"it failed", "FAIL - Application at context path [/inventory] could not be stopped", "", stop, ""},
		{"an error", "Error: stopped /inventory", "", stop, ""},
		{"a question", "Stopped /inventory?", "", stop, ""},
		{"it was there before", "Yesterday: stopped /inventory", "Yesterday: stopped /inventory\nOK", stop, ""},
		{"no name", "OK - Stopped", "", stop, ""},
		{"a name inside a word", "Stopped /inventory2", "", stop, ""},
		{"another verb", "Deleted /inventory", "", stop, ""},
		{"a long paragraph", "Stopped /inventory " + strings.Repeat("and more words ", 15), "", stop, ""},
		{"a toast", "User guest deleted", "Users", activities.DoneAsk{Verb: "Delete", Names: []string{"guest"}}, "User guest deleted"},
		{"a quiet verb", "Opened /inventory", "", activities.DoneAsk{Verb: "Open", Names: []string{"/inventory"}}, ""},
	} {
		if got := saysDone(tt.final, tt.before, tt.ask); got != tt.want {
			t.Errorf("%s: saysDone = %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestListWithout(t *testing.T) {
	list := "Books\nGardening for Small Spaces\nGardening Through the Seasons\nWinter Crossing\nA Short History of Tunnels"
	for _, tt := range []struct {
		name, final string
		want        bool
	}{
		{"without it", "Books\nGardening Through the Seasons\nWinter Crossing\nA Short History of Tunnels", true},
		{"still there", list, false},
		{"another page", "Welcome\n4 books", false},
		{"in a longer name", "Books\nGardening for Small Spaces, 2nd edition\nGardening Through the Seasons\nWinter Crossing", false},
	} {
		lines := func(s string) (out []string) {
			for _, l := range strings.Split(s, "\n") {
				out = append(out, page.NormalizeText(l))
			}
			return out
		}
		if got := listWithout(lines(tt.final), lines(list), "Gardening for Small Spaces"); got != tt.want {
			t.Errorf("%s: listWithout = %v, want %v", tt.name, got, tt.want)
		}
	}
	if !sameAddress("http://h/x/?view=list", "http://h/x?view=list") || sameAddress("http://h/x?view=home", "http://h/x?view=list") || sameAddress("", "") {
		t.Error("sameAddress")
	}
}

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
		// (The line was taken before: the end mark was trimmed before the check.)
		{"a question asked", "Have you started report-weekly?", "", activities.DoneAsk{Verb: "Start", Names: []string{"report-weekly"}}, ""},
		{"it was there before", "Yesterday: stopped /inventory", "Yesterday: stopped /inventory\nOK", stop, ""},
		{"no name", "OK - Stopped", "", stop, ""},
		{"a name inside a word", "Stopped /inventory2", "", stop, ""},
		{"another verb", "Deleted /inventory", "", stop, ""},
		{"a long paragraph", "Stopped /inventory " + strings.Repeat("and more words ", 15), "", stop, ""},
		{"a toast", "User guest deleted", "Users", activities.DoneAsk{Verb: "Delete", Names: []string{"guest"}}, "User guest deleted"},
		{"a quiet verb", "Opened /inventory", "", activities.DoneAsk{Verb: "Open", Names: []string{"/inventory"}}, ""},
		{"a row that said so before", "/inventory\tstopped\t0 sessions", "/inventory\tstopped\t2 sessions", stop, ""},
		{"a row that said the opposite", "/inventory\tstopped", "/inventory\tnot stopped", stop, "/inventory stopped"},
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
	// An app's root route ("#/") is its root; another route is another page.
	if !sameAddress("http://h/", "http://h/#/") || sameAddress("http://h/", "http://h/#/email/m24") {
		t.Error("sameAddress, routes")
	}
}

func TestRowState(t *testing.T) {
	before := "Programs\nstopped\treport-weekly\tNot started\tStart\nstopped\treport-weekly-2\tNot started\tStart\nrunning\tapi-gateway\tpid 12, uptime 0:10:02\tStop"
	start := activities.DoneAsk{Verb: "Start", Item: "report-weekly"}
	for _, tt := range []struct {
		name, final, before string
		ask                 activities.DoneAsk
		want                string
	}{
		{"its row says running", strings.Replace(before, "stopped\treport-weekly\tNot started", "running\treport-weekly\tpid 40, uptime 0:00:01", 1), before, start,
			"running report-weekly pid 40, uptime 0:00:01 Start"},
		{"the near miss started", strings.Replace(before, "stopped\treport-weekly-2\tNot started", "running\treport-weekly-2\tpid 40", 1), before, start, ""},
		{"unchanged", before, before, start, ""},
		{"it said so before", "running\treport-weekly\tpid 41", "running\treport-weekly\tpid 40", start, ""},
		{"a failure", "report-weekly\tfailed, not running", before, start, ""},
		{"not on the page before", "running\treport-weekly", "Programs", start, ""},
		{"on two lines", "running\treport-weekly\nreport-weekly: log", before, start, ""},
		{"a name every row repeats", "web-1\tstopped\tEdit\nweb-2\trunning\tEdit", "web-1\trunning\tEdit\nweb-2\trunning\tEdit", activities.DoneAsk{Verb: "Stop", Item: "Edit"}, ""},
		{"the past form", "family-recipes\tStopped\t0 B/s", "family-recipes\tSeeding\t12 kB/s", activities.DoneAsk{Verb: "Stop", Item: "family-recipes"}, "family-recipes Stopped 0 B/s"},
		{"inside another word", "family-recipes\tstopped-early.log", "family-recipes\tSeeding", activities.DoneAsk{Verb: "Stop", Item: "family-recipes"}, ""},
		{"a quiet verb", "report-weekly\topened", "report-weekly", activities.DoneAsk{Verb: "Open", Item: "report-weekly"}, ""},
		{"inactive is not active", "alice\tinactive", "alice\tpending", activities.DoneAsk{Verb: "Activate", Item: "alice"}, ""},
	} {
		if got := rowState(tt.final, tt.before, tt.ask); got != tt.want {
			t.Errorf("%s: rowState = %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestHasName(t *testing.T) {
	for _, tt := range []struct {
		l, n string
		want bool
	}{
		{"process report-weekly started", "report-weekly", true},
		{"process report-weekly-2 started", "report-weekly", false},
		{"billing:invoice-sync stopped.", "billing:invoice-sync", true},
		{"stopped billing:invoice-sync", "invoice-sync", false},
		{"deleted lists@example.org.", "lists@example.org", true},
		{"state: running", "running", true},
		{"running.log", "running", false},
	} {
		if got := hasName(tt.l, tt.n); got != tt.want {
			t.Errorf("hasName(%q, %q) = %v, want %v", tt.l, tt.n, got, tt.want)
		}
	}
}

func TestSaysStored(t *testing.T) {
	before := []string{page.NormalizeText("Site Settings\nLast saved 2 days ago")}
	for _, tt := range []struct {
		name, final, verb, want string
	}{
		{"a toast", "Site Settings\nSettings saved", "Save", "Settings saved"},
		{"another word of storing", "Site Settings\nYour changes were applied", "Save", "Your changes were applied"},
		{"a failure", "Site Settings\nSettings could not be saved", "Save", ""},
		{"there before", "Site Settings\nLast saved 2 days ago", "Save", ""},
		{"a question", "Site Settings\nSave the changes you applied?", "Save", ""},
		{"after Publish", "Entry saved", "Publish", "Entry saved"},
		{"a draft after Publish", "Draft saved", "Publish", ""},
		{"published", "Entry published", "Publish", "Entry published"},
		{"a long paragraph", "Saved " + strings.Repeat("more words here ", 10), "Save", ""},
	} {
		if got := saysStored(tt.final, before, tt.verb); got != tt.want {
			t.Errorf("%s: saysStored = %q, want %q", tt.name, got, tt.want)
		}
	}
	if !allInFields([]string{"Green Thumb Journal"}, []string{"x", "Green  Thumb Journal "}) || allInFields([]string{"Green Thumb"}, []string{"Green Thumb Journal"}) {
		t.Error("allInFields")
	}
}

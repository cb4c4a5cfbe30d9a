package browser

import (
	"slices"
	"testing"

	"github.com/webagent-dev/webagent/activities"
	"github.com/webagent-dev/webagent/activities/page"
)

func TestOppositeNames(t *testing.T) {
	for name, want := range map[string]string{
		"Disable monitoring":  "enable monitoring",
		"Pause":               "resume",
		"Unlock account":      "lock account",
		"Publish":             "unpublish",
		"Mark as read":        "mark as unread",
		"Add to favorites":    "remove from favorites",
		"Turn on alerts":      "turn off alerts",
		"Close issue":         "reopen issue",
		"Remove from cart":    "add to cart",
		"Subscribe to thread": "unsubscribe to thread",
	} {
		if got := oppositeNames(name); !slices.Contains(got, want) {
			t.Errorf("oppositeNames(%q) = %q, want %q among them", name, got, want)
		}
	}
	for _, name := range []string{"Show details", "Open", "Expand all", "Edit"} {
		if got := oppositeNames(name); len(got) != 0 {
			t.Errorf("oppositeNames(%q) = %q, want none (a verb that only looks)", name, got)
		}
	}
}

func TestFlipped(t *testing.T) {
	obs := func(url string, names ...string) page.Observation {
		o := page.Observation{URL: url}
		for _, n := range names {
			o.Elements = append(o.Elements, page.Element{Role: "button", Name: n})
		}
		return o
	}
	ask := activities.DoneAsk{Verb: "disable", Clicked: "Disable monitoring", Item: "search-indexer"}
	const u = "http://monit.test/search-indexer"
	seen := "Name search-indexer\nStatus Not monitored"
	for _, tt := range []struct {
		name          string
		before, final page.Observation
		seen          string
		want          bool
	}{
		{"flipped", obs(u, "Disable monitoring"), obs(u, "Enable monitoring"), seen, true},
		{"unchanged", obs(u, "Disable monitoring"), obs(u, "Disable monitoring"), seen, false},
		{"both before", obs(u, "Disable monitoring", "Enable monitoring"), obs(u, "Enable monitoring"), seen, false},
		{"both after", obs(u, "Disable monitoring"), obs(u, "Enable monitoring", "Disable monitoring"), seen, false},
		{"another page", obs(u, "Disable monitoring"), obs(u+"-2", "Enable monitoring"), seen, false},
		{"the item gone", obs(u, "Disable monitoring"), obs(u, "Enable monitoring"), "Status Not monitored", false},
	} {
		if got := flipped(tt.before, tt.final, tt.seen, ask) != ""; got != tt.want {
			t.Errorf("%s: flipped = %v, want %v", tt.name, got, tt.want)
		}
	}
}

//go:build heldout

package e2e

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// amGoal is an everyday goal on Alertmanager's web UI, written three ways as a person writes
// it from what the pages show (there is no login: each starts at the front page, the Alerts
// page); done reads the silences and alerts through the v2 API and says "" when the goal's
// effect is there and nothing else changed, else what it found; do makes the effect through
// the UI's own pages along the goal's path, and miss a near miss the judge must not take for
// it (another silence or alert, a neighbouring value).
type amGoal struct {
	name      string
	phrasings [3]string
	done      func(t testing.TB, w *testenv.Alertmanager) string
	do, miss  func(t testing.TB, w *testenv.Alertmanager, b *testenv.AlertmanagerBrowser)
}

const (
	amDiskComment     = "Cleaning up old backups on db-01"
	amLoadComment     = "Load test running on web-02"
	amRolloutComment  = "Autoscaling rollout on the web tier"
	amBlackboxComment = "Certificate renewal moved to Friday"
)

var amGoals = []amGoal{
	{
		name: "create a silence for DiskSpaceLow",
		phrasings: [3]string{
			`click "New Silence", type alertname="DiskSpaceLow" into the "Matchers" field and press Enter, type "maria" into "Creator", type "Cleaning up old backups on db-01" into "Comment", then click "Create"`,
			`Open New Silence and add the matcher alertname="DiskSpaceLow" (type it into Matchers, then press +). Fill Creator with maria and Comment with Cleaning up old backups on db-01, then press Create`,
			`Create a new silence: click the New Silence button, enter alertname="DiskSpaceLow" in the field labelled "Matchers" and click the "+" button next to it. Put "maria" in the Creator field and "Cleaning up old backups on db-01" in the Comment field. Click Create and check that the page shows "DiskSpaceLow".`,
		},
		done: func(t testing.TB, w *testenv.Alertmanager) string {
			return amAdded(w, `alertname="DiskSpaceLow"`, "maria", amDiskComment, nil)
		},
		do: func(t testing.TB, w *testenv.Alertmanager, b *testenv.AlertmanagerBrowser) {
			amNew(t, b, "", "maria", amDiskComment, `alertname="DiskSpaceLow"`)
		},
		miss: func(t testing.TB, w *testenv.Alertmanager, b *testenv.AlertmanagerBrowser) {
			amNew(t, b, "", "maria", amDiskComment, `instance="db-01:9100"`)
		},
	},
	{
		name: "silence one alert from the Alerts page",
		phrasings: [3]string{
			`click "Expand all groups", click "Silence" on the alert with instance="web-02:9100", type "sam" into "Creator", type "Load test running on web-02" into "Comment", click "Create"`,
			`expand the HighCPUUsage group and press Silence next to the web-02:9100 alert; then fill Creator with sam and Comment with Load test running on web-02 and press Create`,
			`Silence the CPU alert of web-02 from the Alerts page. Click "Expand all groups", then in the HighCPUUsage group click the "Silence" link of the alert whose instance is web-02:9100. Enter "sam" in the field labelled "Creator" and "Load test running on web-02" in the field labelled "Comment", and click Create.`,
		},
		done: func(t testing.TB, w *testenv.Alertmanager) string {
			return amAdded(w, amLabels(testenv.AlertmanagerSeedAlerts[1]), "sam", amLoadComment, nil)
		},
		do:   func(t testing.TB, w *testenv.Alertmanager, b *testenv.AlertmanagerBrowser) { amSilenceAlert(t, b, 1) },
		miss: func(t testing.TB, w *testenv.Alertmanager, b *testenv.AlertmanagerBrowser) { amSilenceAlert(t, b, 0) },
	},
	{
		name: "silence CPU alerts on the web servers for 4h",
		phrasings: [3]string{
			`click "New Silence", type "4h" into "Duration", type alertname="HighCPUUsage" into "Matchers" and press Enter, type instance=~"web-.*" into "Matchers" and press Enter, type "sam" into "Creator", type "Autoscaling rollout on the web tier" into "Comment", click "Create"`,
			`Open New Silence, set Duration to 4h, add the matchers alertname="HighCPUUsage" and instance=~"web-.*" (type each into Matchers and press +), fill Creator with sam and Comment with Autoscaling rollout on the web tier, then press Create`,
			`Click the New Silence button. Replace the Duration with "4h". In the field labelled "Matchers", add alertname="HighCPUUsage" and then instance=~"web-.*", pressing Enter after each. Write "sam" in the Creator field and "Autoscaling rollout on the web tier" in the Comment field, then click "Create".`,
		},
		done: func(t testing.TB, w *testenv.Alertmanager) string {
			return amAdded(w, `alertname="HighCPUUsage", instance=~"web-.*"`, "sam", amRolloutComment, func(s testenv.AlertmanagerSilence) string {
				// The form's Start is when the page opened; Alertmanager starts it when it is made.
				if d := s.EndsAt.Sub(s.StartsAt); d < 4*time.Hour-15*time.Minute || d > 4*time.Hour+time.Minute {
					return fmt.Sprintf("it lasts %s, not 4h", d.Round(time.Second))
				}
				return ""
			})
		},
		do: func(t testing.TB, w *testenv.Alertmanager, b *testenv.AlertmanagerBrowser) {
			amNew(t, b, "4h", "sam", amRolloutComment, `alertname="HighCPUUsage"`, `instance=~"web-.*"`)
		},
		miss: func(t testing.TB, w *testenv.Alertmanager, b *testenv.AlertmanagerBrowser) {
			// The Duration left at its 2h.
			amNew(t, b, "", "sam", amRolloutComment, `alertname="HighCPUUsage"`, `instance=~"web-.*"`)
		},
	},
	{
		name: "change the comment of a silence",
		phrasings: [3]string{
			`click "Silences", click "Edit" on the silence job=blackbox, type "Certificate renewal moved to Friday" into "Comment", click "Update"`,
			`Go to Silences, press Edit next to the job=blackbox silence, replace the Comment with Certificate renewal moved to Friday and press Update`,
			`Open the Silences tab and click Edit for the silence with the matcher job=blackbox. Replace what is in the field labelled "Comment" with "Certificate renewal moved to Friday", then click the Update button and check that the page shows "Certificate renewal moved to Friday".`,
		},
		done: func(t testing.TB, w *testenv.Alertmanager) string {
			return amEdited(w, "blackbox", func(seed, s testenv.AlertmanagerSilence) string {
				return amSameBut(seed, s, amBlackboxComment, seed.EndsAt)
			})
		},
		do: func(t testing.TB, w *testenv.Alertmanager, b *testenv.AlertmanagerBrowser) {
			amEdit(t, w, b, "blackbox", "", amBlackboxComment)
		},
		miss: func(t testing.TB, w *testenv.Alertmanager, b *testenv.AlertmanagerBrowser) {
			amEdit(t, w, b, "blackbox", "", "Certificate renewal moved to Monday")
		},
	},
	{
		name: "extend a silence to one day",
		phrasings: [3]string{
			`click "Silences", click "Edit" on the silence alertname=InstanceDown, type "1d" into "Duration", click "Update"`,
			`Go to Silences, press Edit next to the alertname=InstanceDown silence, change Duration to 1d and press Update`,
			`Extend the silence for InstanceDown on cache-01 to one day: open Silences, click Edit for the silence whose matchers are alertname=InstanceDown and instance=cache-01:9121, replace the Duration with "1d" and click the "Update" button.`,
		},
		done: func(t testing.TB, w *testenv.Alertmanager) string {
			return amEdited(w, "redis", func(seed, s testenv.AlertmanagerSilence) string {
				// A day from when the silence started (an End typed to the minute will do).
				if want := seed.StartsAt.Add(24 * time.Hour); s.EndsAt.Sub(want).Abs() > 2*time.Minute {
					return fmt.Sprintf("it ends %s, not a day after it started (%s)", s.EndsAt.UTC().Format(time.RFC3339), want.UTC().Format(time.RFC3339))
				}
				return amSameBut(seed, s, seed.Comment, s.EndsAt)
			})
		},
		do: func(t testing.TB, w *testenv.Alertmanager, b *testenv.AlertmanagerBrowser) {
			amEdit(t, w, b, "redis", "1d", "")
		},
		miss: func(t testing.TB, w *testenv.Alertmanager, b *testenv.AlertmanagerBrowser) {
			amEdit(t, w, b, "redis", "12h", "")
		},
	},
	{
		name: "expire a silence",
		phrasings: [3]string{
			`click "Silences", click "Expire" on the silence alertname=InstanceDown, click "Confirm"`,
			`Go to Silences, press Expire next to the alertname=InstanceDown silence and confirm`,
			`Open Silences. The Redis upgrade is finished, so expire the silence with the matcher alertname=InstanceDown: click its "Expire" button, then click Confirm in the dialog.`,
		},
		done: func(t testing.TB, w *testenv.Alertmanager) string { return amExpiredOnly(w, "redis") },
		do: func(t testing.TB, w *testenv.Alertmanager, b *testenv.AlertmanagerBrowser) {
			b.Open(t)
			b.Expire(t, w.SeedID("redis"))
		},
		miss: func(t testing.TB, w *testenv.Alertmanager, b *testenv.AlertmanagerBrowser) {
			b.Open(t)
			b.Expire(t, w.SeedID("blackbox"))
		},
	},
	{
		name: "recreate an expired silence",
		phrasings: [3]string{
			`click "Silences", click "Expired", click "Recreate" on the silence team=database, type "priya" into "Creator", click "Create"`,
			`Go to Silences, open the Expired tab, press Recreate next to the team=database silence, fill Creator with priya and press Create`,
			`Open the Silences page and switch to the "Expired" tab. Click Recreate for the silence with the matcher team=database, enter "priya" in the field labelled "Creator" (leave the comment as it is) and click the Create button.`,
		},
		done: func(t testing.TB, w *testenv.Alertmanager) string {
			return amAdded(w, `team="database"`, "priya", "Database failover drill", nil)
		},
		do: func(t testing.TB, w *testenv.Alertmanager, b *testenv.AlertmanagerBrowser) {
			amRecreate(t, w, b, "drill")
		},
		miss: func(t testing.TB, w *testenv.Alertmanager, b *testenv.AlertmanagerBrowser) {
			amRecreate(t, w, b, "patching")
		},
	},
}

// amRead reads the silences by ID (and those the seed did not have, in the order the API
// gives them), and says what is wrong when the alerts are no longer the seed's.
func amRead(w *testenv.Alertmanager) (map[string]testenv.AlertmanagerSilence, []testenv.AlertmanagerSilence, string) {
	all, err := w.Silences()
	if err != nil {
		return nil, nil, err.Error()
	}
	alerts, err := w.Alerts()
	if err != nil {
		return nil, nil, err.Error()
	}
	var have, want []string
	for _, a := range alerts {
		have = append(have, amLabels(a.Labels))
	}
	for _, l := range testenv.AlertmanagerSeedAlerts {
		want = append(want, amLabels(l))
	}
	slices.Sort(have)
	slices.Sort(want)
	if !slices.Equal(have, want) {
		return nil, nil, fmt.Sprintf("the alerts are %q, not the seed's %q", have, want)
	}
	seed := map[string]bool{}
	for _, s := range w.Seed() {
		seed[s.ID] = true
	}
	got, added := map[string]testenv.AlertmanagerSilence{}, []testenv.AlertmanagerSilence(nil)
	for _, s := range all {
		got[s.ID] = s
		if !seed[s.ID] {
			added = append(added, s)
		}
	}
	return got, added, ""
}

// amUnchanged says how the seed's silences other than except differ from what got holds
// ("" when they do not).
func amUnchanged(w *testenv.Alertmanager, got map[string]testenv.AlertmanagerSilence, except string) string {
	var out []string
	for _, s := range w.Seed() {
		g, ok := got[s.ID]
		switch {
		case s.ID == except:
		case !ok:
			out = append(out, "the silence "+s.MatchersText()+" is gone")
		case g.MatchersText() != s.MatchersText() || g.CreatedBy != s.CreatedBy || g.Comment != s.Comment ||
			g.Status.State != s.Status.State || !g.StartsAt.Equal(s.StartsAt) || !g.EndsAt.Equal(s.EndsAt):
			out = append(out, fmt.Sprintf("the silence %s changed: %+v", s.MatchersText(), g))
		}
	}
	return strings.Join(out, "; ")
}

// amAdded says whether there is one new silence, active, with exactly these matchers (as
// MatchersText writes them), creator and comment and passing check (nil for none), and the
// seed's silences are as they were.
func amAdded(w *testenv.Alertmanager, matchers, creator, comment string, check func(testenv.AlertmanagerSilence) string) string {
	got, added, why := amRead(w)
	switch {
	case why != "":
		return why
	case len(added) == 0:
		return "no new silence"
	case len(added) > 1:
		return fmt.Sprintf("%d new silences: %+v", len(added), added)
	}
	s := added[0]
	switch {
	case s.MatchersText() != matchers:
		return fmt.Sprintf("the new silence's matchers are %s, not %s", s.MatchersText(), matchers)
	case strings.TrimSpace(s.CreatedBy) != creator:
		return fmt.Sprintf("the new silence's creator is %q, not %q", s.CreatedBy, creator)
	case strings.TrimSpace(s.Comment) != comment:
		return fmt.Sprintf("the new silence's comment is %q, not %q", s.Comment, comment)
	case s.Status.State != "active":
		return "the new silence is " + s.Status.State
	}
	if check != nil {
		if why := check(s); why != "" {
			return "the new silence: " + why
		}
	}
	return amUnchanged(w, got, "")
}

// amEdited says whether the seed's silence key was edited so that check passes (given the
// seed's silence and the edited one) and nothing else changed. Alertmanager updates a
// silence in place when it can, else expires it and makes its replacement: either will do.
func amEdited(w *testenv.Alertmanager, key string, check func(seed, s testenv.AlertmanagerSilence) string) string {
	got, added, why := amRead(w)
	if why != "" {
		return why
	}
	id := w.SeedID(key)
	var seed, edited testenv.AlertmanagerSilence
	for _, s := range w.Seed() {
		if s.ID == id {
			seed = s
		}
	}
	switch cur := got[id]; {
	case cur.Status.State == "active" && len(added) == 0:
		edited = cur
	case cur.Status.State == "expired" && len(added) == 1 && added[0].Status.State == "active":
		edited = added[0]
	default:
		return fmt.Sprintf("the silence %s is %q and %d new silences were made", seed.MatchersText(), cur.Status.State, len(added))
	}
	if why := check(seed, edited); why != "" {
		return "the silence " + seed.MatchersText() + ": " + why
	}
	return amUnchanged(w, got, id)
}

// amSameBut says whether s is seed, active, with comment and ending at endsAt (to the second).
func amSameBut(seed, s testenv.AlertmanagerSilence, comment string, endsAt time.Time) string {
	switch {
	case s.MatchersText() != seed.MatchersText():
		return "its matchers are now " + s.MatchersText()
	case s.CreatedBy != seed.CreatedBy:
		return fmt.Sprintf("its creator is now %q", s.CreatedBy)
	case strings.TrimSpace(s.Comment) != comment:
		return fmt.Sprintf("its comment is %q, not %q", s.Comment, comment)
	case s.EndsAt.Sub(endsAt).Abs() > time.Second:
		return "it ends " + s.EndsAt.UTC().Format(time.RFC3339) + ", not " + endsAt.UTC().Format(time.RFC3339)
	case s.Status.State != "active":
		return "it is " + s.Status.State
	}
	return ""
}

// amExpiredOnly says whether the seed's silence key is expired, no silence was made and
// the others are as they were.
func amExpiredOnly(w *testenv.Alertmanager, key string) string {
	got, added, why := amRead(w)
	switch s := got[w.SeedID(key)]; {
	case why != "":
		return why
	case s.Status.State != "expired":
		return fmt.Sprintf("the silence %s is %q", s.MatchersText(), s.Status.State)
	case len(added) > 0:
		return fmt.Sprintf("%d new silences: %+v", len(added), added)
	}
	return amUnchanged(w, got, w.SeedID(key))
}

// amLabels is a label set written as a silence's matchers are (MatchersText).
func amLabels(labels map[string]string) string {
	var s testenv.AlertmanagerSilence
	for k, v := range labels {
		s.Matchers = append(s.Matchers, testenv.AlertmanagerMatcher{Name: k, Value: v, IsEqual: true})
	}
	return s.MatchersText()
}

// amNew opens the UI, clicks New Silence, replaces the Duration (unless ""), adds the
// matchers, fills Creator and Comment and clicks Create.
func amNew(t testing.TB, b *testenv.AlertmanagerBrowser, duration, creator, comment string, matchers ...string) {
	t.Helper()
	b.Open(t)
	f := b.NewSilence(t, "")
	if duration != "" {
		f.SetDuration(t, duration)
	}
	for _, m := range matchers {
		f.AddMatcher(t, m)
	}
	f.Creator, f.Comment = creator, comment
	b.Submit(t, f)
}

// amSilenceAlert presses Silence on the seed's i-th alert on the Alerts page, fills Creator
// and Comment and clicks Create.
func amSilenceAlert(t testing.TB, b *testenv.AlertmanagerBrowser, i int) {
	t.Helper()
	b.Open(t)
	f := b.SilenceAlert(t, testenv.AlertmanagerSeedAlerts[i])
	f.Creator, f.Comment = "sam", amLoadComment
	b.Submit(t, f)
}

// amEdit presses Edit on the seed's silence key, replaces the Duration and the Comment
// (each unless "") and clicks Update.
func amEdit(t testing.TB, w *testenv.Alertmanager, b *testenv.AlertmanagerBrowser, key, duration, comment string) {
	t.Helper()
	b.Open(t)
	f := b.Edit(t, w.SeedID(key))
	if duration != "" {
		f.SetDuration(t, duration)
	}
	if comment != "" {
		f.Comment = comment
	}
	b.Submit(t, f)
}

// amRecreate presses Recreate on the seed's expired silence key, fills Creator and clicks
// Create.
func amRecreate(t testing.TB, w *testenv.Alertmanager, b *testenv.AlertmanagerBrowser, key string) {
	t.Helper()
	b.Open(t)
	f := b.Recreate(t, w.SeedID(key))
	f.Creator = "priya"
	b.Submit(t, f)
}

// amChanged says "" once the silences differ from the seed's.
func amChanged(w *testenv.Alertmanager) string {
	got, added, why := amRead(w)
	if why != "" {
		return why
	}
	if len(added) == 0 && amUnchanged(w, got, "") == "" {
		return "the silences are still the seed's"
	}
	return ""
}

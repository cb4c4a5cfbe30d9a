//go:build heldout

package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// The held-out check on Orthanc Explorer: its tests build only with -tags heldout, and
// TestHeldOutOrthanc is run once, at the end, against an agent nobody tuned to Orthanc.
// TestHeldOutOrthancJudge checks the harness alone, with no agent.

// TestHeldOutOrthanc drives Debian's Orthanc — a real application nobody here wrote: a
// lightweight DICOM server for medical images whose own web interface, Orthanc Explorer,
// lists patients, their studies, series and instances, and deletes, protects and
// anonymizes them — with everyday goals written three ways each, and no model. Each
// phrasing runs on a fresh instance (its own configuration, storage and index in a
// temporary folder, seeded with a small clinic's patients through Orthanc's REST API),
// starts at Orthanc Explorer, and is judged twice: by the run's status and by Orthanc's
// index, read through its REST API. Orthanc's accounts are HTTP Basic only, so its
// instances have no sign-in (see testenv.Orthanc) and the worker is granted no secret.
// go test -tags heldout -run 'TestHeldOutOrthanc$' ./e2e/
func TestHeldOutOrthanc(t *testing.T) {
	if !testenv.OrthancInstalled() {
		t.Skip("Orthanc is not installed: run `deploy/setup.sh heldout`")
	}
	s := newStack(t)
	s.poolWorker(t)
	names, phrasings := make([]string, len(orthancGoals)), make([][]string, len(orthancGoals))
	for g, goal := range orthancGoals {
		names[g], phrasings[g] = goal.name, goal.phrasings[:]
	}
	rows := poolEach(t, names, phrasings, func(t *testing.T, g, i int, p string) poolRow {
		w := testenv.StartOrthanc(t)
		return poolRun(t, s, names[g], i+1, p, w.URL, "Orthanc's index (its REST API)",
			func() string { return orthancGoals[g].done(t, w) })
	})
	poolReport(t, rows)
}

// TestHeldOutOrthancJudge validates the harness without the agent: on a fresh instance
// Orthanc Explorer's pages, buttons and dialogs the goals use, and the patients, studies,
// series and instances they name, are there and every judge says "not done"; each goal's
// effect, made through the explorer's own requests (those its dialogs and switch send),
// makes its judge say "done" and leaves the other judges at "not done"; a near miss of
// each changes the index but leaves its judge at "not done"; and each phrasing reads as
// a whole goal.
// go test -tags heldout -run 'TestHeldOutOrthancJudge$' ./e2e/
func TestHeldOutOrthancJudge(t *testing.T) {
	if !testenv.OrthancInstalled() {
		t.Skip("Orthanc is not installed: run `deploy/setup.sh heldout`")
	}
	began := time.Now()
	fresh := testenv.StartOrthanc(t)
	t.Logf("a fresh Orthanc was started and seeded in %s", time.Since(began).Round(time.Millisecond))
	orthancCheckFresh(t, fresh)
	for _, g := range orthancGoals {
		why := g.done(t, fresh)
		t.Logf("%s, fresh: %s", g.name, why)
		if why == "" {
			t.Errorf("%s: the judge says done on a fresh instance", g.name)
		}
		for i, p := range g.phrasings {
			if strings.ContainsAny(p, "{}") || len(strings.Fields(p)) < 8 {
				t.Errorf("%s, phrasing %d, does not read as a whole goal: %s", g.name, i+1, p)
			}
		}
	}
	for _, g := range orthancGoals {
		t.Run(g.name, func(t *testing.T) {
			w := testenv.StartOrthanc(t)
			g.do(t, w.Browser())
			if why := testenv.Eventually(5*time.Second, func() string { return g.done(t, w) }); why != "" {
				t.Errorf("after the goal's effect the judge says: %s", why)
			}
			for _, o := range orthancGoals {
				if o.name != g.name && o.done(t, w) == "" {
					t.Errorf("the effect of %q makes the judge of %q say done", g.name, o.name)
				}
			}
		})
		t.Run(g.name+", a near miss", func(t *testing.T) {
			w := testenv.StartOrthanc(t)
			g.miss(t, w.Browser())
			if w.Differs(t, w.Seed()) == "" {
				t.Fatalf("the near miss changed nothing in Orthanc's index")
			}
			why := g.done(t, w)
			t.Logf("the judge says: %s", why)
			if why == "" {
				t.Errorf("the judge takes a near miss for the goal done")
			}
		})
	}
}

// orthancCheckFresh checks what the goals rely on: Orthanc Explorer's page with its
// lookup page's "All patients", the patient's, study's, series' and instance's pages with
// their Delete and Anonymize links and the protection switch, the script that asks again
// in a dialog with OK, the libraries it loads, each seed patient in the list All patients
// loads, the dates as the explorer writes them in the phrasings, and the index as seeded
// (browsing changes none of it).
func orthancCheckFresh(t *testing.T, w *testenv.Orthanc) {
	b := w.Browser()
	page := b.Open(t, "/app/explorer.html")
	for _, want := range []string{">All patients<", ">Delete this patient<", ">Delete this study<", ">Delete this series<",
		">Delete this instance<", `id="patient-anonymize">Anonymize<`, `id="study-anonymize">Anonymize<`,
		`<option value="off">Unprotected</option>`, `<option value="on">Protected</option>`} {
		if !strings.Contains(page, want) {
			t.Errorf("Orthanc Explorer's page lacks %s", want)
		}
	}
	script := b.Open(t, "/app/explorer.js")
	for _, want := range []string{"'Delete this study?'", "'Delete this patient?'", "'Anonymize this study?'", "'OK'",
		"/protected", "'dddd, MMMM d, yyyy'", "'Instance: '"} {
		if !strings.Contains(script, want) {
			t.Errorf("Orthanc Explorer's script lacks %s", want)
		}
	}
	for _, asset := range []string{"/app/libs/jquery.min.js", "/app/libs/jquery.mobile.min.js", "/app/libs/date.js",
		"/app/libs/jquery.mobile.simpledialog2.js", "/app/libs/jqm.page.params.js"} {
		if len(b.Open(t, asset)) < 500 {
			t.Errorf("%s, which the page loads, is missing or empty", asset)
		}
	}
	for _, p := range testenv.OrthancSeed {
		b.Patient(t, p.Name)
	}
	for date, shown := range map[string]string{"20250114": "Tuesday, January 14, 2025", "20250602": "Monday, June 2, 2025"} {
		d, err := time.Parse("20060102", date)
		if err != nil || d.Format("Monday, January 2, 2006") != shown {
			t.Errorf("the phrasings write %s as %q, the explorer as %q", date, shown, d.Format("Monday, January 2, 2006"))
		}
	}
	orthancAnnaAxial(t, b, 3)
	if why := w.Differs(t, w.Seed()); why != "" {
		t.Errorf("the fresh instance differs from its seed: %s", why)
	}
	if why := w.Seed().Diff(testenv.OrthancSeedState()); why != "" {
		t.Errorf("the seed is not OrthancSeed: %s", why)
	}
}

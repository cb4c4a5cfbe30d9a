//go:build heldout

package e2e

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// The held-out check on CUPS's own web interface: its tests build only with -tags heldout,
// and TestHeldOutCups is run once, at the end, against an agent nobody tuned to CUPS.
// TestHeldOutCupsJudge checks the harness alone, with no agent.

// TestHeldOutCups drives Debian's CUPS 2.4 — a real application nobody here wrote: the
// printing system's web interface, the admin pages people add, change and delete printers
// and classes on, set a printer's default options, cancel jobs and change the server's
// settings with — with everyday goals written three ways each. Each phrasing runs on a
// fresh instance (a cupsd of its own, its configuration, spool and logs in a temporary
// folder), starts at the CUPS home page and is judged twice: by the run's status and by
// CUPS's own files. The private server's admin pages are open to 127.0.0.1 without a
// password (they would ask for a system user's through PAM), so no goal signs in and the
// worker is granted no secret.
// go test -tags heldout -run 'TestHeldOutCups$' ./e2e/
func TestHeldOutCups(t *testing.T) {
	if !testenv.CupsInstalled() {
		t.Skip("CUPS is not installed: run `deploy/setup.sh heldout`")
	}
	s := newStack(t)
	s.poolWorker(t)
	names, phrasings := make([]string, len(cupsGoals)), make([][]string, len(cupsGoals))
	for g, goal := range cupsGoals {
		names[g], phrasings[g] = goal.name, goal.phrasings[:]
	}
	rows := poolEach(t, names, phrasings, func(t *testing.T, g, i int, p string) poolRow {
		c := testenv.StartCups(t)
		return poolRun(t, s, names[g], i+1, p, c.URL+"/", "CUPS's printers.conf, classes.conf, cupsd.conf, PPDs and job files",
			func() string { return cupsGoals[g].done(t, c) })
	})
	poolReport(t, rows)
}

// TestHeldOutCupsJudge validates the harness without the agent: on a fresh instance the
// pages the goals start from and go through are there with the seed's printers, class and
// jobs, and every judge says "not done"; each goal's effect, made through CUPS's own pages
// along the goal's path (each form sent as the page fills it, the session's org.cups.sid
// with it), makes its judge say "done" and leaves the other judges at "not done"; a near
// miss of each leaves its judge at "not done"; and each phrasing reads as a whole goal.
// go test -tags heldout -run 'TestHeldOutCupsJudge$' ./e2e/
func TestHeldOutCupsJudge(t *testing.T) {
	if !testenv.CupsInstalled() {
		t.Skip("CUPS is not installed: run `deploy/setup.sh heldout`")
	}
	began := time.Now()
	fresh := testenv.StartCups(t)
	t.Logf("a fresh CUPS was configured, started and seeded in %s", time.Since(began).Round(time.Millisecond))
	cupsCheckFresh(t, fresh)
	for _, g := range cupsGoals {
		why := g.done(t, fresh)
		t.Logf("%s, fresh: %s", g.name, why)
		if why == "" {
			t.Errorf("%s: the judge says done on a fresh instance", g.name)
		}
		for i, p := range g.phrasings {
			if strings.ContainsAny(p, "{}") || len(strings.Fields(p)) < 6 {
				t.Errorf("%s, phrasing %d, does not read as a whole goal: %s", g.name, i+1, p)
			}
		}
	}
	for _, g := range cupsGoals {
		t.Run(g.name, func(t *testing.T) {
			c := testenv.StartCups(t)
			g.do(t, c.Browser())
			if why := testenv.Eventually(5*time.Second, func() string { return g.done(t, c) }); why != "" {
				t.Errorf("after the goal's effect the judge says: %s", why)
			}
			for _, o := range cupsGoals {
				if o.name != g.name && o.done(t, c) == "" {
					t.Errorf("the effect of %q makes the judge of %q say done", g.name, o.name)
				}
			}
		})
		t.Run(g.name+", a near miss", func(t *testing.T) {
			c := testenv.StartCups(t)
			g.miss(t, c.Browser())
			if testenv.Eventually(5*time.Second, func() string {
				if c.Differs(t, c.Seed()) == "" {
					return "unchanged"
				}
				return ""
			}) != "" {
				t.Fatalf("the near miss changed nothing in CUPS's files")
			}
			why := g.done(t, c)
			t.Logf("the judge says: %s", why)
			if why == "" {
				t.Errorf("the judge takes a near miss for the goal done")
			}
		})
	}
}

// cupsCheckFresh checks what the goals rely on: the home page's tabs, the Administration
// page's buttons and server settings, the printers with their Administration menu, the
// class, the held jobs with their Cancel Job buttons, the Add Printer, Add Class and Set
// Default Options pages, and the storage as seeded (browsing the pages changes none of it).
func cupsCheckFresh(t *testing.T, c *testenv.Cups) {
	b := c.Browser()
	pages := []struct {
		path  string
		wants []string
	}{
		{"/", []string{"CUPS 2.4", "Administration", "Classes", "Jobs", "Printers"}},
		{"/admin", []string{"Add Printer", "Add Class", "Manage Printers", "Server Settings", "Save debugging information for troubleshooting",
			"Allow users to cancel any job (not just their own)", "Change Settings"}},
		{"/printers/", []string{"Office-Laser", "Office-Laser-2", "Lab-Printer", "Lab-Inkjet", "Room 102, second floor", "Generic PostScript Printer"}},
		{"/printers/Office-Laser-2", []string{"Modify Printer", "Delete Printer", "Set Default Options", "Pause Printer", "Room 102, second floor"}},
		{"/classes/", []string{"Second-Floor"}},
		{"/jobs/", []string{"Quarterly report", "Quarterly summary", "Meeting agenda", "held since", "Cancel Job", "Release Job"}},
	}
	for _, p := range pages {
		raw := b.Open(t, p.path)
		text := testenv.CupsText(raw)
		for _, want := range p.wants {
			// A button's label is its value, which a page's text leaves out.
			if !strings.Contains(text, want) && !strings.Contains(raw, `VALUE="`+want+`"`) {
				t.Errorf("%s lacks %q: %s", p.path, want, text)
			}
		}
	}
	cupsAdministration(t, b, "Office-Laser", "set-printer-options")
	media := b.Form(t, `VALUE="Set Default Options"`).Options["PageSize"]
	if text := testenv.CupsText(b.Page()); !strings.Contains(text, "Media Size") || !slices.Contains(media, [2]string{"A4", "A4"}) ||
		!slices.Contains(media, [2]string{"Letter", "US Letter"}) {
		t.Errorf("Set Default Options lacks Media Size, A4 or US Letter: %v: %s", media, text)
	}
	b.Open(t, "/admin")
	b.Send(t, b.Form(t, `VALUE="add-printer"`), "Add Printer")
	if text := testenv.CupsText(b.Page()); !strings.Contains(text, "AppSocket/HP JetDirect") || !strings.Contains(text, "Other Network Printers") {
		t.Errorf("Add Printer lacks AppSocket/HP JetDirect: %s", text)
	}
	b.Open(t, "/admin")
	b.Send(t, b.Form(t, `VALUE="add-class"`), "Add Class")
	if text := testenv.CupsText(b.Page()); !strings.Contains(text, "Members") || !strings.Contains(text, "Lab-Inkjet") {
		t.Errorf("Add Class lacks Members or Lab-Inkjet: %s", text)
	}
	for _, asset := range []string{"/cups.css", "/images/cups.png"} {
		if len(b.Open(t, asset)) < 500 {
			t.Errorf("%s, which the pages load, is missing or empty", asset)
		}
	}
	if why := c.Differs(t, c.Seed()); why != "" {
		t.Errorf("the fresh instance differs from its seed: %s", why)
	}
	s := c.Seed()
	if s["class"]["Second-Floor"] == "" || !strings.Contains(s["job"]["1"], "state=held") || !strings.Contains(s["ppd"]["Office-Laser"], "PageSize=Letter") {
		t.Errorf("the seed lacks its class, its held job or Office-Laser's Letter default: %v", s)
	}
	t.Logf("the seed: %v", s)
}

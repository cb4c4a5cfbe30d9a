//go:build heldout

package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// The held-out check on BackupPC's web interface: its tests build only with -tags heldout,
// and TestHeldOutBackupPC is run once, at the end, against an agent nobody tuned to
// BackupPC. TestHeldOutBackupPCJudge checks the harness alone, with no agent.
//
// BackupPC's CGI takes its user from the web server (REMOTE_USER) and has no sign-in page:
// each instance's private lighttpd passes every request as an administrator named in
// CgiAdminUsers, so the goals have no sign-in and the worker is granted no secret.

// TestHeldOutBackupPC drives Debian's BackupPC — a real application nobody here wrote: a
// backup server whose web interface lists the hosts it backs up, starts their backups,
// and edits the main configuration, each host's own settings and the host list — with
// everyday goals written three ways each, and no model. Each phrasing runs on a fresh
// instance (its own config folder, TopDir, BackupPC server and lighttpd in a temporary
// folder, its hosts backed up from folders of their own), starts at the CGI's status page,
// and is judged twice: by the run's status and by BackupPC's storage (config.pl, the hosts
// file, the hosts' own configs, the pc/ folders' backups files and the server's status).
// go test -tags heldout -run 'TestHeldOutBackupPC$' ./e2e/
func TestHeldOutBackupPC(t *testing.T) {
	if !testenv.BackupPCInstalled() {
		t.Skip("BackupPC is not installed: run `deploy/setup.sh heldout`")
	}
	s := newStack(t)
	s.poolWorker(t)
	names, phrasings := make([]string, len(backuppcGoals)), make([][]string, len(backuppcGoals))
	for g, goal := range backuppcGoals {
		names[g], phrasings[g] = goal.name, goal.phrasings[:]
	}
	rows := poolEach(t, names, phrasings, func(t *testing.T, g, i int, p string) poolRow {
		b := testenv.StartBackupPC(t)
		return poolRun(t, s, names[g], i+1, p, b.URL, "BackupPC's config files, backups and server status",
			func() string { return backuppcGoals[g].done(t, b) })
	})
	poolReport(t, rows)
}

// TestHeldOutBackupPCJudge validates the harness without the agent: on a fresh instance
// the pages and controls the goals name are there and every judge says "not done"; each
// goal's effect, made through the CGI's own forms (the configuration editor's form as its
// buttons' scripts send it, the host page's Start form and its confirmation), makes its
// judge say "done" and leaves the other judges at "not done"; a near miss of each changes
// the storage but leaves its judge at "not done"; and each phrasing reads as a whole goal.
// go test -tags heldout -run 'TestHeldOutBackupPCJudge$' ./e2e/
func TestHeldOutBackupPCJudge(t *testing.T) {
	if !testenv.BackupPCInstalled() {
		t.Skip("BackupPC is not installed: run `deploy/setup.sh heldout`")
	}
	began := time.Now()
	fresh := testenv.StartBackupPC(t)
	t.Logf("a fresh BackupPC was made, started and its seed backed up in %s", time.Since(began).Round(time.Millisecond))
	backuppcCheckFresh(t, fresh)
	for _, g := range backuppcGoals {
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
	for _, g := range backuppcGoals {
		t.Run(g.name, func(t *testing.T) {
			b := testenv.StartBackupPC(t)
			g.do(t, b.Browser())
			if why := testenv.Eventually(30*time.Second, func() string { return g.done(t, b) }); why != "" {
				t.Errorf("after the goal's effect the judge says: %s", why)
			}
			for _, o := range backuppcGoals {
				if o.name != g.name && o.done(t, b) == "" {
					t.Errorf("the effect of %q makes the judge of %q say done", g.name, o.name)
				}
			}
		})
		t.Run(g.name+", a near miss", func(t *testing.T) {
			b := testenv.StartBackupPC(t)
			g.miss(t, b.Browser())
			changed := func() string {
				if b.Differs(t, nil) == "" {
					return "unchanged"
				}
				return ""
			}
			if testenv.Eventually(30*time.Second, changed) != "" {
				t.Fatalf("the near miss changed nothing in BackupPC's storage")
			}
			time.Sleep(2 * time.Second) // what a slow judge would see
			why := g.done(t, b)
			t.Logf("the judge says: %s", why)
			if why == "" {
				t.Errorf("the judge takes a near miss for the goal done")
			}
		})
	}
}

// backuppcCheckFresh checks what the goals rely on: the status page's menu, the host
// summary with the seed's hosts, each host page's Start buttons, the editor's tabs and
// the settings the goals name (with their Override boxes on a host's), Edit Hosts' rows
// and buttons, the style sheet; and the storage as seeded (browsing changes none of it).
func backuppcCheckFresh(t *testing.T, b *testenv.BackupPC) {
	w := b.Browser()
	pages := []struct {
		query string
		wants []string
	}{
		{"", []string{"Status", "Host Summary", "Edit Config", "Edit Hosts", "Select a host...", "General Server Information"}},
		{"?action=summary", []string{"Hosts with good Backups", "files-01", "web-01", "Hosts with no Backups", "db-02", "web-02", "old-laptop"}},
		{"?host=files-01", []string{"Host files-01 Backup Summary", "Start Incr Backup", "Start Full Backup", "Edit Config", "full"}},
		{"?host=web-02", []string{"Host web-02 Backup Summary", "Start Full Backup", "Edit Config"}},
		{"?action=editConfig", []string{"Main Configuration Editor", "Backup Settings", "Schedule", "Server", "Xfer", "Save", "MaxBackups", "MaxUserBackups"}},
		{"?action=editConfig&newMenu=hosts", []string{"Hosts", "host", "dhcp", "user", "moreUsers", "Delete", "Add", "Save"}},
		{"?action=editConfig&host=web-02&newMenu=schedule", []string{"Host web-02 Configuration Editor", "FullPeriod", "BackupsDisable", "Override", "Save"}},
		{"?action=editConfig&host=files-02&newMenu=xfer", []string{"Host files-02 Configuration Editor", "XferMethod", "Override", "rsync", "tar"}},
	}
	for _, p := range pages {
		text := testenv.BackupPCText(w.Open(t, p.query))
		for _, want := range p.wants {
			if !strings.Contains(text, want) && !strings.Contains(w.Page(), `value="`+want+`"`) {
				t.Errorf("%q lacks %q: %s", p.query, want, text)
			}
		}
	}
	for _, h := range testenv.BackupPCHosts {
		if !strings.Contains(w.Open(t, "?action=editConfig&newMenu=hosts"), `value="`+h.Name+`"`) {
			t.Errorf("Edit Hosts has no row %s", h.Name)
		}
	}
	if len(w.Asset(t, "/backuppc/image/BackupPC_stnd.css")) < 500 {
		t.Errorf("the style sheet the pages load is missing or empty")
	}
	if why := b.Differs(t, nil); why != "" {
		t.Errorf("the fresh instance differs from its seed: %s", why)
	}
	s := b.Seed()
	if len(s.Hosts()) != len(testenv.BackupPCHosts) || s.Value("MaxBackups") != "4" || s.HostValue("db-01", "FullPeriod") != "13.97" ||
		s["backups"]["files-01 #0"]["type"] != "full" || s["status"]["web-02"]["state"] != "Status_idle" {
		t.Errorf("the seed lacks its hosts, MaxBackups, db-01's FullPeriod, files-01's backup or web-02's status: %v", s)
	}
}

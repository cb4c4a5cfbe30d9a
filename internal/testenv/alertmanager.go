package testenv

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/internal/config"
)

// Alertmanager is a private Prometheus Alertmanager — Debian's prometheus-alertmanager
// 0.25.0 with the web UI of the same upstream version (Debian's package leaves it out;
// deploy/setup.sh heldout writes it into a cached folder) — run in the foreground as the
// test's own process from a temporary folder: a configuration of its own (one receiver that
// sends nothing), storage of its own, one HTTP listener on a free loopback port and
// clustering off. Nobody signs in. Before a test uses it, a few alerts are sent to it through
// its v2 API, firing until a month from now, and a few silences are made there, two of them
// then expired, so that the Silences page has something in each tab. The judges read the v2
// API: /api/v2/silences and /api/v2/alerts.
type Alertmanager struct {
	URL   string // the web UI, e.g. http://127.0.0.1:PORT/ (it opens on #/alerts)
	Dir   string // the temporary folder: alertmanager.yml and data/
	proc  *process
	seeds map[string]string // the seed's silences' IDs by their AlertmanagerSeedSilence.Key
	seed  []AlertmanagerSilence
}

// AlertmanagerAlert is one alert: its labels and annotations, as the v2 API has them.
type AlertmanagerAlert struct {
	Labels      map[string]string `json:"labels"`
	Annotations map[string]string `json:"annotations"`
	StartsAt    time.Time         `json:"startsAt"`
	EndsAt      time.Time         `json:"endsAt"`
	Status      struct {
		State string `json:"state"`
	} `json:"status"`
}

// AlertmanagerMatcher is one matcher of a silence: name="value" (IsEqual, not IsRegex),
// name!="value", name=~"regex" or name!~"regex".
type AlertmanagerMatcher struct {
	Name    string `json:"name"`
	Value   string `json:"value"`
	IsRegex bool   `json:"isRegex"`
	IsEqual bool   `json:"isEqual"`
}

// String is the matcher as the UI writes it: name="value", with =~, != or !~ instead of =.
func (m AlertmanagerMatcher) String() string {
	op := map[[2]bool]string{{false, true}: "=", {false, false}: "!=", {true, true}: "=~", {true, false}: "!~"}[[2]bool{m.IsRegex, m.IsEqual}]
	return m.Name + op + `"` + m.Value + `"`
}

// AlertmanagerSilence is one silence as GET /api/v2/silences gives it (State is "active",
// "pending" or "expired").
type AlertmanagerSilence struct {
	ID        string                `json:"id"`
	Matchers  []AlertmanagerMatcher `json:"matchers"`
	StartsAt  time.Time             `json:"startsAt"`
	EndsAt    time.Time             `json:"endsAt"`
	UpdatedAt time.Time             `json:"updatedAt"`
	CreatedBy string                `json:"createdBy"`
	Comment   string                `json:"comment"`
	Status    struct {
		State string `json:"state"`
	} `json:"status"`
}

// MatchersText is the silence's matchers as the UI writes them, sorted and joined with ", ":
// two silences with the same matchers have the same text, whatever their order.
func (s AlertmanagerSilence) MatchersText() string {
	var out []string
	for _, m := range s.Matchers {
		out = append(out, m.String())
	}
	sort.Strings(out)
	return strings.Join(out, ", ")
}

// AlertmanagerSeedSilence is one silence every instance starts with: Key names it in the
// tests; an Expired one is made and then expired at once.
type AlertmanagerSeedSilence struct {
	Key                string
	Matchers           []AlertmanagerMatcher
	CreatedBy, Comment string
	For                time.Duration // from when it is made to when it ends
	Expired            bool
}

// amEq is the matcher name="value".
func amEq(name, value string) AlertmanagerMatcher {
	return AlertmanagerMatcher{Name: name, Value: value, IsEqual: true}
}

// AlertmanagerSeedAlerts are the alerts every instance starts with (labels; each with a
// summary annotation). AlertmanagerSeedSilences are its silences: the blackbox one hides
// the certificate alert, the InstanceDown one the cache alert, and two are expired.
var (
	AlertmanagerSeedAlerts = []map[string]string{
		{"alertname": "HighCPUUsage", "instance": "web-01:9100", "job": "node", "severity": "warning", "team": "web"},
		{"alertname": "HighCPUUsage", "instance": "web-02:9100", "job": "node", "severity": "warning", "team": "web"},
		{"alertname": "DiskSpaceLow", "instance": "db-01:9100", "job": "node", "mountpoint": "/var", "severity": "critical", "team": "database"},
		{"alertname": "InstanceDown", "instance": "cache-01:9121", "job": "redis", "severity": "critical", "team": "platform"},
		{"alertname": "CertificateExpiring", "instance": "https://shop.example.com", "job": "blackbox", "severity": "info", "team": "web"},
	}
	alertmanagerSummaries = map[string]string{
		"HighCPUUsage":        "CPU above 90% for 10 minutes",
		"DiskSpaceLow":        "Less than 5% disk space left on /var",
		"InstanceDown":        "The instance has been unreachable for 5 minutes",
		"CertificateExpiring": "The TLS certificate expires in 12 days",
	}
	AlertmanagerSeedSilences = []AlertmanagerSeedSilence{
		{Key: "blackbox", Matchers: []AlertmanagerMatcher{amEq("job", "blackbox")}, CreatedBy: "tom",
			Comment: "Certificate renewal scheduled", For: 7 * 24 * time.Hour},
		{Key: "redis", Matchers: []AlertmanagerMatcher{amEq("alertname", "InstanceDown"), amEq("instance", "cache-01:9121")}, CreatedBy: "maria",
			Comment: "Redis upgrade to 7.2 on cache-01", For: 4 * time.Hour},
		{Key: "drill", Matchers: []AlertmanagerMatcher{amEq("team", "database")}, CreatedBy: "li",
			Comment: "Database failover drill", For: 2 * time.Hour, Expired: true},
		{Key: "patching", Matchers: []AlertmanagerMatcher{amEq("alertname", "HighCPUUsage"), amEq("instance", "web-01:9100")}, CreatedBy: "tom",
			Comment: "Kernel patching on web-01", For: 2 * time.Hour, Expired: true},
	}
)

// AlertmanagerVersion is the upstream version of Debian's package, whose UI setup.sh caches.
const AlertmanagerVersion = "v0.25.0"

// AlertmanagerUIDir is where deploy/setup.sh heldout wrote the web UI (ALERTMANAGER_UI_DIR
// there and here).
func AlertmanagerUIDir() string {
	if dir := os.Getenv("ALERTMANAGER_UI_DIR"); dir != "" {
		return dir
	}
	return filepath.Join(config.ToolsDir(), "alertmanager-ui-"+AlertmanagerVersion)
}

// AlertmanagerInstalled says whether Debian's prometheus-alertmanager and the cached web UI
// are here (deploy/setup.sh heldout installs both).
func AlertmanagerInstalled() bool {
	_, err := exec.LookPath("prometheus-alertmanager")
	return err == nil && exists(filepath.Join(AlertmanagerUIDir(), "script.js")) && exists(filepath.Join(AlertmanagerUIDir(), "index.html"))
}

// alertmanagerConfig routes every alert to one receiver that sends nothing: no notification
// leaves the machine.
const alertmanagerConfig = "route:\n  receiver: nobody\n  group_by: [alertname]\nreceivers:\n  - name: nobody\n"

// StartAlertmanager writes a configuration into a temporary folder, runs Alertmanager in the
// foreground until the test ends, waits until it is ready and seeds it: the alerts, then
// the silences. It skips the test when Alertmanager or its UI is missing.
func StartAlertmanager(t testing.TB) *Alertmanager {
	t.Helper()
	if !AlertmanagerInstalled() {
		t.Skip("Alertmanager is not installed: run `deploy/setup.sh heldout` (it installs Debian's prometheus-alertmanager and its web UI)")
	}
	root := t.TempDir()
	port := FreePort(t)
	w := &Alertmanager{URL: "http://" + Addr(port) + "/", Dir: root, seeds: map[string]string{}}
	write(t, filepath.Join(root, "alertmanager.yml"), alertmanagerConfig)
	cmd := exec.Command("prometheus-alertmanager", "--config.file="+filepath.Join(root, "alertmanager.yml"),
		"--storage.path="+filepath.Join(root, "data"), "--web.listen-address="+Addr(port),
		"--web.ui-path="+AlertmanagerUIDir()+"/", "--cluster.listen-address=", "--log.level=warn")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "TZ=UTC")
	w.proc = start(t, "alertmanager", cmd)
	waitHTTP(t, "alertmanager", w.URL+"-/ready", 30*time.Second, w.proc)
	w.seedAlerts(t)
	for _, s := range AlertmanagerSeedSilences {
		w.seeds[s.Key] = w.seedSilence(t, s)
	}
	seed, err := w.Silences()
	if err != nil {
		t.Fatalf("alertmanager: reading the seed's silences: %v", err)
	}
	w.seed = seed
	// The Alerts page lists the alerts by group, and alerts reach their groups a moment
	// after they are received: wait until every seed alert is in one.
	if why := Eventually(10*time.Second, w.grouped); why != "" {
		t.Fatalf("alertmanager: %s:\n%s", why, w.proc.out.String())
	}
	return w
}

// grouped says "" once every seed alert is in a group (silenced ones too).
func (w *Alertmanager) grouped() string {
	var groups []struct {
		Alerts []AlertmanagerAlert `json:"alerts"`
	}
	if err := w.get("api/v2/alerts/groups?silenced=true&inhibited=true&active=true", &groups); err != nil {
		return err.Error()
	}
	n := 0
	for _, g := range groups {
		n += len(g.Alerts)
	}
	if n != len(AlertmanagerSeedAlerts) {
		return fmt.Sprintf("%d of the %d seed alerts are grouped", n, len(AlertmanagerSeedAlerts))
	}
	return ""
}

// seedAlerts sends the seed's alerts as Prometheus does, firing since an hour ago until a
// month from now.
func (w *Alertmanager) seedAlerts(t testing.TB) {
	t.Helper()
	now := time.Now().UTC().Truncate(time.Second)
	var alerts []map[string]any
	for _, labels := range AlertmanagerSeedAlerts {
		alerts = append(alerts, map[string]any{"labels": labels,
			"annotations": map[string]string{"summary": alertmanagerSummaries[labels["alertname"]]},
			"startsAt":    now.Add(-time.Hour), "endsAt": now.Add(30 * 24 * time.Hour),
			"generatorURL": "http://prometheus.example.com/graph"})
	}
	if code, out := callJSON(t, http.MethodPost, w.URL+"api/v2/alerts", alerts, nil); code != http.StatusOK {
		t.Fatalf("alertmanager: sending the seed's alerts answered %d: %s", code, out)
	}
}

// seedSilence makes one of the seed's silences through the v2 API (expiring it at once when
// it is an expired one) and returns its ID.
func (w *Alertmanager) seedSilence(t testing.TB, s AlertmanagerSeedSilence) string {
	t.Helper()
	now := time.Now().UTC()
	body := map[string]any{"matchers": s.Matchers, "startsAt": now, "endsAt": now.Add(s.For), "createdBy": s.CreatedBy, "comment": s.Comment}
	code, out := callJSON(t, http.MethodPost, w.URL+"api/v2/silences", body, nil)
	var made struct {
		SilenceID string `json:"silenceID"`
	}
	if code != http.StatusOK || json.Unmarshal(out, &made) != nil || made.SilenceID == "" {
		t.Fatalf("alertmanager: making the seed's silence %s answered %d: %s", s.Key, code, out)
	}
	if s.Expired {
		if code, out := callJSON(t, http.MethodDelete, w.URL+"api/v2/silence/"+made.SilenceID, nil, nil); code != http.StatusOK {
			t.Fatalf("alertmanager: expiring the seed's silence %s answered %d: %s", s.Key, code, out)
		}
	}
	return made.SilenceID
}

// SeedID is the ID of the seed's silence named key.
func (w *Alertmanager) SeedID(key string) string { return w.seeds[key] }

// Seed is the silences as they were once the seed was made (a copy).
func (w *Alertmanager) Seed() []AlertmanagerSilence { return slices.Clone(w.seed) }

// Silences reads every silence, expired ones too, from the v2 API.
func (w *Alertmanager) Silences() ([]AlertmanagerSilence, error) {
	var out []AlertmanagerSilence
	return out, w.get("api/v2/silences", &out)
}

// Alerts reads every alert, silenced ones too, from the v2 API.
func (w *Alertmanager) Alerts() ([]AlertmanagerAlert, error) {
	var out []AlertmanagerAlert
	return out, w.get("api/v2/alerts", &out)
}

func (w *Alertmanager) get(path string, into any) error {
	resp, err := http.Get(w.URL + path)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("GET /%s answered %d", path, resp.StatusCode)
	}
	return json.NewDecoder(resp.Body).Decode(into)
}

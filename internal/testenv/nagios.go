package testenv

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// Nagios is a private Nagios Core 4 — Debian's nagios4: a host and service monitor whose
// classic web interface is a set of C CGIs (status, extinfo, cmd, ...) and a few PHP pages
// in two frames, a side menu and a main page — run from a nagios.cfg of its own in a
// temporary folder: a few hosts and services whose checks are small shell scripts (some
// OK, some WARNING or CRITICAL, one host DOWN), an external command file (a named pipe)
// through which the CGIs hand the daemon their commands, and a status file rewritten every
// two seconds. A Go HTTP server on a free loopback port serves the pages as Debian's
// Apache set-up lays them out: the CGIs under /cgi-bin/nagios4 (and /nagios4/cgi-bin), the
// PHP pages and static files under /nagios4, both through Go's net/http/cgi (the PHP pages
// by php-cgi). Debian's Apache set-up asks for HTTP digest auth (a browser prompt, not a
// page) before a command is sent; here every request reaches the CGIs with REMOTE_USER set
// to the one user, authorized for everything, so there is no sign-in at all. What a run did is read back from the daemon's own status.dat: comments,
// downtimes, acknowledgements, the notifications and active checks enabled per host and
// service, and when each service was last checked.
type Nagios struct {
	URL  string    // the server's root, e.g. http://127.0.0.1:PORT; the interface is at URL + "/nagios4/"
	User string    // the user every request is made as (REMOTE_USER)
	Dir  string    // the instance's folder: nagios.cfg, objects.cfg, cgi.cfg, status.dat, ...
	Day  time.Time // tomorrow (UTC) as the instance started: the day the goals schedule for
	www  string    // the copy of the PHP pages
	seed NagiosState
}

// NagiosUser is the user the CGIs see, and NagiosAuthor the name they write as the author
// of comments and downtimes (the user's contact alias).
const (
	NagiosUser    = "nagiosadmin"
	NagiosAuthor  = "Nagios Admin"
	nagiosBin     = "/usr/sbin/nagios4"
	nagiosCGIDir  = "/usr/lib/cgi-bin/nagios4"
	nagiosHTDocs  = "/usr/share/nagios4/htdocs"
	nagiosStyles  = "/etc/nagios4/stylesheets"
	nagiosCGIPath = "/cgi-bin/nagios4/"
)

// NagiosHost is one monitored host of the seed and the state its check reports.
type NagiosHost struct {
	Name, Alias, Address string
	State                int // 0 UP, 1 DOWN
	Output               string
}

// NagiosService is one monitored service of the seed and the state its check reports.
type NagiosService struct {
	Host, Name string
	State      int // 0 OK, 1 WARNING, 2 CRITICAL
	Output     string
}

// NagiosHosts and NagiosServices are what every instance monitors; each check is a script
// that prints Output and exits with State, run once as the daemon starts and then hourly.
var (
	NagiosHosts = []NagiosHost{
		{Name: "web01", Alias: "Web server", Address: "10.0.2.11", Output: nagiosPingOK},
		{Name: "db01", Alias: "Database server", Address: "10.0.2.12", Output: nagiosPingOK},
		{Name: "fileserver", Alias: "File server", Address: "10.0.2.13", Output: nagiosPingOK},
		{Name: "mail01", Alias: "Mail server", Address: "10.0.2.14", Output: nagiosPingOK},
		{Name: "printer-2f", Alias: "Second floor printer", Address: "10.0.2.40", State: 1, Output: "CRITICAL - Host Unreachable (10.0.2.40)"},
	}
	NagiosServices = []NagiosService{
		{Host: "web01", Name: "HTTP", Output: "HTTP OK: HTTP/1.1 200 OK - 5120 bytes in 0.004 second response time"},
		{Host: "web01", Name: "HTTPS Certificate", State: 1, Output: "SSL WARNING - Certificate 'www.example.com' will expire in 12 days."},
		{Host: "web01", Name: "PING", Output: nagiosPingOK},
		{Host: "db01", Name: "MySQL", Output: "Uptime: 1284920  Threads: 12  Questions: 8312004  Slow queries: 3"},
		{Host: "db01", Name: "Disk Space", State: 2, Output: "DISK CRITICAL - free space: /var/lib/mysql 1843 MB (3% inode=88%):"},
		{Host: "db01", Name: "PING", Output: nagiosPingOK},
		{Host: "fileserver", Name: "Disk Space", State: 1, Output: "DISK WARNING - free space: /srv 21504 MB (12% inode=90%):"},
		{Host: "fileserver", Name: "Backup Job", State: 2, Output: "CRITICAL - last backup failed: target volume not mounted"},
		{Host: "fileserver", Name: "PING", Output: nagiosPingOK},
		{Host: "mail01", Name: "SMTP", Output: "SMTP OK - 0.012 sec. response time"},
		{Host: "mail01", Name: "Mail Queue", State: 1, Output: "WARNING: mailq is 148 (threshold w = 100)"},
		{Host: "mail01", Name: "PING", Output: nagiosPingOK},
	}
)

const nagiosPingOK = "PING OK - Packet loss = 0%, RTA = 0.21 ms"

// NagiosSeedComments are the comments every instance starts with, added through the
// "Add a new comment" form of the host's (or the service's) page.
var NagiosSeedComments = []NagiosComment{
	{Host: "fileserver", Type: 1, Author: NagiosAuthor, Text: "New disks ordered, arriving Friday"},
	{Host: "mail01", Type: 1, Author: NagiosAuthor, Text: "Spam filter rules updated on Monday"},
	{Host: "web01", Service: "HTTPS Certificate", Type: 1, Author: NagiosAuthor, Text: "Renewal request sent to the certificate team"},
}

// NagiosInstalled says whether Debian's Nagios daemon, its CGIs and PHP pages and php-cgi
// are here (deploy/setup.sh heldout installs them).
func NagiosInstalled() bool {
	_, err := exec.LookPath("php-cgi")
	return err == nil && exists(nagiosBin) && exists(filepath.Join(nagiosCGIDir, "cmd.cgi")) &&
		exists(filepath.Join(nagiosHTDocs, "index.php")) && exists(filepath.Join(nagiosHTDocs, "side.php"))
}

// StartNagios writes a fresh configuration into a temporary folder, runs the daemon until
// the test ends, waits until every host and service has been checked once, serves the web
// interface, adds NagiosSeedComments through its own forms and waits until the status file
// holds them. It skips the test when Nagios or php-cgi is missing.
func StartNagios(t testing.TB) *Nagios {
	t.Helper()
	if !NagiosInstalled() {
		t.Skip("Nagios is not installed: run `deploy/setup.sh heldout` (it installs Debian's nagios4-core, nagios4-cgi and php-cgi)")
	}
	root := t.TempDir()
	w := &Nagios{User: NagiosUser, Dir: root, www: filepath.Join(root, "www"),
		Day: time.Now().UTC().Truncate(24*time.Hour).AddDate(0, 0, 1)}
	nagiosConfigure(t, w)
	cmd := exec.Command(nagiosBin, filepath.Join(root, "nagios.cfg"))
	cmd.Dir = root
	cmd.Env = append(append(os.Environ(), nagiosEnv...), "HOME="+root)
	p := start(t, "nagios", cmd)
	if why := Eventually(30*time.Second, func() string {
		select {
		case <-p.done:
			return "the daemon stopped"
		default:
		}
		return w.checked()
	}); why != "" {
		t.Fatalf("nagios: %s:\n%s", why, p.out.String())
	}
	w.serve(t)
	w.seedComments(t)
	return w
}

// nagiosEnv is what the daemon's and every CGI's environment adds to the test's: UTC, so
// that the times the forms read and write are the same everywhere, and a UTF-8 locale.
var nagiosEnv = []string{"TZ=UTC", "LANG=C.UTF-8"}

// checked says what the status file still lacks before the seed is in place: every host
// and service checked once, in a hard state, in the state its script reports; "" when
// nothing does.
func (w *Nagios) checked() string {
	st, err := w.State()
	if err != nil {
		return err.Error()
	}
	for _, h := range NagiosHosts {
		if f, ok := st.Objects[h.Name]; !ok || !f.Checked || f.State != h.State {
			return fmt.Sprintf("host %s is not checked yet (%+v)", h.Name, f)
		}
	}
	for _, s := range NagiosServices {
		if f, ok := st.Objects[s.Host+"/"+s.Name]; !ok || !f.Checked || f.State != s.State {
			return fmt.Sprintf("service %s/%s is not checked yet (%+v)", s.Host, s.Name, f)
		}
	}
	return ""
}

// serve serves the web interface on a free loopback port until the test ends.
func (w *Nagios) serve(t testing.TB) {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("nagios: listen: %v", err)
	}
	w.URL = "http://" + l.Addr().String()
	php, err := exec.LookPath("php-cgi")
	if err != nil {
		t.Fatalf("nagios: %v", err)
	}
	srv := &http.Server{Handler: w.handler(php), ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(l)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(ctx)
	})
	waitFor(t, "nagios", w.URL+"/nagios4/side.php", 10*time.Second)
}

// seedComments adds NagiosSeedComments as a person does: the host's (or service's) page,
// its "Add a new comment" link, the comment typed and committed; then it waits until the
// status file holds them and keeps that state as the seed.
func (w *Nagios) seedComments(t testing.TB) {
	t.Helper()
	b := w.Browser()
	for _, c := range NagiosSeedComments {
		b.Open(t, w.ObjectPage(c.Host, c.Service))
		b.Click(t, "Add a new comment")
		b.Commit(t, map[string]string{"com_data": c.Text})
	}
	if why := Eventually(15*time.Second, func() string {
		st, err := w.State()
		if err != nil {
			return err.Error()
		}
		if diff := nagiosListDiff("comments", commentKeys(NagiosSeedComments), commentKeys(st.Comments)); diff != "" {
			return diff
		}
		w.seed = st
		return ""
	}); why != "" {
		t.Fatalf("nagios: the seed's comments: %s", why)
	}
	if len(w.seed.Downtimes) != 0 {
		t.Fatalf("nagios: a fresh instance has downtimes: %+v", w.seed.Downtimes)
	}
}

// ObjectPage is the path of a host's page (service "") or a service's page, as the names
// in the status lists link to them.
func (w *Nagios) ObjectPage(host, service string) string {
	if service == "" {
		return nagiosCGIPath + "extinfo.cgi?type=1&host=" + url.QueryEscape(host)
	}
	return nagiosCGIPath + "extinfo.cgi?type=2&host=" + url.QueryEscape(host) + "&service=" + url.QueryEscape(service)
}

// Seed is the state the fresh instance was in once seeded (a copy the caller may change).
func (w *Nagios) Seed() NagiosState { return w.seed.clone() }

// DayAt is the instance's Day at hh:mm (UTC), as a Unix time.
func (w *Nagios) DayAt(hh, mm int) int64 {
	return w.Day.Add(time.Duration(hh)*time.Hour + time.Duration(mm)*time.Minute).Unix()
}

// FormDate is the instance's Day as Nagios's forms write dates (date_format=us).
func (w *Nagios) FormDate() string { return w.Day.Format("01-02-2006") }

// waitFor waits until url answers 200 OK.
func waitFor(t testing.TB, name, url string, limit time.Duration) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for {
		resp, err := http.Get(url)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s did not answer %s in %s: %v", name, url, limit, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

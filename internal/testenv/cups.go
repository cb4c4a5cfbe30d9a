package testenv

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Cups is a private CUPS — Debian's cups 2.4.2, the printing system, used here through its
// web interface, the admin pages people add, change and delete printers and classes on,
// set a printer's default options, cancel jobs and change the server's settings with. Each
// instance is a cupsd of its own run in the foreground (cupsd -f), its ServerRoot, spool
// (RequestRoot), state, cache and temporary folders, printcap and logs in a folder of its
// own, listening on a free loopback port and a socket in that folder, with no browsing or
// DNS-SD, never the system's cupsd, spool or configuration. The admin pages would ask for
// a system user's password (HTTP Basic through PAM): this private configuration opens them,
// and every IPP operation, to 127.0.0.1 without authentication, so the goals have no
// sign-in. The judges read the ServerRoot's printers.conf, classes.conf, cupsd.conf and
// PPDs, and the spool's job files.
type Cups struct {
	URL  string // the web interface's root, e.g. http://127.0.0.1:PORT (its home page)
	Addr string // 127.0.0.1:PORT, the server lpadmin, lp and lpstat are pointed at (-h)
	Dir  string // the instance's folder
	Root string // its ServerRoot: cupsd.conf, cups-files.conf, printers.conf, classes.conf, ppd/
	seed CupsState
}

// CupsPrinter is a printer of the seed.
type CupsPrinter struct {
	Name, Info, Location, Model string // Model: the driver's PPD as lpinfo -m names it
	Paused                      bool
}

// The seed every instance starts from: four printers (two office lasers with near names,
// descriptions and locations, and two in the lab), one class of the two office lasers, and
// three jobs held on the paused lab printer, two of them with near titles.
var (
	CupsSeedPrinters = []CupsPrinter{
		{"Office-Laser", "Office Laser", "Room 101, second floor", "drv:///sample.drv/generic.ppd", false},
		{"Office-Laser-2", "Office Laser (copy room)", "Room 102, second floor", "drv:///sample.drv/generic.ppd", false},
		{"Lab-Printer", "Lab Printer", "Lab, ground floor", "drv:///sample.drv/generpcl.ppd", true},
		{"Lab-Inkjet", "Lab Inkjet", "Lab, ground floor", "drv:///sample.drv/deskjet.ppd", false},
	}
	// CupsSeedClass is the seed's class and its members.
	CupsSeedClass = []string{"Second-Floor", "Office-Laser", "Office-Laser-2"}
	// CupsSeedJobs are the titles of the jobs held on the printer CupsSeedJobPrinter, job 1,
	// 2 and 3 in this order.
	CupsSeedJobs = []string{"Quarterly report", "Quarterly summary", "Meeting agenda"}
)

// CupsSeedJobPrinter is the paused printer the seed's jobs are held on.
const CupsSeedJobPrinter = "Lab-Printer"

const (
	cupsDaemon   = "/usr/sbin/cupsd"
	cupsAdminCGI = "/usr/lib/cups/cgi-bin/admin.cgi"
	cupsSample   = "/usr/share/cups/drv/sample.drv"
)

// CupsInstalled says whether Debian's cups (its daemon, web interface and sample drivers)
// and its command-line client are here (deploy/setup.sh heldout installs them).
func CupsInstalled() bool {
	if !exists(cupsDaemon) || !exists(cupsAdminCGI) || !exists(cupsSample) {
		return false
	}
	for _, bin := range []string{"lpadmin", "lp", "lpstat", "cupsenable", "cupsaccept", "cupsdisable"} {
		if _, err := exec.LookPath(bin); err != nil {
			return false
		}
	}
	return true
}

// cupsdConf is the private cupsd.conf: %[1]s is the listening address, %[2]s the socket.
// LogLevel is info and the history of jobs is kept (the defaults); DirtyCleanInterval 0
// has cupsd write printers.conf, classes.conf and the job files at once, as the judges read
// them. Every location and every operation is open to 127.0.0.1 alone, without a password.
const cupsdConf = `LogLevel info
MaxLogSize 0
Listen %[1]s
Listen %[2]s
Browsing No
BrowseLocalProtocols none
DefaultAuthType None
WebInterface Yes
DirtyCleanInterval 0
<Location />
  Order allow,deny
  Allow 127.0.0.1
</Location>
<Location /admin>
  Order allow,deny
  Allow 127.0.0.1
</Location>
<Location /admin/conf>
  Order allow,deny
  Allow 127.0.0.1
</Location>
<Location /admin/log>
  Order allow,deny
  Allow 127.0.0.1
</Location>
<Policy default>
  JobPrivateAccess all
  JobPrivateValues none
  SubscriptionPrivateAccess all
  SubscriptionPrivateValues none
  <Limit All>
    Order deny,allow
  </Limit>
</Policy>
`

// StartCups writes a private configuration, runs cupsd in the foreground until the test
// ends and seeds it through CUPS's own command-line client: the printers (their device
// file:///dev/null, as FileDevice allows), the class and the held jobs. It skips the test
// when CUPS is missing.
func StartCups(t testing.TB) *Cups {
	t.Helper()
	if !CupsInstalled() {
		t.Skip("CUPS is not installed: run `deploy/setup.sh heldout` (it installs Debian's cups and cups-client)")
	}
	// A folder others may enter: cupsd runs its web pages and filters as the user lp, which
	// reads the ServerRoot and writes the temporary folder. Its socket's path stays short.
	dir, err := os.MkdirTemp("", "cups")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	c := &Cups{Dir: dir, Root: filepath.Join(dir, "root")}
	port := FreePort(t)
	c.Addr = Addr(port)
	c.URL = "http://" + c.Addr
	c.writeConfig(t)
	cmd := exec.Command(cupsDaemon, "-f", "-c", filepath.Join(c.Root, "cupsd.conf"), "-s", filepath.Join(c.Root, "cups-files.conf"))
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "TZ=UTC")
	p := start(t, "cups", cmd)
	waitHTTP(t, "cups", c.URL+"/cups.css", 30*time.Second, p)
	c.seedAll(t)
	c.seed = c.State(t)
	if n := len(c.seed["printer"]); n != len(CupsSeedPrinters) {
		t.Fatalf("cups: the seed stored %d printers, not %d: %v", n, len(CupsSeedPrinters), c.seed["printer"])
	}
	if n := len(c.seed["job"]); n != len(CupsSeedJobs) {
		t.Fatalf("cups: the seed stored %d jobs, not %d: %v", n, len(CupsSeedJobs), c.seed["job"])
	}
	return c
}

// writeConfig makes the instance's folders and writes cupsd.conf and cups-files.conf.
func (c *Cups) writeConfig(t testing.TB) {
	t.Helper()
	if err := os.Chmod(c.Dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, sub := range []string{"root", "spool", "state", "cache", "tmp", "log"} {
		if err := os.MkdirAll(filepath.Join(c.Dir, sub), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// The web pages (run as lp) write the temporary folder: Change Settings saves cupsd.conf
	// through a temporary file.
	if err := os.Chmod(filepath.Join(c.Dir, "tmp"), 0o1777); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(c.Root, "cupsd.conf"), fmt.Sprintf(cupsdConf, c.Addr, filepath.Join(c.Dir, "cups.sock")))
	files := []string{
		"ServerRoot " + c.Root,
		"RequestRoot " + filepath.Join(c.Dir, "spool"),
		"StateDir " + filepath.Join(c.Dir, "state"),
		"CacheDir " + filepath.Join(c.Dir, "cache"),
		"TempDir " + filepath.Join(c.Dir, "tmp"),
		"Printcap " + filepath.Join(c.Dir, "printcap"),
		"AccessLog " + filepath.Join(c.Dir, "log", "access_log"),
		"ErrorLog " + filepath.Join(c.Dir, "log", "error_log"),
		"PageLog " + filepath.Join(c.Dir, "log", "page_log"),
		"FileDevice Yes",
	}
	write(t, filepath.Join(c.Root, "cups-files.conf"), strings.Join(files, "\n")+"\n")
}

// seedAll adds the seed's printers and class, enabled and accepting jobs but for the
// paused printer, and holds the seed's jobs on that printer.
func (c *Cups) seedAll(t testing.TB) {
	t.Helper()
	for _, p := range CupsSeedPrinters {
		c.Run(t, "lpadmin", "-h", c.Addr, "-p", p.Name, "-E", "-v", "file:///dev/null", "-m", p.Model, "-D", p.Info, "-L", p.Location)
		if p.Paused {
			c.Run(t, "cupsdisable", "-h", c.Addr, p.Name)
		}
	}
	class := CupsSeedClass[0]
	for _, member := range CupsSeedClass[1:] {
		c.Run(t, "lpadmin", "-h", c.Addr, "-p", member, "-c", class)
	}
	c.Run(t, "cupsenable", "-h", c.Addr, class)
	c.Run(t, "cupsaccept", "-h", c.Addr, class)
	doc := filepath.Join(c.Dir, "tmp", "document.txt")
	write(t, doc, "Minutes and figures for the team.\n")
	for _, title := range CupsSeedJobs {
		c.Run(t, "lp", "-h", c.Addr, "-d", CupsSeedJobPrinter, "-H", "hold", "-t", title, doc)
	}
	// cupsd writes its files as it goes (DirtyCleanInterval 0): wait until they hold it all.
	why := Eventually(10*time.Second, func() string {
		s := c.State(t)
		if len(s["printer"]) != len(CupsSeedPrinters) || len(s["class"]) != 1 || len(s["job"]) != len(CupsSeedJobs) {
			return fmt.Sprintf("%d printers, %d classes, %d jobs", len(s["printer"]), len(s["class"]), len(s["job"]))
		}
		return ""
	})
	if why != "" {
		t.Fatalf("cups: the seed was not saved: %s", why)
	}
}

// Run runs one of CUPS's commands (lpadmin, lp, lpstat…) and returns what it printed,
// failing the test when it fails.
func (c *Cups) Run(t testing.TB, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Env = append(os.Environ(), "LANG=C", "LC_ALL=C")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("cups: %s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return string(out)
}

// Log is the end of the instance's error log, for a failure's message.
func (c *Cups) Log() string {
	data, _ := os.ReadFile(filepath.Join(c.Dir, "log", "error_log"))
	return string(data[max(0, len(data)-3000):])
}

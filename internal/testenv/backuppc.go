package testenv

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// BackupPC is a private BackupPC server — Debian's BackupPC 4.4: a backup server whose web
// interface, the Perl CGI BackupPC_Admin, lists the hosts it backs up with their backups,
// starts and stops a host's backup, and edits the main configuration (config.pl), each
// host's own settings (HOST.pl, a value of config.pl overridden) and the host list (the
// hosts file, Edit Hosts). Everything runs as the current user in a temporary folder: a
// copy of the package's code whose paths name the instance's own folders (the package's
// are compiled into its library, as its configure script writes them), a config folder
// (config.pl from the package's, hosts, the hosts' HOST.pl), a TopDir (pc/, the pools, the
// log) and the BackupPC server in the foreground; the CGI is served by a private lighttpd
// on a free loopback port. BackupPC's CGI takes the user from REMOTE_USER and has no
// sign-in page of its own: lighttpd sets REMOTE_USER to BackupPCAdmin, named in
// config.pl's CgiAdminUsers, for every request, so the goals start signed in as that
// administrator (no sign-in). Each host of the seed is backed up by tar from a folder of
// the instance (its "client", reached as 127.0.0.1 with no ssh), so a backup started from
// the pages runs for real. The judges read the config files, the pc/ folders' backups
// files and the server's status (asked through the server's socket, as
// BackupPC_serverMesg does) with a Perl script that uses BackupPC's own library.
type BackupPC struct {
	URL  string // the CGI, where a person starts: http://127.0.0.1:PORT/backuppc/index.cgi
	Dir  string // the instance's folder
	conf string // its config folder
	top  string // its TopDir
	seed BackupPCState
}

// BackupPCAdmin is the user lighttpd passes to the CGI (REMOTE_USER): an administrator
// (config.pl's CgiAdminUsers).
const BackupPCAdmin = "backupadmin"

const (
	backuppcCode   = "/usr/share/backuppc"
	backuppcConfig = backuppcCode + "/conf/config.pl"
	lighttpdBin    = "/usr/sbin/lighttpd"
)

// BackupPCHost is a host of the seed: a line of the hosts file (its owner and the other
// users who may see it) and, for a host backed up before the test, that backup's type.
type BackupPCHost struct {
	Name, User, MoreUsers string
	Backup                string // "full" for a host with one full backup, "" for none
	Files                 map[string]string
}

// BackupPCHosts are the seed's hosts, in the hosts file's order.
var BackupPCHosts = []BackupPCHost{
	{"files-01", "mlopez", "", "full", map[string]string{"projects/plan.txt": "Q4 plan\n", "invoices/2026-10.csv": "id,amount\n1,120\n"}},
	{"files-02", "mlopez", "", "full", map[string]string{"scans/contract.txt": "signed\n", "scans/notes.txt": "call back\n"}},
	{"db-01", "jsmith", "akim", "full", map[string]string{"dumps/crm.sql": "-- crm dump\n"}},
	{"db-02", "jsmith", "", "", map[string]string{"dumps/billing.sql": "-- billing dump\n"}},
	{"web-01", "akim", "", "full", map[string]string{"www/index.html": "<h1>shop</h1>\n"}},
	{"web-02", "akim", "", "", map[string]string{"www/index.html": "<h1>blog</h1>\n"}},
	{"old-laptop", "tbrown", "", "", map[string]string{"home/todo.txt": "return laptop\n"}},
}

// BackupPCInstalled says whether Debian's backuppc and lighttpd are here (deploy/setup.sh
// heldout installs them).
func BackupPCInstalled() bool {
	if !exists(filepath.Join(backuppcCode, "lib", "BackupPC", "Lib.pm")) || !exists(filepath.Join(backuppcCode, "bin", "BackupPC")) ||
		!exists(backuppcConfig) || !exists(lighttpdBin) {
		return false
	}
	return exec.Command("perl", "-MBackupPC::XS", "-MCGI", "-MJSON::PP", "-e1").Run() == nil
}

// StartBackupPC makes a fresh instance: its folders, its copy of BackupPC's code, config.pl
// (the package's, with the instance's paths and the seed's settings), the hosts file and
// each host's own config; starts the BackupPC server and a lighttpd serving the CGI until
// the test ends; saves the configuration once through its editor, as shown; backs up the
// hosts the seed says were backed up, through the server; and keeps what its storage then
// holds as the fresh state. It skips the test when BackupPC or lighttpd is missing.
func StartBackupPC(t testing.TB) *BackupPC {
	t.Helper()
	if !BackupPCInstalled() {
		t.Skip("BackupPC or lighttpd is not installed: run `deploy/setup.sh backuppc` (it installs Debian's backuppc and lighttpd)")
	}
	b := &BackupPC{Dir: t.TempDir()}
	b.conf, b.top = filepath.Join(b.Dir, "conf"), filepath.Join(b.Dir, "top")
	// The server's socket: a short path of its own (a socket's path is at most 108 bytes).
	run, err := os.MkdirTemp("", "backuppc-run")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(run) })
	for _, d := range []string{b.conf, filepath.Join(b.top, "pc"), filepath.Join(b.top, "pool"), filepath.Join(b.top, "cpool"), filepath.Join(b.top, "log")} {
		if err := os.MkdirAll(d, 0o750); err != nil {
			t.Fatal(err)
		}
	}
	paths := map[string]string{"/usr/share/backuppc": filepath.Join(b.Dir, "install"), "/etc/backuppc": b.conf,
		"/var/lib/backuppc": b.top, "/run/backuppc": run}
	copyBackupPC(t, filepath.Join(b.Dir, "install"), paths)
	port := FreePort(t)
	b.URL = "http://" + Addr(port) + "/backuppc/index.cgi"
	b.writeConfig(t, run)
	server := exec.Command("perl", filepath.Join(b.Dir, "install", "bin", "BackupPC"))
	server.Env = append(os.Environ(), "TZ=UTC")
	p := start(t, "backuppc", server)
	b.waitServer(t, filepath.Join(run, "BackupPC.sock"), p)
	b.startLighttpd(t, port)
	b.saveAsShown(t)
	b.seedBackups(t)
	b.seed = b.State(t)
	return b
}

// copyBackupPC copies the package's code to dir with each of its paths (paths' keys) named
// as the instance's (their values), as the package's own configure script writes them; the
// CGI is the package's realindex.cgi (index.cgi is a setuid wrapper that runs it).
func copyBackupPC(t testing.TB, dir string, paths map[string]string) {
	t.Helper()
	err := filepath.Walk(backuppcCode, func(path string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(backuppcCode, path)
		to := filepath.Join(dir, rel)
		switch {
		case info.IsDir():
			return os.MkdirAll(to, 0o755)
		case info.Mode()&os.ModeSymlink != 0:
			return nil // cgi-bin's index.cgi and image links: written below
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		text := string(data)
		for from, with := range paths {
			text = strings.ReplaceAll(text, from, with)
		}
		return os.WriteFile(to, []byte(text), info.Mode().Perm()|0o200)
	})
	if err != nil {
		t.Fatalf("backuppc: copy the package's code: %v", err)
	}
	cgi, err := os.ReadFile(filepath.Join(dir, "lib", "realindex.cgi"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "cgi-bin", "index.cgi"), cgi, 0o755); err != nil {
		t.Fatal(err)
	}
}

// backuppcLocalTar is how each seed host is backed up: tar of its folder on this machine,
// with no ssh (as Debian's localhost.pl does for the server's own /etc).
var backuppcLocalTar = map[string]any{
	"XferMethod":   "tar",
	"TarClientCmd": "/usr/bin/env LC_ALL=C $tarPath -c -v -f - -C $shareName --totals",
	"TarFullArgs":  "$fileList",
	"TarIncrArgs":  "--newer=$incrDate $fileList",
}

// writeConfig writes config.pl (the package's, read and written back by BackupPC's own
// library with the instance's paths, user and URL and the seed's settings), the hosts
// file, each host's own config and its client folder.
func (b *BackupPC) writeConfig(t testing.TB, run string) {
	t.Helper()
	me, err := user.Current()
	if err != nil {
		t.Fatal(err)
	}
	install := filepath.Join(b.Dir, "install")
	main := map[string]any{
		"TopDir": b.top, "ConfDir": b.conf, "LogDir": filepath.Join(b.top, "log"), "RunDir": run, "InstallDir": install,
		"CgiDir": filepath.Join(install, "cgi-bin"), "CgiImageDir": filepath.Join(install, "image"), "CgiImageDirURL": "/backuppc/image",
		"CgiURL": b.URL, "ServerHost": "127.0.0.1", "BackupPCUser": me.Username,
		"CgiAdminUsers": BackupPCAdmin, "CgiAdminUserGroup": "",
		// No Samba client or rrdtool here (the package only suggests them), and the clients
		// are this machine: no ping, no NetBIOS.
		"SmbClientPath": "", "NmbLookupPath": "", "RrdToolPath": "", "PingCmd": "",
		// One wakeup a day, twelve hours from now: the server queues no host by itself
		// while a test runs.
		"WakeupSchedule":     []int{(time.Now().UTC().Hour() + 12) % 24},
		"EMailAdminUserName": "backup-admins", "EMailFromUserName": "backuppc",
	}
	for k, v := range backuppcLocalTar {
		main[k] = v
	}
	hosts := map[string]map[string]any{}
	lines := []string{"host        dhcp    user      moreUsers     # <--- do not edit this line"}
	for _, h := range BackupPCHosts {
		client := filepath.Join(b.Dir, "clients", h.Name)
		for name, text := range h.Files {
			if err := os.MkdirAll(filepath.Dir(filepath.Join(client, name)), 0o755); err != nil {
				t.Fatal(err)
			}
			write(t, filepath.Join(client, name), text)
		}
		hosts[h.Name] = map[string]any{"ClientNameAlias": "127.0.0.1", "TarShareName": []string{client}}
		lines = append(lines, strings.TrimSpace(fmt.Sprintf("%-11s 0       %-9s %s", h.Name, h.User, h.MoreUsers)))
	}
	// Seed settings of their own, beside the neighbours the goals must leave alone.
	hosts["db-01"]["FullPeriod"] = "13.97"
	hosts["db-01"]["BackupsDisable"] = 0
	hosts["web-01"]["IncrKeepCnt"] = 10
	write(t, filepath.Join(b.conf, "hosts"), strings.Join(lines, "\n")+"\n")
	if err := copyFile(backuppcConfig, filepath.Join(b.conf, "config.pl")); err != nil {
		t.Fatal(err)
	}
	input, err := json.Marshal(map[string]any{"main": main, "hosts": hosts})
	if err != nil {
		t.Fatal(err)
	}
	b.perl(t, backuppcSeedScript, string(input))
}

// waitServer waits until the BackupPC server listens on its socket.
func (b *BackupPC) waitServer(t testing.TB, socket string, p *process) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !exists(socket) {
		select {
		case <-p.done:
			t.Fatalf("backuppc: the server stopped:\n%s", p.out.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("backuppc: the server made no socket in 30s:\n%s", p.out.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// startLighttpd serves the CGI (perl runs index.cgi) and its images and style sheet under
// /backuppc/ on port, every request passed to the CGI as BackupPCAdmin's (REMOTE_USER).
func (b *BackupPC) startLighttpd(t testing.TB, port int) {
	t.Helper()
	install := filepath.Join(b.Dir, "install")
	conf := filepath.Join(b.Dir, "lighttpd.conf")
	write(t, conf, fmt.Sprintf(`server.document-root = %q
server.bind = "127.0.0.1"
server.port = %d
server.errorlog = %q
server.pid-file = %q
server.modules = ("mod_alias", "mod_setenv", "mod_cgi", "mod_redirect")
alias.url = ("/backuppc/image/" => %q, "/backuppc/" => %q)
url.redirect = ("^/$" => "/backuppc/index.cgi")
cgi.assign = (".cgi" => "/usr/bin/perl")
# BackupPC's CGI trusts the web server's REMOTE_USER: every request is the admin's.
setenv.set-environment = ("REMOTE_USER" => %q)
index-file.names = ("index.cgi")
mimetype.assign = (".css" => "text/css", ".gif" => "image/gif", ".png" => "image/png", ".js" => "text/javascript", ".svg" => "image/svg+xml", ".ico" => "image/x-icon")
`, filepath.Join(install, "cgi-bin"), port, filepath.Join(b.Dir, "lighttpd-error.log"), filepath.Join(b.Dir, "lighttpd.pid"),
		filepath.Join(install, "image")+"/", filepath.Join(install, "cgi-bin")+"/", BackupPCAdmin))
	p := start(t, "lighttpd", exec.Command(lighttpdBin, "-D", "-f", conf))
	waitHTTP(t, "backuppc's lighttpd", b.URL, 30*time.Second, p)
}

// seedBackups asks the server for a full backup of each host the seed says was backed up
// (as the host's "Start Full Backup" does) and waits until each is done and the server
// idle.
func (b *BackupPC) seedBackups(t testing.TB) {
	t.Helper()
	for _, h := range BackupPCHosts {
		if h.Backup != "" {
			b.perl(t, backuppcMesgScript, "backup "+h.Name+" "+h.Name+" "+BackupPCAdmin+" 1")
		}
	}
	why := Eventually(60*time.Second, func() string {
		s, err := b.state()
		if err != nil {
			return err.Error()
		}
		for _, h := range BackupPCHosts {
			if h.Backup == "" {
				continue
			}
			if s["backups"][h.Name+" #0"]["type"] != h.Backup || s["status"][h.Name]["state"] != "Status_idle" {
				return fmt.Sprintf("%s's backup is not done: %v, %v", h.Name, s["backups"], s["status"][h.Name])
			}
		}
		return ""
	})
	if why != "" {
		log, _ := os.ReadFile(filepath.Join(b.top, "log", "LOG"))
		t.Fatalf("backuppc: the seed's backups: %s\n%s", why, log)
	}
}

// perl runs one of the harness's Perl scripts with BackupPC's library (the instance's
// copy), input on its standard input; it returns what the script printed.
func (b *BackupPC) perl(t testing.TB, script, input string) string {
	t.Helper()
	out, err := b.runPerl(script, input)
	if err != nil {
		t.Fatalf("backuppc: %v", err)
	}
	return out
}

func (b *BackupPC) runPerl(script, input string) (string, error) {
	cmd := exec.Command("perl", "-I", filepath.Join(b.Dir, "install", "lib"), "-e", script, b.conf, b.top)
	cmd.Stdin = strings.NewReader(input)
	cmd.Env = append(os.Environ(), "TZ=UTC")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("perl: %v\n%s", err, stderr.String())
	}
	return string(out), nil
}

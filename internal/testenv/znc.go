package testenv

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// ZNC is a private ZNC — Debian's znc 1.8.2: an IRC bouncer whose global webadmin module
// is a web admin panel for its users, their IRC networks and channels, the modules each
// loads and the bouncer's global settings — run in the foreground as the test's own
// process from a data folder of its own (configs/znc.conf written before it starts), one
// listener on a free loopback port for the web pages (and IRC clients, which no test
// uses), and a few users, one of them the admin the goals sign in as. No IRC server is
// needed: every network points at a closed loopback port and the seed's networks do not
// connect. ZNC keeps everything the webadmin changes in znc.conf, which it rewrites after
// each change; the judges read that file back. ZNC waits half a minute before it runs as
// root, so as root it runs as nobody.
type ZNC struct {
	URL      string // the web admin, e.g. http://127.0.0.1:PORT/ (its login page)
	Dir      string // the data folder (configs/znc.conf, moddata, users)
	Conf     string // configs/znc.conf
	User     string // the admin the goals sign in as
	Password string // the admin's password
	proc     *process
	seed     *ZNCSection
}

// ZNCSeedUser is one user every instance starts with: its IRC identity, its networks
// (each with its channels) and whether it is an admin.
type ZNCSeedUser struct {
	Name, Nick, RealName, QuitMsg string
	Admin                         bool
	Networks                      []ZNCSeedNetwork
}

// ZNCSeedNetwork is one IRC network of a seed user and the channels it joins.
type ZNCSeedNetwork struct {
	Name     string
	Channels []string
}

// ZNCAdmin is the user the goals sign in as; ZNCSeed the users every instance starts with
// (the admin first), each with a password of its own.
const ZNCAdmin = "admin"

var ZNCSeed = []ZNCSeedUser{
	{Name: ZNCAdmin, Nick: "admin", RealName: "ZNC Admin", QuitMsg: "Bouncer maintenance", Admin: true,
		Networks: []ZNCSeedNetwork{{Name: "libera", Channels: []string{"#ops"}}}},
	{Name: "alice", Nick: "alice", RealName: "Alice Moreau", QuitMsg: "See you later",
		Networks: []ZNCSeedNetwork{{Name: "libera", Channels: []string{"#general", "#random"}}}},
	{Name: "bob", Nick: "bob", RealName: "Bob Lindqvist", QuitMsg: "Bye",
		Networks: []ZNCSeedNetwork{{Name: "libera", Channels: []string{"#general"}}}},
	{Name: "carol", Nick: "carol", RealName: "Carol Ndiaye", QuitMsg: "Off to lunch",
		Networks: []ZNCSeedNetwork{{Name: "oftc", Channels: []string{"#debian"}}}},
}

// ZNCPassword is the admin's password (a worker grants it; no goal holds it).
const ZNCPassword = "Bouncer-Admin-2024!"

const zncModules = "/usr/lib/znc/webadmin.so"

// ZNCInstalled says whether Debian's znc and its webadmin module are here (deploy/setup.sh
// heldout installs them).
func ZNCInstalled() bool {
	_, err := exec.LookPath("znc")
	return err == nil && exists(zncModules)
}

// StartZNC writes a fresh znc.conf into a temporary data folder, runs ZNC in the
// foreground until the test ends, waits until its login page answers and asks it to write
// its configuration once (SIGUSR1), so that the seed the judges compare with is znc.conf
// as ZNC itself writes it. It skips the test when ZNC is missing.
func StartZNC(t testing.TB) *ZNC {
	t.Helper()
	if !ZNCInstalled() {
		t.Skip("ZNC is not installed: run `deploy/setup.sh heldout` (it installs Debian's znc)")
	}
	root := t.TempDir()
	port := FreePort(t)
	w := &ZNC{URL: "http://" + Addr(port) + "/", Dir: root, Conf: filepath.Join(root, "configs", "znc.conf"),
		User: ZNCAdmin, Password: ZNCPassword}
	if err := os.MkdirAll(filepath.Dir(w.Conf), 0o700); err != nil {
		t.Fatal(err)
	}
	write(t, w.Conf, zncConfig(port))
	cmd := exec.Command("znc", "--datadir", root, "--foreground", "--no-color")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "HOME="+root, "TZ=UTC", "LANG=C.UTF-8")
	w.proc = zncStart(t, root, cmd)
	waitHTTP(t, "znc", w.URL, 30*time.Second, w.proc)
	before, _ := os.Stat(w.Conf)
	if err := w.proc.cmd.Process.Signal(syscall.SIGUSR1); err != nil {
		t.Fatalf("znc: asking it to write its configuration: %v", err)
	}
	if why := Eventually(10*time.Second, func() string {
		if st, err := os.Stat(w.Conf); err != nil || before == nil || os.SameFile(st, before) && st.ModTime().Equal(before.ModTime()) {
			return "znc.conf is not rewritten yet"
		}
		c, err := w.Config()
		if err != nil {
			return err.Error()
		}
		w.seed = c
		return ""
	}); why != "" {
		t.Fatalf("znc: %s:\n%s", why, w.proc.out.String())
	}
	return w
}

// zncStart starts ZNC as start does (a process group of its own, killed when the test
// ends), as nobody when the test runs as root (ZNC complains and waits 30 seconds before
// it runs as root): the data folder becomes nobody's, and the test's temporary folders
// above it (0700) are opened for it to pass through.
func zncStart(t testing.TB, root string, cmd *exec.Cmd) *process {
	t.Helper()
	if os.Getuid() != 0 {
		return start(t, "znc", cmd)
	}
	for p := root; p != "/" && p != os.TempDir(); p = filepath.Dir(p) {
		_ = os.Chmod(p, 0o711)
	}
	if err := filepath.Walk(root, func(p string, _ os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(p, 65534, 65534)
	}); err != nil {
		t.Fatal(err)
	}
	attr := ownGroup()
	attr.Credential = &syscall.Credential{Uid: 65534, Gid: 65534}
	p := &process{cmd: cmd, out: &syncBuffer{}, done: make(chan struct{})}
	cmd.SysProcAttr, cmd.Stdout, cmd.Stderr = attr, p.out, p.out
	if err := cmd.Start(); err != nil {
		t.Fatalf("start znc: %v", err)
	}
	go func() { _ = cmd.Wait(); close(p.done) }()
	t.Cleanup(p.Kill)
	return p
}

// zncConfig is the znc.conf an instance starts from: the webadmin loaded globally, one
// listener on port (web and IRC, plain HTTP, IPv4 only) and ZNCSeed's users.
func zncConfig(port int) string {
	var b strings.Builder
	b.WriteString("Version = 1.8.2\nLoadModule = webadmin\nMaxBufferSize = 500\nConnectDelay = 5\nStatusPrefix = *\nSkin = _default_\n")
	fmt.Fprintf(&b, "<Listener web>\n\tPort = %d\n\tHost = 127.0.0.1\n\tIPv4 = true\n\tIPv6 = false\n\tSSL = false\n\tAllowIRC = true\n\tAllowWeb = true\n</Listener>\n", port)
	for _, u := range ZNCSeed {
		salt := fmt.Sprintf("seedsalt%s%012d", u.Name, len(u.Name))
		pass := ZNCPassword
		if u.Name != ZNCAdmin {
			pass = "Pass-of-" + u.Name + "-9"
		}
		fmt.Fprintf(&b, "<User %s>\n\tAdmin = %v\n\tNick = %s\n\tAltNick = %s_\n\tIdent = %s\n\tRealName = %s\n\tQuitMsg = %s\n\tMaxNetworks = 10\n\tAllow = *\n",
			u.Name, u.Admin, u.Nick, u.Nick, u.Name, u.RealName, u.QuitMsg)
		fmt.Fprintf(&b, "\t<Pass password>\n\t\tMethod = sha256\n\t\tHash = %s\n\t\tSalt = %s\n\t</Pass>\n", zncHash(pass, salt), salt)
		for _, n := range u.Networks {
			// A closed port on loopback, never dialled: the network does not connect.
			fmt.Fprintf(&b, "\t<Network %s>\n\t\tIRCConnectEnabled = false\n\t\tServer = 127.0.0.1 1\n", n.Name)
			for _, c := range n.Channels {
				fmt.Fprintf(&b, "\t\t<Chan %s>\n\t\t</Chan>\n", c)
			}
			b.WriteString("\t</Network>\n")
		}
		b.WriteString("</User>\n")
	}
	return b.String()
}

// zncHash is ZNC's salted SHA-256 of a password (its "sha256" method).
func zncHash(password, salt string) string {
	sum := sha256.Sum256([]byte(password + salt))
	return hex.EncodeToString(sum[:])
}

// Seed is znc.conf as ZNC wrote it once the instance started (a copy the caller may change).
func (w *ZNC) Seed() *ZNCSection { return w.seed.Clone() }

// Config reads znc.conf as it is now.
func (w *ZNC) Config() (*ZNCSection, error) {
	b, err := os.ReadFile(w.Conf)
	if err != nil {
		return nil, err
	}
	return ParseZNCConfig(string(b))
}

// Differs says how znc.conf differs from want ("" when it holds exactly that).
func (w *ZNC) Differs(want *ZNCSection) string {
	got, err := w.Config()
	if err != nil {
		return err.Error()
	}
	return got.Diff(want)
}

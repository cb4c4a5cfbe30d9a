package testenv

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/internal/config"
)

// NodeREDVersion is the npm package deploy/setup.sh installs (NODE_RED_VERSION there).
const NodeREDVersion = "4.1.15"

// NodeRED is a private Node-RED: a flow editor whose deployed flows are kept in
// flows.json, a real application written by nobody here. What a run deployed is read back
// from that file.
type NodeRED struct {
	URL string // the editor, e.g. http://127.0.0.1:PORT
	Dir string // the user folder: settings.js, flows.json
}

// Flows reads the deployed flows: every tab, node and configuration node, as saved.
func (n *NodeRED) Flows() []map[string]any {
	b, err := os.ReadFile(filepath.Join(n.Dir, "flows.json"))
	if err != nil {
		return nil
	}
	var flows []map[string]any
	if json.Unmarshal(b, &flows) != nil {
		return nil
	}
	return flows
}

// Find returns the deployed entries of a type ("tab", "inject", ...; "" for any) whose
// name (a node's) or label (a tab's) is name ("" for any).
func (n *NodeRED) Find(typ, name string) []map[string]any {
	var out []map[string]any
	for _, f := range n.Flows() {
		label, _ := f["name"].(string)
		if f["type"] == "tab" {
			label, _ = f["label"].(string)
		}
		if (typ == "" || f["type"] == typ) && (name == "" || label == name) {
			out = append(out, f)
		}
	}
	return out
}

// Eventually waits up to limit for ok to hold on the deployed flows and says whether it did.
func (n *NodeRED) Eventually(limit time.Duration, ok func() bool) bool {
	deadline := time.Now().Add(limit)
	for !ok() {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(250 * time.Millisecond)
	}
	return true
}

// NodeREDMain is Node-RED's red.js where deploy/setup.sh installed it, "" if it did not.
func NodeREDMain() string {
	dir := os.Getenv("NODE_RED_DIR")
	if dir == "" {
		dir = filepath.Join(config.ToolsDir(), "node-red-"+NodeREDVersion)
	}
	main := filepath.Join(dir, "node_modules", "node-red", "red.js")
	if !exists(main) {
		return ""
	}
	return main
}

// StartNodeRED gives Node-RED a user folder of its own in a temporary folder, with flows
// (a flows.json array, "" for none) deployed, no first-run tour, no palette installs and
// no calls home, and serves its editor on a free port. It skips the test when Node-RED or
// Node.js is missing: `make setup` (deploy/setup.sh) installs them.
func StartNodeRED(t testing.TB, flows string) *NodeRED {
	t.Helper()
	node, err := exec.LookPath("node")
	main := NodeREDMain()
	if err != nil || main == "" {
		t.Skip("Node-RED or Node.js is not installed: run deploy/setup.sh (it installs npm's node-red " + NodeREDVersion + ")")
	}
	n := &NodeRED{Dir: t.TempDir()}
	port := FreePort(t)
	n.URL = "http://" + Addr(port)
	write(t, filepath.Join(n.Dir, "settings.js"), fmt.Sprintf(`module.exports = {
	uiHost: "127.0.0.1",
	uiPort: %d,
	flowFile: "flows.json",
	credentialSecret: false,
	editorTheme: { tours: false, projects: { enabled: false } },
	diagnostics: { enabled: false },
	telemetry: { enabled: false },
	externalModules: { palette: { allowInstall: false } },
	logging: { console: { level: "info" } }
};
`, port))
	if flows == "" {
		flows = "[]"
	}
	write(t, filepath.Join(n.Dir, "flows.json"), flows)
	cmd := exec.Command(node, main, "--settings", filepath.Join(n.Dir, "settings.js"), "--userDir", n.Dir)
	cmd.Dir = n.Dir
	p := start(t, "node-red", cmd)
	waitHTTP(t, "node-red", n.URL+"/flows", 30*time.Second, p)
	return n
}

package testenv

import (
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/internal/config"
)

// PouchdbVersion is the npm package deploy/setup.sh installs (POUCHDB_VERSION there).
const PouchdbVersion = "4.2.0"

// Pouchdb is a private PouchDB Server — npm's pouchdb-server 4.2.0, a CouchDB-compatible
// database server in Node.js — and the admin web interface it serves at /_utils, Fauxton
// (its pouchdb-fauxton fork): a React app whose Databases page lists every database (its
// name links to its documents; each row has Replicate, permissions and a trash icon titled
// "Delete NAME", which asks in a "Delete Database" dialog to type the database's name
// before its Delete button works), with "Create Database" at the top (a "Name of database"
// box and a Create button). A database's page lists its documents by id (a pencil opens
// one); the "+" beside "All Documents" opens "Add New" (New Doc, New View, Mango Indexes).
// A document opens in a JSON code editor with "Save Changes", "Cancel", "Upload
// Attachment", "Clone Document" and "Delete" (which asks "Are you sure you want to delete
// this document?" with a "Delete Document" button); New Doc opens the same editor holding
// only a fresh "_id", with "Create Document". The Configuration page lists every setting by
// section and option; a click on a value turns it into a box with a save button (a green
// tick, no text) and a cancel button beside it, and what it saves is written to the
// server's config.json. Each instance runs with Node.js on a free loopback port, its
// databases (LevelDB folders) and its config.json in a temporary folder, and no sign-in:
// the server has no admin (its "admin party", left as it is), so, as Cloud Commander's
// instance runs without its HTTP Basic, it is open to 127.0.0.1 and the goals have no
// sign-in. It is seeded through its CouchDB HTTP API with a small shop's databases,
// PouchdbSeed; the judges read every database and document back through the same API
// (/_all_dbs, /DB/_all_docs?include_docs=true), which reads its storage, and its settings
// from its config.json.
type Pouchdb struct {
	URL        string // Fauxton's start page, http://127.0.0.1:PORT/_utils/ (the Databases page)
	Base       string // the server's root, without a slash: the CouchDB HTTP API
	Dir        string // the instance's folder: data/, config.json, its log
	ConfigFile string // its config.json, which /_config (Fauxton's Configuration page) saves
	Port       int
	proc       *process
	seed       PouchdbState
	seedConfig PouchdbConfig
}

// PouchdbSeed is every instance's shop: databases by name, each holding documents by id
// (without their revisions), alike enough that a near miss is possible (two archives of
// orders, customers in the same cities, two mugs, two towels and two candles, several
// orders still pending). The server adds its own _replicator and _users beside them.
var PouchdbSeed = PouchdbState{
	"customers": {
		"cust-0001": {"name": "Anna Berg", "email": "anna.berg@example.com", "city": "Oslo"},
		"cust-0002": {"name": "Bjorn Dahl", "email": "bjorn.dahl@example.com", "city": "Bergen"},
		"cust-0003": {"name": "Carla Moreno", "email": "carla.moreno@example.com", "city": "Bergen"},
		"cust-0004": {"name": "David Okafor", "email": "david.okafor@example.com", "city": "Oslo"},
		"cust-0005": {"name": "Elin Sandvik", "email": "elin.sandvik@example.com", "city": "Trondheim"},
	},
	"orders": {
		"order-1001": {"customer": "cust-0002", "date": "2026-11-02", "total": 34.5, "status": "delivered"},
		"order-1002": {"customer": "cust-0001", "date": "2026-11-10", "total": 54.0, "status": "shipped"},
		"order-1003": {"customer": "cust-0003", "date": "2026-11-18", "total": 19.9, "status": "pending"},
		"order-1004": {"customer": "cust-0003", "date": "2026-11-19", "total": 72.4, "status": "pending"},
		"order-1005": {"customer": "cust-0005", "date": "2026-11-21", "total": 12.5, "status": "pending"},
	},
	"orders-2024": {
		"order-0401": {"customer": "cust-0001", "date": "2024-05-14", "total": 25.0, "status": "delivered"},
		"order-0402": {"customer": "cust-0002", "date": "2024-09-03", "total": 41.8, "status": "delivered"},
	},
	"orders-2025": {
		"order-0501": {"customer": "cust-0003", "date": "2025-02-20", "total": 15.0, "status": "delivered"},
		"order-0502": {"customer": "cust-0004", "date": "2025-10-07", "total": 63.3, "status": "delivered"},
	},
	"products": {
		"prod-0001": {"name": "Ceramic mug, blue", "sku": "MUG-BLU", "price": 12.5, "category": "kitchen"},
		"prod-0002": {"name": "Ceramic mug, green", "sku": "MUG-GRN", "price": 12.5, "category": "kitchen"},
		"prod-0003": {"name": "Tea towel, linen", "sku": "TWL-LIN", "price": 9.9, "category": "kitchen"},
		"prod-0004": {"name": "Tea towel, cotton", "sku": "TWL-COT", "price": 7.5, "category": "kitchen"},
		"prod-0005": {"name": "Candle, beeswax", "sku": "CND-BEE", "price": 15.0, "sale_price": 11.0, "category": "home"},
		"prod-0006": {"name": "Candle, soy", "sku": "CND-SOY", "price": 14.0, "sale_price": 10.5, "category": "home"},
	},
	"inventory": {
		"stock-MUG-BLU": {"sku": "MUG-BLU", "warehouse": "Oslo", "quantity": 40.0},
		"stock-MUG-GRN": {"sku": "MUG-GRN", "warehouse": "Oslo", "quantity": 25.0},
		"stock-TWL-LIN": {"sku": "TWL-LIN", "warehouse": "Bergen", "quantity": 60.0},
		"stock-CND-BEE": {"sku": "CND-BEE", "warehouse": "Bergen", "quantity": 8.0},
	},
}

// PouchdbDir is where deploy/setup.sh installed PouchDB Server (POUCHDB_DIR there).
func PouchdbDir() string {
	if dir := os.Getenv("POUCHDB_DIR"); dir != "" {
		return dir
	}
	return filepath.Join(config.ToolsDir(), "pouchdb-server-"+PouchdbVersion)
}

// pouchdbBin is the server's command, run with the Node.js on the PATH.
func pouchdbBin() string {
	return filepath.Join(PouchdbDir(), "node_modules", "pouchdb-server", "bin", "pouchdb-server")
}

// PouchdbInstalled says whether PouchDB Server, Fauxton and Node.js are here
// (deploy/setup.sh heldout installs them).
func PouchdbInstalled() bool {
	_, err := exec.LookPath("node")
	return err == nil && exists(pouchdbBin()) &&
		exists(filepath.Join(PouchdbDir(), "node_modules", "pouchdb-fauxton", "www", "index.html"))
}

// StartPouchdb runs a fresh PouchDB Server until the test ends, waits until it answers,
// and seeds it with PouchdbSeed through its HTTP API. The seed the judges compare with is
// what it then holds (with the server's own _replicator and _users). It skips the test
// when PouchDB Server is missing.
func StartPouchdb(t testing.TB) *Pouchdb {
	t.Helper()
	if !PouchdbInstalled() {
		t.Skip("PouchDB Server is not installed: run `deploy/setup.sh heldout` (it installs npm's pouchdb-server " + PouchdbVersion + ")")
	}
	dir := t.TempDir()
	port := FreePort(t)
	w := &Pouchdb{Base: "http://" + Addr(port), Dir: dir, ConfigFile: filepath.Join(dir, "config.json"), Port: port}
	w.URL = w.Base + "/_utils/"
	data := filepath.Join(dir, "data")
	if err := os.MkdirAll(data, 0o755); err != nil {
		t.Fatal(err)
	}
	// Its config.json starts empty: no admin (no sign-in), its log file in the instance's
	// folder, and the databases under data/.
	cmd := exec.Command("node", pouchdbBin(), "--port", strconv.Itoa(port), "--host", "127.0.0.1",
		"--dir", data, "--config", w.ConfigFile, "--no-color")
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "TZ=UTC", "LANG=C.UTF-8", "NODE_NO_WARNINGS=1"}
	w.proc = start(t, "pouchdb-server", cmd)
	waitHTTP(t, "pouchdb-server", w.Base+"/", 60*time.Second, w.proc)
	w.writeSeed(t)
	w.seed, w.seedConfig = w.State(t), w.Config(t)
	want := PouchdbSeed.clone()
	for _, db := range []string{"_replicator", "_users"} {
		want[db] = w.seed[db]
	}
	if why := w.seed.Diff(want); why != "" {
		t.Fatalf("pouchdb-server: the databases are not the seed: %s", why)
	}
	if why := w.seedConfig.Diff(PouchdbConfig{}); why != "" {
		t.Fatalf("pouchdb-server: a fresh server's settings are not its defaults: %s", why)
	}
	return w
}

// writeSeed creates each database of PouchdbSeed and writes its documents in one
// _bulk_docs request, each document's fields in the order a person reads them
// (pouchdbFieldOrder), as the editor then shows them.
func (w *Pouchdb) writeSeed(t testing.TB) {
	t.Helper()
	b := w.Browser()
	for db, docs := range PouchdbSeed {
		b.CreateDB(t, db)
		var all []json.RawMessage
		for id, doc := range docs {
			all = append(all, pouchdbOrdered(t, id, doc))
		}
		b.send(t, http.MethodPost, "/"+db+"/_bulk_docs", map[string]any{"docs": all})
	}
}

// pouchdbFieldOrder is the order of the seed's fields in its documents.
var pouchdbFieldOrder = []string{"name", "customer", "sku", "email", "city", "date", "price", "sale_price",
	"category", "total", "status", "warehouse", "quantity"}

// pouchdbOrdered is the document id with doc's fields as JSON, "_id" first and then the
// fields in pouchdbFieldOrder (a field it does not name fails the test).
func pouchdbOrdered(t testing.TB, id string, doc PouchdbDoc) json.RawMessage {
	t.Helper()
	parts := []string{`"_id":` + pouchdbJSON(id)}
	for _, k := range pouchdbFieldOrder {
		if v, ok := doc[k]; ok {
			data, err := json.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			parts = append(parts, pouchdbJSON(k)+":"+string(data))
		}
	}
	if len(parts) != len(doc)+1 {
		t.Fatalf("pouchdb-server: the seed's document %q has a field pouchdbFieldOrder does not name", id)
	}
	return json.RawMessage("{" + strings.Join(parts, ",") + "}")
}

// Log is what PouchDB Server printed so far.
func (w *Pouchdb) Log() string { return w.proc.out.String() }

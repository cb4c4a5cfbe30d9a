package testenv

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/internal/config"
)

// RedisCommanderVersion is the npm package deploy/setup.sh installs (REDISCOMMANDER_VERSION
// there).
const RedisCommanderVersion = "0.9.0"

// RedisCommander is a private Redis Commander — npm's redis-commander 0.9.0: a web UI
// (a jQuery page with a tree of a Redis server's keys, folded at ":", an editor for the key
// picked and small dialogs to add, change, rename and delete keys, hash fields, list
// values and set members) — run by Node.js as the test's own process with a configuration
// folder of its own in a temporary folder, and a private redis-server (Debian's) beside it
// with its folder there too and no persistence, both on free loopback ports. Redis
// Commander's HTTP auth is on: its front page then shows a Sign In dialog, the page the
// goals start at. Everything the UI changes is in Redis itself; the judges read Redis
// back over its own protocol.
type RedisCommander struct {
	URL       string // the web UI, e.g. http://127.0.0.1:PORT/ (its Sign In dialog)
	Dir       string // the temporary folder: config/ (Redis Commander's), redis/ (Redis's)
	RedisAddr string // the private Redis, 127.0.0.1:PORT
	ConnID    string // Redis Commander's id of its one connection, e.g. R:127.0.0.1:PORT:0
	User      string // the user the goals sign in as
	Password  string // the user's password
	proc      *process
	redis     *process
	seed      RedisDump
}

// RedisCommanderSeedKey is one key every instance's Redis starts with: its type and its
// items as RedisKey has them (a hash's and a sorted set's as "field = value").
type RedisCommanderSeedKey struct {
	Key, Type string
	Items     []string
}

// RedisCommanderUser is the user the goals sign in as, RedisCommanderLabel the name the
// connection shows at the top of the key tree, and RedisCommanderSeed an online tea shop's
// keys: strings, hashes, lists, sets and a sorted set, most of them in folders.
const (
	RedisCommanderUser  = "admin"
	RedisCommanderLabel = "shop"
)

var RedisCommanderSeed = []RedisCommanderSeedKey{
	{Key: "site:banner", Type: "string", Items: []string{"Spring sale: 20% off all teas"}},
	{Key: "site:maintenance", Type: "string", Items: []string{"off"}},
	{Key: "stats:visits", Type: "string", Items: []string{"48213"}},
	{Key: "user:1001", Type: "hash", Items: []string{"name = Alice Moreau", "email = alice@example.com", "plan = basic"}},
	{Key: "user:1002", Type: "hash", Items: []string{"name = Bob Lindqvist", "email = bob@example.com", "plan = pro"}},
	{Key: "queue:emails", Type: "list", Items: []string{"welcome:1001", "receipt:5531", "reset:1002"}},
	{Key: "queue:sms", Type: "list", Items: []string{"otp:1002"}},
	{Key: "tags:featured", Type: "set", Items: []string{"green-tea", "matcha", "oolong"}},
	{Key: "tags:clearance", Type: "set", Items: []string{"earl-grey", "rooibos"}},
	{Key: "leaderboard", Type: "zset", Items: []string{"alice = 120", "bob = 95"}},
}

// RedisCommanderPassword is the user's password (a worker grants it; no goal holds it).
const RedisCommanderPassword = "Commander-Tea-2024!"

// RedisCommanderDir is where deploy/setup.sh installed Redis Commander (REDISCOMMANDER_DIR
// there).
func RedisCommanderDir() string {
	if dir := os.Getenv("REDISCOMMANDER_DIR"); dir != "" {
		return dir
	}
	return filepath.Join(config.ToolsDir(), "redis-commander-"+RedisCommanderVersion)
}

// redisCommanderApp is the package's folder (its bin/, config/ and web/).
func redisCommanderApp() string {
	return filepath.Join(RedisCommanderDir(), "node_modules", "redis-commander")
}

// RedisCommanderInstalled says whether Redis Commander, Node.js and Debian's redis-server
// are here (deploy/setup.sh heldout installs them).
func RedisCommanderInstalled() bool {
	_, errNode := exec.LookPath("node")
	_, errRedis := exec.LookPath("redis-server")
	return errNode == nil && errRedis == nil && exists(filepath.Join(redisCommanderApp(), "bin", "redis-commander.js"))
}

// StartRedisCommander starts a private Redis and seeds it with RedisCommanderSeed, gives
// Redis Commander a configuration folder of its own (the package's defaults and a
// local.json: its address, the user and password, the one connection), runs it until the
// test ends, and waits until a signed-in request lists the seed's keys. The seed the
// judges compare with is what Redis then holds. It skips the test when Redis Commander is
// missing.
func StartRedisCommander(t testing.TB) *RedisCommander {
	t.Helper()
	if !RedisCommanderInstalled() {
		t.Skip("Redis Commander is not installed: run `deploy/setup.sh heldout` (it installs npm's redis-commander " + RedisCommanderVersion + " and Debian's redis-server)")
	}
	root := t.TempDir()
	redisPort, webPort := FreePort(t), FreePort(t)
	w := &RedisCommander{URL: "http://" + Addr(webPort) + "/", Dir: root, RedisAddr: Addr(redisPort),
		ConnID: fmt.Sprintf("R:127.0.0.1:%d:0", redisPort), User: RedisCommanderUser, Password: RedisCommanderPassword}
	w.redis = startRedis(t, filepath.Join(root, "redis"), redisPort)
	w.seedRedis(t)
	cfg := filepath.Join(root, "config")
	if err := os.MkdirAll(cfg, 0o700); err != nil {
		t.Fatal(err)
	}
	defaults, err := os.ReadFile(filepath.Join(redisCommanderApp(), "config", "default.json"))
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(cfg, "default.json"), string(defaults))
	write(t, filepath.Join(cfg, "local.json"), redisCommanderConfig(webPort, redisPort))
	cmd := exec.Command("node", filepath.Join(redisCommanderApp(), "bin", "redis-commander.js"))
	cmd.Dir = root
	// Only what it needs: its configuration also reads PORT, ADDRESS, HTTP_USER and more
	// from the environment, which must not change it.
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + root, "NODE_CONFIG_DIR=" + cfg, "TZ=UTC", "LANG=C.UTF-8"}
	w.proc = start(t, "redis-commander", cmd)
	waitHTTP(t, "redis-commander", w.URL, 30*time.Second, w.proc)
	if why := Eventually(20*time.Second, func() string {
		seen, err := w.Browser().probe()
		if err != nil {
			return err.Error()
		}
		if !seen {
			return "the key tree does not list the seed's keys yet"
		}
		return ""
	}); why != "" {
		t.Fatalf("redis-commander: %s:\n%s", why, w.proc.out.String())
	}
	return w
}

// seedRedis writes RedisCommanderSeed into the private Redis and keeps what Redis then
// holds as the seed.
func (w *RedisCommander) seedRedis(t testing.TB) {
	t.Helper()
	r, err := DialRedis(w.RedisAddr)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for _, k := range RedisCommanderSeed {
		args := []string{map[string]string{"string": "SET", "list": "RPUSH", "set": "SADD", "hash": "HSET", "zset": "ZADD"}[k.Type], k.Key}
		for _, item := range k.Items {
			a, b, pair := strings.Cut(item, " = ")
			switch {
			case k.Type == "hash" && pair:
				args = append(args, a, b)
			case k.Type == "zset" && pair:
				args = append(args, b, a) // ZADD takes the score first
			default:
				args = append(args, item)
			}
		}
		if _, err := r.Do(args...); err != nil {
			t.Fatalf("redis: seeding %s: %v", k.Key, err)
		}
	}
	if w.seed, err = r.Dump(); err != nil {
		t.Fatal(err)
	}
}

// redisCommanderConfig is local.json: the web UI on 127.0.0.1:port with its HTTP auth
// (the Sign In dialog) on, no connection saved back to the folder, and the one connection
// to the private Redis, labelled RedisCommanderLabel.
func redisCommanderConfig(port, redisPort int) string {
	b, _ := json.MarshalIndent(map[string]any{
		"noSave": true,
		"server": map[string]any{"address": "127.0.0.1", "port": port,
			"httpAuth": map[string]any{"username": RedisCommanderUser, "password": RedisCommanderPassword}},
		"connections": []map[string]any{{"label": RedisCommanderLabel, "host": "127.0.0.1", "port": redisPort,
			"dbIndex": 0, "password": "", "connectionName": "redis-commander"}},
	}, "", "  ")
	return string(b)
}

// Seed is what Redis held once the instance started (a copy the caller may change).
func (w *RedisCommander) Seed() RedisDump { return w.seed.Clone() }

// Dump reads every key Redis holds now.
func (w *RedisCommander) Dump() (RedisDump, error) {
	r, err := DialRedis(w.RedisAddr)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return r.Dump()
}

// Differs says how Redis differs from want ("" when it holds exactly that).
func (w *RedisCommander) Differs(want RedisDump) string {
	got, err := w.Dump()
	if err != nil {
		return err.Error()
	}
	return got.Diff(want)
}

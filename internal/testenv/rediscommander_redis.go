package testenv

import (
	"bufio"
	"fmt"
	"io"
	"maps"
	"net"
	"os"
	"os/exec"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// RedisConn is a connection to a Redis server speaking its own protocol (RESP): what the
// harness seeds the private Redis with and what the judges read it back through, with no
// client library and no redis-cli.
type RedisConn struct {
	c net.Conn
	r *bufio.Reader
}

// DialRedis connects to the Redis at addr (host:port).
func DialRedis(addr string) (*RedisConn, error) {
	c, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		return nil, err
	}
	return &RedisConn{c: c, r: bufio.NewReader(c)}, nil
}

// Close closes the connection.
func (r *RedisConn) Close() error { return r.c.Close() }

// Do sends one command (its words, as redis-cli takes them) and returns the reply: a
// string for a status or a bulk string, nil for a missing value, an int64 for an
// integer, a []any for an array. A Redis error is returned as an error.
func (r *RedisConn) Do(args ...string) (any, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "*%d\r\n", len(args))
	for _, a := range args {
		fmt.Fprintf(&b, "$%d\r\n%s\r\n", len(a), a)
	}
	_ = r.c.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := io.WriteString(r.c, b.String()); err != nil {
		return nil, err
	}
	return r.reply()
}

// reply reads one reply of any kind.
func (r *RedisConn) reply() (any, error) {
	line, err := r.r.ReadString('\n')
	if err != nil {
		return nil, err
	}
	line = strings.TrimSuffix(line, "\r\n")
	if line == "" {
		return nil, fmt.Errorf("redis: an empty reply")
	}
	body := line[1:]
	switch line[0] {
	case '+':
		return body, nil
	case '-':
		return nil, fmt.Errorf("redis: %s", body)
	case ':':
		return strconv.ParseInt(body, 10, 64)
	case '$':
		n, err := strconv.Atoi(body)
		if err != nil || n < 0 {
			return nil, err
		}
		buf := make([]byte, n+2)
		if _, err := io.ReadFull(r.r, buf); err != nil {
			return nil, err
		}
		return string(buf[:n]), nil
	case '*':
		n, err := strconv.Atoi(body)
		if err != nil || n < 0 {
			return nil, err
		}
		out := make([]any, n)
		for i := range out {
			if out[i], err = r.reply(); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	return nil, fmt.Errorf("redis: a reply of no kind known: %q", line)
}

// Strings is Do for a command whose reply is an array of strings (or one string).
func (r *RedisConn) Strings(args ...string) ([]string, error) {
	v, err := r.Do(args...)
	if err != nil {
		return nil, err
	}
	switch v := v.(type) {
	case string:
		return []string{v}, nil
	case []any:
		out := make([]string, 0, len(v))
		for _, e := range v {
			s, _ := e.(string)
			out = append(out, s)
		}
		return out, nil
	}
	return nil, fmt.Errorf("redis: %v answered %v, not strings", args, v)
}

// RedisKey is one key of a Redis database as the judges compare it: its type (string,
// hash, list, set, zset) and its items: a string's value, a list's elements in order, a
// set's members sorted, a hash's "field = value" and a sorted set's "member = score",
// sorted.
type RedisKey struct {
	Type  string
	Items []string
}

// RedisDump is every key of a database, by name.
type RedisDump map[string]RedisKey

// Dump reads every key of the connection's database and its value.
func (r *RedisConn) Dump() (RedisDump, error) {
	names, err := r.Strings("KEYS", "*")
	if err != nil {
		return nil, err
	}
	out := RedisDump{}
	for _, name := range names {
		typ, err := r.Strings("TYPE", name)
		if err != nil {
			return nil, err
		}
		k := RedisKey{Type: typ[0]}
		switch k.Type {
		case "string":
			k.Items, err = r.Strings("GET", name)
		case "list":
			k.Items, err = r.Strings("LRANGE", name, "0", "-1")
		case "set":
			k.Items, err = r.Strings("SMEMBERS", name)
		case "hash":
			k.Items, err = redisPairs(r.Strings("HGETALL", name))
		case "zset":
			k.Items, err = redisPairs(r.Strings("ZRANGE", name, "0", "-1", "WITHSCORES"))
		case "none":
			continue // gone between KEYS and TYPE
		}
		if err != nil {
			return nil, err
		}
		if k.Type != "list" {
			sort.Strings(k.Items)
		}
		out[name] = k
	}
	return out, nil
}

// redisPairs folds a flat [a, b, c, d] reply into ["a = b", "c = d"].
func redisPairs(flat []string, err error) ([]string, error) {
	if err != nil {
		return nil, err
	}
	var out []string
	for i := 0; i+1 < len(flat); i += 2 {
		out = append(out, flat[i]+" = "+flat[i+1])
	}
	return out, nil
}

// Clone is a copy the caller may change.
func (d RedisDump) Clone() RedisDump {
	out := RedisDump{}
	for k, v := range d {
		out[k] = RedisKey{Type: v.Type, Items: slices.Clone(v.Items)}
	}
	return out
}

// Set makes key hold a value of type typ with items (sorted as Dump sorts them).
func (d RedisDump) Set(key, typ string, items ...string) {
	items = slices.Clone(items)
	if typ != "list" {
		sort.Strings(items)
	}
	d[key] = RedisKey{Type: typ, Items: items}
}

// Diff says how d differs from want ("" when it holds exactly that): each key missing,
// extra or different, in the order of their names.
func (d RedisDump) Diff(want RedisDump) string {
	names := map[string]bool{}
	for k := range d {
		names[k] = true
	}
	for k := range want {
		names[k] = true
	}
	var out []string
	for _, k := range slices.Sorted(maps.Keys(names)) {
		g, inGot := d[k]
		w, inWant := want[k]
		switch {
		case !inGot:
			out = append(out, fmt.Sprintf("no key %q", k))
		case !inWant:
			out = append(out, fmt.Sprintf("an extra key %q (%s %q)", k, g.Type, g.Items))
		case g.Type != w.Type || !slices.Equal(g.Items, w.Items):
			out = append(out, fmt.Sprintf("%q is %s %q, want %s %q", k, g.Type, g.Items, w.Type, w.Items))
		}
	}
	return strings.Join(out, "; ")
}

// startRedis runs a private redis-server in the foreground on port, on loopback only,
// in dir, with nothing saved to disk (Redis Commander's and EtherCalc's instances).
func startRedis(t testing.TB, dir string, port int) *process {
	t.Helper()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("redis-server", "--port", strconv.Itoa(port), "--bind", "127.0.0.1", "--dir", dir,
		"--save", "", "--appendonly", "no", "--daemonize", "no", "--logfile", "")
	cmd.Dir = dir
	p := start(t, "redis-server", cmd)
	if why := Eventually(15*time.Second, func() string {
		r, err := DialRedis(Addr(port))
		if err != nil {
			return err.Error()
		}
		defer r.Close()
		if _, err := r.Do("PING"); err != nil {
			return err.Error()
		}
		return ""
	}); why != "" {
		t.Fatalf("redis-server did not answer: %s:\n%s", why, p.out.String())
	}
	return p
}

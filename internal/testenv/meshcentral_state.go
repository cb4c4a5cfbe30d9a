package testenv

import (
	"bufio"
	"crypto/pbkdf2"
	"crypto/sha512"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"maps"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// MeshCentralState is what the judges compare of a MeshCentral: meshcentral.db's accounts,
// device groups and user groups, each by its name, each a set of fields as text.
//
//	user       username → name, email, emailVerified, realname, siteadmin, lang…; password
//	           (a digest of its salt and hash, so that a changed password shows); group:NAME
//	           → the rights of each device group it is a member of
//	group      device group name → desc, mtype, deleted ("<date>" once deleted)…; user:NAME
//	           → each member's rights
//	usergroup  user group name → its fields the same way
//
// Fields that change by themselves (sign-in times, creation times, the device groups' ids)
// are left out; a device group's id stands as its name wherever it is named.
type MeshCentralState map[string]map[string]map[string]string

// mcVolatile are the fields left out: times a sign-in or the server sets, and what a
// state names otherwise (the document's id, type and domain, a link's copy of a name).
var mcVolatile = map[string]bool{"_id": true, "type": true, "domain": true, "creation": true, "login": true,
	"access": true, "passchange": true, "salt": true, "hash": true, "pastlogin": true, "lastlogin": true, "lastaccess": true}

// dbPath is meshcentral.db, the NeDB file of accounts, device groups and devices.
func (w *MeshCentral) dbPath() string { return filepath.Join(w.Data, "meshcentral.db") }

// readNeDB reads a NeDB file: one JSON document a line, a later line replacing an earlier
// one of the same _id, {"$$deleted": true} removing it, index lines skipped.
func readNeDB(path string) (map[string]map[string]any, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	docs := map[string]map[string]any{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var doc map[string]any
		if err := json.Unmarshal(sc.Bytes(), &doc); err != nil {
			continue // a line half written as it is read: the next read sees it whole
		}
		id, _ := doc["_id"].(string)
		switch {
		case id == "":
		case doc["$$deleted"] == true:
			delete(docs, id)
		default:
			docs[id] = doc
		}
	}
	return docs, sc.Err()
}

// State reads meshcentral.db now.
func (w *MeshCentral) State(t testing.TB) MeshCentralState {
	t.Helper()
	docs, err := readNeDB(w.dbPath())
	if err != nil {
		t.Fatalf("meshcentral: read meshcentral.db: %v", err)
	}
	return meshcentralState(docs)
}

// meshcentralState is the state of a database's documents.
func meshcentralState(docs map[string]map[string]any) MeshCentralState {
	names := map[string]string{} // an id → how a state names it: group:NAME, user:NAME…
	kinds := map[string]string{"user": "user", "mesh": "group", "ugrp": "usergroup"}
	for id, doc := range docs {
		if kind := kinds[fmt.Sprint(doc["type"])]; kind != "" {
			name := fmt.Sprint(doc["name"])
			if kind == "user" {
				name = id[strings.LastIndex(id, "/")+1:]
			}
			names[id] = kind + ":" + name
		}
	}
	s := MeshCentralState{"user": {}, "group": {}, "usergroup": {}}
	for _, id := range slices.Sorted(maps.Keys(names)) {
		doc := docs[id]
		kind, name, _ := strings.Cut(names[id], ":")
		fields := map[string]string{}
		mcFlatten(fields, "", doc, names)
		if doc["hash"] != nil {
			fields["password"] = md5Hex(fmt.Sprint(doc["salt"], "/", doc["hash"]))[:12]
		}
		for s[kind][name] != nil {
			name += " (again)"
		}
		s[kind][name] = fields
	}
	return s
}

// mcFlatten puts v's fields into fields by their path ("a/b"), each link (links/ID/…)
// under the name of what it links to ("group:Servers", "user:tom") with its rights as the
// value, a date as "<date>", and the volatile fields left out.
func mcFlatten(fields map[string]string, path string, v any, names map[string]string) {
	switch v := v.(type) {
	case map[string]any:
		if _, date := v["$$date"]; date {
			fields[path] = "<date>"
			return
		}
		for k, e := range v {
			switch {
			case path == "" && mcVolatile[k]:
			case path == "links":
				link, ok := e.(map[string]any)
				name := names[k]
				if raw, err := url.PathUnescape(k); name == "" && err == nil {
					name = names[raw] // NeDB's keys have no $ or .: MeshCentral escapes them
				}
				if name == "" {
					name = "unknown:" + k
				}
				if ok {
					fields[name] = fmt.Sprint(jsonNumber(link["rights"]))
				}
			default:
				mcFlatten(fields, strings.TrimPrefix(path+"/"+k, "/"), e, names)
			}
		}
	case []any:
		b, _ := json.Marshal(v)
		fields[path] = string(b)
	default:
		fields[path] = fmt.Sprint(jsonNumber(v))
	}
}

// jsonNumber is v with a whole float64 (as JSON's numbers decode) as an integer.
func jsonNumber(v any) any {
	if f, ok := v.(float64); ok && f == float64(int64(f)) {
		return int64(f)
	}
	return v
}

// Seed is the state the instance started with (a copy the caller may change).
func (w *MeshCentral) Seed() MeshCentralState { return w.seed.Clone() }

// Clone is a deep copy of the state.
func (s MeshCentralState) Clone() MeshCentralState {
	c := MeshCentralState{}
	for kind, rows := range s {
		c[kind] = map[string]map[string]string{}
		for k, row := range rows {
			c[kind][k] = maps.Clone(row)
		}
	}
	return c
}

// Diff says how s differs from want ("" when it does not): each thing missing or extra,
// and each field of a thing that is there in one and not the other or differs; a wanted
// value "*" is any value.
func (s MeshCentralState) Diff(want MeshCentralState) string {
	var out []string
	for _, kind := range mcUnion(s, want) {
		got, exp := s[kind], want[kind]
		for _, k := range mcUnion(got, exp) {
			g, e := got[k], exp[k]
			switch {
			case e == nil:
				out = append(out, fmt.Sprintf("an extra %s %q (%s)", kind, k, mcFields(g)))
			case g == nil:
				out = append(out, fmt.Sprintf("%s %q is missing", kind, k))
			default:
				for _, f := range mcUnion(g, e) {
					gv, has := g[f]
					ev, wanted := e[f]
					switch {
					case !wanted:
						out = append(out, fmt.Sprintf("%s %q has %s %q, which it should not", kind, k, f, gv))
					case !has:
						out = append(out, fmt.Sprintf("%s %q has no %s (want %q)", kind, k, f, ev))
					case ev != "*" && gv != ev:
						out = append(out, fmt.Sprintf("%s %q has %s %q, not %q", kind, k, f, gv, ev))
					}
				}
			}
		}
	}
	return strings.Join(out, "; ")
}

// mcUnion is the keys of a and b, sorted.
func mcUnion[V any](a, b map[string]V) []string {
	keys := map[string]bool{}
	for k := range a {
		keys[k] = true
	}
	for k := range b {
		keys[k] = true
	}
	return slices.Sorted(maps.Keys(keys))
}

// mcFields is a thing's fields as one line, sorted.
func mcFields(fields map[string]string) string {
	var parts []string
	for _, f := range slices.Sorted(maps.Keys(fields)) {
		parts = append(parts, f+"="+fields[f])
	}
	return strings.Join(parts, " ")
}

// Differs says how meshcentral.db differs from want now ("" when it holds exactly that).
func (w *MeshCentral) Differs(t testing.TB, want MeshCentralState) string {
	t.Helper()
	return w.State(t).Diff(want)
}

// PasswordIs says whether username's stored password is password, as MeshCentral checks
// one: PBKDF2 with SHA-384, 12000 rounds, 128 bytes, the salt's base64 text as the salt.
func (w *MeshCentral) PasswordIs(t testing.TB, username, password string) bool {
	t.Helper()
	docs, err := readNeDB(w.dbPath())
	if err != nil {
		t.Fatalf("meshcentral: read meshcentral.db: %v", err)
	}
	doc := docs["user//"+strings.ToLower(username)]
	salt, _ := doc["salt"].(string)
	hash, _ := doc["hash"].(string)
	if salt == "" || hash == "" {
		return false
	}
	key, err := pbkdf2.Key(sha512.New384, password, []byte(salt), 12000, 128)
	return err == nil && base64.StdEncoding.EncodeToString(key) == hash
}

// fileSize is the size of the file at path, -1 when it cannot be read.
func fileSize(path string) int64 {
	fi, err := os.Stat(path)
	if err != nil {
		return -1
	}
	return fi.Size()
}

var mcScript = regexp.MustCompile(`(?is)<(script|style)\b.*?</(script|style)>`)

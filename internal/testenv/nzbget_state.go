package testenv

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"os"
	"slices"
	"strings"
	"testing"
)

// NZBGetState is what the judges compare of an NZBGet: for each kind of thing its panel
// changes, its entries by key, each entry's value one line.
//
//	conf     option → value: every option of the configuration file (Server2.Connections,
//	         Category4.Name, DownloadRate…), as the file holds it
//	queue    NZBID → name=…; category=…; priority=…; status=…; files=…; dupe=…
//	order    queue → the queue's NZBIDs in its order, comma-separated
//	history  NZBID → name=…; status=… (a download deleted from the queue is kept here)
//	runtime  DownloadLimit → the speed limit in force (bytes a second); ServerN.Active →
//	         whether the speed-limit dialog left news server N active
type NZBGetState map[string]map[string]string

// NZBGetGroup is one download of the queue as listgroups answers (the fields the judges
// read).
type NZBGetGroup struct {
	NZBID       int    `json:"NZBID"`
	NZBName     string `json:"NZBName"`
	Category    string `json:"Category"`
	MaxPriority int    `json:"MaxPriority"`
	Status      string `json:"Status"`
	FileCount   int    `json:"FileCount"`
	DupeKey     string `json:"DupeKey"`
	DupeScore   int    `json:"DupeScore"`
	DupeMode    string `json:"DupeMode"`
}

// nzbgetCall sends one JSON-RPC request to endpoint through c with the given headers and
// decodes its result into out (nil: not decoded); an answer other than 200 or an error in
// the answer is the error returned.
func nzbgetCall(c *http.Client, endpoint string, header map[string]string, method string, params []any, out any) error {
	if params == nil {
		params = []any{}
	}
	body, err := json.Marshal(map[string]any{"method": method, "params": params})
	if err != nil {
		return err
	}
	req, err := http.NewRequest(http.MethodPost, endpoint, bytes.NewReader(body))
	if err != nil {
		return err
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s answered %d: %s", method, resp.StatusCode, raw)
	}
	var r struct {
		Result json.RawMessage `json:"result"`
		Error  *struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		return fmt.Errorf("%s: %v: %s", method, err, raw)
	}
	if r.Error != nil {
		return fmt.Errorf("%s: %s", method, r.Error.Message)
	}
	if out != nil {
		return json.Unmarshal(r.Result, out)
	}
	return nil
}

// Call makes one JSON-RPC call with the instance's control credentials (HTTP Basic, as
// NZBGet's own API clients sign in) and decodes its result into out.
func (w *NZBGet) Call(method string, params []any, out any) error {
	req, _ := http.NewRequest(http.MethodGet, w.rpc, nil)
	req.SetBasicAuth(w.User, w.Password)
	return nzbgetCall(http.DefaultClient, w.rpc, map[string]string{"Authorization": req.Header.Get("Authorization")}, method, params, out)
}

// Groups are the downloads of the queue, in the queue's order.
func (w *NZBGet) Groups() ([]NZBGetGroup, error) {
	var out []NZBGetGroup
	err := w.Call("listgroups", []any{0}, &out)
	return out, err
}

// Conf is the configuration file's options as it holds them now.
func (w *NZBGet) Conf(t testing.TB) map[string]string {
	t.Helper()
	f, err := os.Open(w.ConfFile)
	if err != nil {
		t.Fatalf("nzbget: %v", err)
	}
	defer f.Close()
	out := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if k, v, ok := strings.Cut(line, "="); ok {
			out[strings.TrimSpace(k)] = strings.TrimSpace(v)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("nzbget: %v", err)
	}
	return out
}

// State reads the configuration file, the queue, the history and the limits in force now.
func (w *NZBGet) State(t testing.TB) NZBGetState {
	t.Helper()
	s := NZBGetState{"conf": w.Conf(t), "queue": {}, "order": {}, "history": {}, "runtime": {}}
	groups, err := w.Groups()
	if err != nil {
		t.Fatalf("nzbget: %v", err)
	}
	var order []string
	for _, g := range groups {
		s["queue"][fmt.Sprint(g.NZBID)] = fmt.Sprintf("name=%s; category=%s; priority=%d; status=%s; files=%d; dupe=%s/%d/%s",
			g.NZBName, g.Category, g.MaxPriority, g.Status, g.FileCount, g.DupeKey, g.DupeScore, g.DupeMode)
		order = append(order, fmt.Sprint(g.NZBID))
	}
	s["order"]["queue"] = strings.Join(order, ",")
	var history []struct {
		NZBID  int    `json:"NZBID"`
		Name   string `json:"Name"`
		Status string `json:"Status"`
	}
	if err := w.Call("history", []any{false}, &history); err != nil {
		t.Fatalf("nzbget: %v", err)
	}
	for _, h := range history {
		s["history"][fmt.Sprint(h.NZBID)] = fmt.Sprintf("name=%s; status=%s", h.Name, h.Status)
	}
	var status struct {
		DownloadLimit int `json:"DownloadLimit"`
		NewsServers   []struct {
			ID     int  `json:"ID"`
			Active bool `json:"Active"`
		} `json:"NewsServers"`
	}
	if err := w.Call("status", nil, &status); err != nil {
		t.Fatalf("nzbget: %v", err)
	}
	s["runtime"]["DownloadLimit"] = fmt.Sprint(status.DownloadLimit)
	for _, n := range status.NewsServers {
		s["runtime"][fmt.Sprintf("Server%d.Active", n.ID)] = fmt.Sprint(n.Active)
	}
	return s
}

// Seed is the state the instance started with (a copy the caller may change).
func (w *NZBGet) Seed() NZBGetState { return w.seed.Clone() }

// Clone is a deep copy of the state.
func (s NZBGetState) Clone() NZBGetState {
	c := NZBGetState{}
	for k, rows := range s {
		c[k] = maps.Clone(rows)
	}
	return c
}

// Diff says how s differs from want ("" when it does not): each entry missing, extra or
// different, by kind and key.
func (s NZBGetState) Diff(want NZBGetState) string {
	var out []string
	for _, kind := range slices.Sorted(maps.Keys(merged(keysOf(s), keysOf(want)))) {
		got, exp := s[kind], want[kind]
		for _, k := range slices.Sorted(maps.Keys(merged(got, exp))) {
			g, inGot := got[k]
			e, inWant := exp[k]
			switch {
			case !inGot:
				out = append(out, fmt.Sprintf("%s %q is missing (%s)", kind, k, e))
			case !inWant:
				out = append(out, fmt.Sprintf("an extra %s %q (%s)", kind, k, g))
			case g != e:
				out = append(out, fmt.Sprintf("%s %q is %q, not %q", kind, k, g, e))
			}
		}
	}
	return strings.Join(out, "; ")
}

// Differs says how the instance's storage differs from want ("" when it holds exactly
// that).
func (w *NZBGet) Differs(t testing.TB, want NZBGetState) string {
	t.Helper()
	return w.State(t).Diff(want)
}

// SeedID is the NZBID of the seed's download named name (as NZBGetSeedItems names it), ""
// when the seed has none.
func (w *NZBGet) SeedID(name string) string {
	for id, v := range w.seed["queue"] {
		if strings.HasPrefix(v, "name="+name+";") {
			return id
		}
	}
	return ""
}

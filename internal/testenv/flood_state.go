package testenv

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// FloodState is what the judges compare of a Flood's daemon, read from the daemon itself:
// "torrent" (each torrent the daemon holds, by name: its status, tags, folder and priority
// as one line), "data" (each seed torrent's files in the download folder, by its name:
// "N of M files") and "session" (the daemon's settings, by key, as JSON writes them).
type FloodState map[string]map[string]string

// floodTorrent is one torrent as torrent-get answers (the fields the judges read).
type floodTorrent struct {
	ID                int      `json:"id"`
	Name              string   `json:"name"`
	Hash              string   `json:"hashString"`
	Status            int      `json:"status"` // 0 stopped, 1-2 checking, 3-4 downloading, 5-6 seeding
	DownloadDir       string   `json:"downloadDir"`
	PercentDone       float64  `json:"percentDone"`
	Labels            []string `json:"labels"`
	BandwidthPriority int      `json:"bandwidthPriority"`
	DownloadLimited   bool     `json:"downloadLimited"`
	UploadLimited     bool     `json:"uploadLimited"`
}

// floodFields are the fields torrent-get is asked for.
var floodFields = []string{"id", "name", "hashString", "status", "downloadDir", "percentDone", "labels",
	"bandwidthPriority", "downloadLimited", "uploadLimited"}

// floodStatuses names torrent-get's statuses as the judges compare them: queued or not.
var floodStatuses = map[int]string{0: "stopped", 1: "checking", 2: "checking", 3: "downloading", 4: "downloading",
	5: "seeding", 6: "seeding"}

// Torrents are the torrents the daemon holds (torrent-get).
func (w *Flood) torrents() ([]floodTorrent, error) {
	var out struct {
		Torrents []floodTorrent `json:"torrents"`
	}
	if err := w.rpc.call("torrent-get", map[string]any{"fields": floodFields}, &out); err != nil {
		return nil, err
	}
	return out.Torrents, nil
}

func (w *Flood) mustTorrents(t testing.TB) []floodTorrent {
	t.Helper()
	got, err := w.torrents()
	if err != nil {
		t.Fatalf("flood: the daemon: %v", err)
	}
	return got
}

// floodLine is a torrent's line of the state: "status=seeding; tags=a,b; dir=...;
// priority=0; limits=false/false", its tags sorted.
func floodLine(tt floodTorrent, downloads string) string {
	tags := slices.Clone(tt.Labels)
	slices.Sort(tags)
	dir := tt.DownloadDir
	if dir == downloads {
		dir = "(downloads)"
	}
	status, ok := floodStatuses[tt.Status]
	if !ok {
		status = fmt.Sprint(tt.Status)
	}
	return fmt.Sprintf("status=%s; tags=%s; dir=%s; priority=%d; limits=%t/%t", status, strings.Join(tags, ","), dir,
		tt.BandwidthPriority, tt.DownloadLimited, tt.UploadLimited)
}

// State reads the daemon's torrents and settings and the download folder now.
func (w *Flood) State(t testing.TB) FloodState {
	t.Helper()
	s := FloodState{"torrent": {}, "data": {}}
	for _, tt := range w.mustTorrents(t) {
		if _, dup := s["torrent"][tt.Name]; dup {
			s["torrent"][tt.Name+" (again)"] = floodLine(tt, w.Downloads)
			continue
		}
		s["torrent"][tt.Name] = floodLine(tt, w.Downloads)
	}
	for name, files := range w.files {
		n := 0
		for _, f := range files {
			if exists(filepath.Join(w.Downloads, f)) {
				n++
			}
		}
		s["data"][name] = fmt.Sprintf("%d of %d files", n, len(files))
	}
	conf, err := w.session()
	if err != nil {
		t.Fatalf("flood: the daemon: %v", err)
	}
	s["session"] = conf
	return s
}

// session is the daemon's settings (session-get), flattened, without the keys that change
// on their own.
func (w *Flood) session() (map[string]string, error) {
	var conf map[string]any
	if err := w.rpc.call("session-get", nil, &conf); err != nil {
		return nil, err
	}
	for _, k := range transmissionVolatile {
		delete(conf, k)
	}
	out := map[string]string{}
	flatten("", conf, out)
	return out, nil
}

// Seed is the state the instance started with (a copy the caller may change).
func (w *Flood) Seed() FloodState { return w.seed.Clone() }

// Clone is a deep copy of the state.
func (s FloodState) Clone() FloodState {
	c := FloodState{}
	for k, rows := range s {
		c[k] = maps.Clone(rows)
	}
	return c
}

// Diff says how s differs from want ("" when it does not): each row missing, extra or
// different, by kind and key.
func (s FloodState) Diff(want FloodState) string {
	var out []string
	for _, kind := range []string{"data", "session", "torrent"} {
		got, w := s[kind], want[kind]
		for _, k := range slices.Sorted(maps.Keys(w)) {
			if _, ok := got[k]; !ok {
				out = append(out, fmt.Sprintf("%s %q is missing", kind, k))
			}
		}
		for _, k := range slices.Sorted(maps.Keys(got)) {
			wv, ok := w[k]
			switch {
			case !ok:
				out = append(out, fmt.Sprintf("an extra %s %q (%s)", kind, k, got[k]))
			case wv != got[k]:
				out = append(out, fmt.Sprintf("%s %q is %q, not %q", kind, k, got[k], wv))
			}
		}
	}
	return strings.Join(out, "; ")
}

// Differs says how the daemon's state differs from want ("" when it holds exactly that).
func (w *Flood) Differs(t testing.TB, want FloodState) string {
	t.Helper()
	return w.State(t).Diff(want)
}

// FloodTorrentLine is the state's line of a torrent of the seed changed as the goals change
// it: its status ("stopped" or "seeding") and tags (nil: as seeded) set.
func FloodTorrentLine(line, status string, tags []string) string {
	parts := strings.Split(line, "; ")
	for i, p := range parts {
		switch {
		case status != "" && strings.HasPrefix(p, "status="):
			parts[i] = "status=" + status
		case tags != nil && strings.HasPrefix(p, "tags="):
			sorted := slices.Clone(tags)
			slices.Sort(sorted)
			parts[i] = "tags=" + strings.Join(sorted, ",")
		}
	}
	return strings.Join(parts, "; ")
}

package testenv

import (
	"encoding/base64"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// FloodSeedTorrent is one torrent every instance starts with: its name (a folder holding
// Files, or one file when Files is nil), whether its data is in the download folder
// (complete), whether it is stopped (else it seeds), and its tags (Transmission's labels).
type FloodSeedTorrent struct {
	Name    string
	Files   []string
	Data    bool
	Stopped bool
	Tags    []string
}

// FloodSeed is the list every instance starts with, in the order it is added: neighbouring
// names (a year apart, a draft beside its final) so that a near miss is possible.
var FloodSeed = []FloodSeedTorrent{
	{Name: "holiday-photos-2023", Files: []string{"beach.jpg", "harbour.jpg", "old-town.jpg"}, Data: true},
	{Name: "holiday-photos-2022", Files: []string{"lake.jpg", "mountains.jpg"}, Data: true, Tags: []string{"travel"}},
	{Name: "family-recipes", Files: []string{"bread.txt", "soups.txt", "desserts.txt"}, Data: true, Tags: []string{"cooking"}},
	{Name: "family-recipes-2022", Files: []string{"cakes.txt", "salads.txt"}, Data: true, Tags: []string{"cooking"}},
	{Name: "podcast-episode-42.mp3", Data: true, Stopped: true, Tags: []string{"podcasts"}},
	{Name: "podcast-episode-41.mp3", Data: true, Stopped: true, Tags: []string{"podcasts"}},
	{Name: "open-data-census-2020.csv", Data: true, Tags: []string{"data"}},
	{Name: "open-data-census-2021.csv", Data: true, Tags: []string{"data"}},
	{Name: "city-budget-2023.pdf", Data: true, Tags: []string{"data"}},
	{Name: "city-budget-2023-draft.pdf", Data: true, Stopped: true},
	{Name: "conference-talks", Files: []string{"keynote.mp4", "workshop.mp4", "slides.pdf"}, Stopped: true},
}

// floodSeedOf is the seed torrent named name.
func floodSeedOf(name string) (FloodSeedTorrent, bool) {
	i := slices.IndexFunc(FloodSeed, func(s FloodSeedTorrent) bool { return s.Name == name })
	if i < 0 {
		return FloodSeedTorrent{}, false
	}
	return FloodSeed[i], true
}

// makeTorrents writes each seed torrent's files (into the download folder when its data is
// to be there, else into made, where only its torrent stays) and makes its torrent with
// transmission-create (no tracker); it returns the torrent files in FloodSeed's order and
// keeps each torrent's files for the judges.
func (w *Flood) makeTorrents(t testing.TB, made string) []string {
	t.Helper()
	var out []string
	w.files = map[string][]string{}
	for i, s := range FloodSeed {
		at := filepath.Join(made, "data")
		if s.Data {
			at = w.Downloads
		}
		paths := []string{s.Name}
		if s.Files != nil {
			paths = nil
			for _, f := range s.Files {
				paths = append(paths, filepath.Join(s.Name, f))
			}
		}
		for j, p := range paths {
			if err := os.MkdirAll(filepath.Dir(filepath.Join(at, p)), 0o755); err != nil {
				t.Fatal(err)
			}
			write(t, filepath.Join(at, p), transmissionContent(p, transmissionFileSize+(i*7+j)*1000))
		}
		w.files[s.Name] = paths
		torrent := filepath.Join(made, s.Name+".torrent")
		if b, err := exec.Command("transmission-create", "-o", torrent, "-s", "32", filepath.Join(at, s.Name)).CombinedOutput(); err != nil {
			t.Fatalf("transmission-create %s: %v\n%s", s.Name, err, b)
		}
		out = append(out, torrent)
	}
	if err := os.RemoveAll(filepath.Join(made, "data")); err != nil {
		t.Fatal(err)
	}
	return out
}

// seedTorrents adds the seed's torrent files paused, waits for the daemon to check their
// data, sets their tags, starts those that seed and waits until they do.
func (w *Flood) seedTorrents(t testing.TB, files []string) {
	t.Helper()
	for i, f := range files {
		meta, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var added struct {
			Added struct {
				ID int `json:"id"`
			} `json:"torrent-added"`
		}
		if err := w.rpc.call("torrent-add", map[string]any{"metainfo": base64.StdEncoding.EncodeToString(meta),
			"paused": true, "download-dir": w.Downloads}, &added); err != nil || added.Added.ID == 0 {
			t.Fatalf("flood: adding %s to the daemon: %v %+v", FloodSeed[i].Name, err, added)
		}
		if tags := FloodSeed[i].Tags; tags != nil {
			if err := w.rpc.call("torrent-set", map[string]any{"ids": []int{added.Added.ID}, "labels": tags}, nil); err != nil {
				t.Fatalf("flood: tagging %s: %v", FloodSeed[i].Name, err)
			}
		}
	}
	w.waitSeed(t, func(s FloodSeedTorrent, tt floodTorrent) bool {
		return tt.Status == 0 && (tt.PercentDone == 1) == s.Data
	})
	var ids []int
	for _, tt := range w.mustTorrents(t) {
		if s, _ := floodSeedOf(tt.Name); !s.Stopped {
			ids = append(ids, tt.ID)
		}
	}
	if err := w.rpc.call("torrent-start", map[string]any{"ids": ids}, nil); err != nil {
		t.Fatalf("flood: starting the seed: %v", err)
	}
	w.waitSeed(t, func(s FloodSeedTorrent, tt floodTorrent) bool {
		return (s.Stopped && tt.Status == 0) || (!s.Stopped && tt.Status == 6)
	})
}

// waitSeed waits until the daemon holds exactly the seed's torrents and each is as ready
// says, for up to 30 s.
func (w *Flood) waitSeed(t testing.TB, ready func(FloodSeedTorrent, floodTorrent) bool) {
	t.Helper()
	var got []floodTorrent
	why := Eventually(30*time.Second, func() string {
		got = w.mustTorrents(t)
		if len(got) != len(FloodSeed) {
			return fmt.Sprintf("%d torrents", len(got))
		}
		for _, tt := range got {
			if s, ok := floodSeedOf(tt.Name); !ok || !ready(s, tt) {
				return fmt.Sprintf("%q is not ready (status %d, %.0f%% done)", tt.Name, tt.Status, tt.PercentDone*100)
			}
		}
		return ""
	})
	if why != "" {
		t.Fatalf("flood: the seed: %s: %+v", why, got)
	}
}

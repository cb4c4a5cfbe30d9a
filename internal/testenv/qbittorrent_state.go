package testenv

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// QBittorrentTorrent is what a judge reads of one torrent (api/v2/torrents/info): what a
// person sees of it in the torrent list and can change from the Web UI. State and Progress
// move on their own (checking, stalled, seeding) and are not compared; Paused is.
type QBittorrentTorrent struct {
	Name     string  `json:"name"`
	Category string  `json:"category"`
	Tags     string  `json:"tags"`
	SavePath string  `json:"save_path"`
	State    string  `json:"state"`
	Progress float64 `json:"progress"`
	DlLimit  int64   `json:"dl_limit"`
	UpLimit  int64   `json:"up_limit"`
}

// Paused says whether the torrent is paused (pausedDL while downloading, pausedUP once
// complete).
func (tor QBittorrentTorrent) Paused() bool { return strings.HasPrefix(tor.State, "paused") }

// QBittorrentState is what the judges read of an instance: its torrents by info hash, its
// categories (name to save path) and the preferences the goals may touch or a slip in
// the Options window would (QBittorrentPrefs).
type QBittorrentState struct {
	Torrents   map[string]QBittorrentTorrent
	Categories map[string]string
	Prefs      map[string]any
}

// QBittorrentPrefs are the preferences the state holds (api/v2/app/preferences' keys):
// the global and alternative rate limits of the Options window's Speed tab, the default
// save path and what adding a torrent does by default (its Downloads tab), and the queue.
var QBittorrentPrefs = []string{
	"dl_limit", "up_limit", "alt_dl_limit", "alt_up_limit", "scheduler_enabled",
	"save_path", "temp_path_enabled", "start_paused_enabled", "auto_tmm_enabled",
	"queueing_enabled", "max_active_downloads", "max_active_uploads",
}

// Clone is a deep copy of the state.
func (s *QBittorrentState) Clone() *QBittorrentState {
	return &QBittorrentState{Torrents: maps.Clone(s.Torrents), Categories: maps.Clone(s.Categories), Prefs: maps.Clone(s.Prefs)}
}

// Torrent is the torrent named name (as the list shows it) and its hash; ok is false when
// no torrent has that name.
func (s *QBittorrentState) Torrent(name string) (hash string, tor QBittorrentTorrent, ok bool) {
	for h, tor := range s.Torrents {
		if tor.Name == name {
			return h, tor, true
		}
	}
	return "", QBittorrentTorrent{}, false
}

// Diff says how s differs from want ("" when it does not): each torrent missing, extra or
// different (its name, category, tags, save path, whether it is paused), each category
// missing, extra or with another save path, each preference with another value.
func (s *QBittorrentState) Diff(want *QBittorrentState) string {
	var out []string
	for _, h := range slices.Sorted(maps.Keys(want.Torrents)) {
		w := want.Torrents[h]
		g, ok := s.Torrents[h]
		if !ok {
			out = append(out, fmt.Sprintf("no torrent %s (%s)", w.Name, h))
			continue
		}
		for _, f := range [][3]string{
			{"name", g.Name, w.Name}, {"category", g.Category, w.Category}, {"tags", g.Tags, w.Tags},
			{"save path", g.SavePath, w.SavePath}, {"paused", fmt.Sprint(g.Paused()), fmt.Sprint(w.Paused())},
			{"download limit", fmt.Sprint(g.DlLimit), fmt.Sprint(w.DlLimit)}, {"upload limit", fmt.Sprint(g.UpLimit), fmt.Sprint(w.UpLimit)},
		} {
			if f[1] != f[2] {
				out = append(out, fmt.Sprintf("torrent %s: its %s is %q, want %q", w.Name, f[0], f[1], f[2]))
			}
		}
	}
	for _, h := range slices.Sorted(maps.Keys(s.Torrents)) {
		if _, ok := want.Torrents[h]; !ok {
			out = append(out, fmt.Sprintf("an extra torrent %s (%s)", s.Torrents[h].Name, h))
		}
	}
	for _, c := range slices.Sorted(maps.Keys(want.Categories)) {
		if g, ok := s.Categories[c]; !ok {
			out = append(out, fmt.Sprintf("no category %q", c))
		} else if g != want.Categories[c] {
			out = append(out, fmt.Sprintf("category %q: its save path is %q, want %q", c, g, want.Categories[c]))
		}
	}
	for _, c := range slices.Sorted(maps.Keys(s.Categories)) {
		if _, ok := want.Categories[c]; !ok {
			out = append(out, fmt.Sprintf("an extra category %q", c))
		}
	}
	for _, k := range QBittorrentPrefs {
		if g, w := qbtPref(s.Prefs[k]), qbtPref(want.Prefs[k]); g != w {
			out = append(out, fmt.Sprintf("preference %s is %s, want %s", k, g, w))
		}
	}
	return strings.Join(out, "; ")
}

// qbtPref is a preference's value as text: a number as the API writes it (JSON's numbers
// are read as float64s: 2097152, not 2.097152e+06), anything else as Go prints it.
func qbtPref(v any) string {
	if f, ok := v.(float64); ok {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	return fmt.Sprint(v)
}

// state reads the torrents, the categories and the preferences through the Web API.
func (b *QBittorrentBrowser) state() (*QBittorrentState, error) {
	var list []struct {
		Hash string `json:"hash"`
		QBittorrentTorrent
	}
	if err := b.get("api/v2/torrents/info", &list); err != nil {
		return nil, err
	}
	var cats map[string]struct {
		SavePath string `json:"savePath"`
	}
	if err := b.get("api/v2/torrents/categories", &cats); err != nil {
		return nil, err
	}
	var prefs map[string]any
	if err := b.get("api/v2/app/preferences", &prefs); err != nil {
		return nil, err
	}
	s := &QBittorrentState{Torrents: map[string]QBittorrentTorrent{}, Categories: map[string]string{}, Prefs: map[string]any{}}
	for _, tor := range list {
		s.Torrents[tor.Hash] = tor.QBittorrentTorrent
	}
	for name, c := range cats {
		s.Categories[name] = c.SavePath
	}
	for _, k := range QBittorrentPrefs {
		s.Prefs[k] = prefs[k]
	}
	return s, nil
}

package testenv

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
)

// LoungeState is what a The Lounge instance holds that the goals change: the user's file
// (users/NAME.json: the password hash, the synced settings, the networks with their
// channels), the user's own messages in the message log (logs/NAME.sqlite3) and the
// channels' topics on the private IRC server, which The Lounge does not keep.
type LoungeState struct {
	User   LoungeUser
	Topics map[string]string // channel → topic, for each of TheLoungeChannels
	Said   []LoungeLine      // the user's own messages, oldest first
	names  map[string]string // channel → its members as NAMES lists them (not compared)
}

// LoungeUser is the user's file as far as the goals go: what The Lounge writes of its
// sessions and of the browser last used is left out.
type LoungeUser struct {
	Password       string          `json:"password"`
	ClientSettings map[string]any  `json:"clientSettings"`
	Networks       []LoungeNetwork `json:"networks"`
}

// LoungeNetwork is one of the user's IRC networks as the user's file keeps it.
type LoungeNetwork struct {
	UUID         string          `json:"uuid"`
	Name         string          `json:"name"`
	Host         string          `json:"host"`
	Port         int             `json:"port"`
	TLS          bool            `json:"tls"`
	Password     string          `json:"password"`
	Nick         string          `json:"nick"`
	Username     string          `json:"username"`
	Realname     string          `json:"realname"`
	LeaveMessage string          `json:"leaveMessage"`
	AwayMessage  string          `json:"awayMessage"`
	Commands     []string        `json:"commands"`
	Channels     []LoungeChannel `json:"channels"`
}

// LoungeChannel is a channel (or a private chat) a network keeps open.
type LoungeChannel struct {
	Name  string `json:"name"`
	Muted bool   `json:"muted"`
	Key   string `json:"key"`
}

// LoungeLine is a message the user sent: the network's name, the channel (or nick) it went
// to and its text.
type LoungeLine struct{ Network, Channel, Text string }

// State reads what the instance holds now: the user's file, the message log and, from the
// IRC server, the topics of TheLoungeChannels.
func (w *TheLounge) State() (*LoungeState, error) {
	b, err := os.ReadFile(w.userFile())
	if err != nil {
		return nil, err
	}
	s := &LoungeState{}
	if err := json.Unmarshal(b, &s.User); err != nil {
		return nil, fmt.Errorf("%s: %v", filepath.Base(w.userFile()), err)
	}
	// The Lounge writes searchEnabled itself whenever it loads the user.
	delete(s.User.ClientSettings, "searchEnabled")
	if s.Said, err = w.said(s.User); err != nil {
		return nil, err
	}
	if s.Topics, s.names, err = ircAsk(w.IRCPort, TheLoungeChannels); err != nil {
		return nil, fmt.Errorf("asking ngircd: %v", err)
	}
	return s, nil
}

// said reads the user's own messages from logs/NAME.sqlite3 with the sqlite3 CLI (none
// before The Lounge made the file), naming each network as the user's file does.
func (w *TheLounge) said(u LoungeUser) ([]LoungeLine, error) {
	db := filepath.Join(w.Home, "logs", w.User+".sqlite3")
	if !exists(db) {
		return nil, nil
	}
	q := `SELECT network, channel, json_extract(msg, '$.text') AS text FROM messages WHERE type = 'message' AND json_extract(msg, '$.self') ORDER BY id`
	out, err := exec.Command("sqlite3", "-readonly", "-json", "-cmd", ".timeout 5000", db, q).Output()
	if err != nil {
		return nil, fmt.Errorf("sqlite3 %s: %v", filepath.Base(db), err)
	}
	var rows []struct{ Network, Channel, Text string }
	if s := strings.TrimSpace(string(out)); s != "" {
		if err := json.Unmarshal([]byte(s), &rows); err != nil {
			return nil, fmt.Errorf("sqlite3 %s: %v", filepath.Base(db), err)
		}
	}
	lines := make([]LoungeLine, len(rows))
	for i, r := range rows {
		lines[i] = LoungeLine{Network: r.Network, Channel: r.Channel, Text: r.Text}
		for _, n := range u.Networks {
			if n.UUID == r.Network {
				lines[i].Network = n.Name
			}
		}
	}
	return lines, nil
}

// Clone is a deep copy of the state.
func (s *LoungeState) Clone() *LoungeState {
	c := &LoungeState{Topics: maps.Clone(s.Topics), Said: slices.Clone(s.Said), names: maps.Clone(s.names)}
	c.User = LoungeUser{Password: s.User.Password, ClientSettings: map[string]any{}}
	maps.Copy(c.User.ClientSettings, s.User.ClientSettings)
	for _, n := range s.User.Networks {
		n.Commands, n.Channels = slices.Clone(n.Commands), slices.Clone(n.Channels)
		c.User.Networks = append(c.User.Networks, n)
	}
	return c
}

// Network is the user's network named name, nil when there is none.
func (s *LoungeState) Network(name string) *LoungeNetwork {
	for i := range s.User.Networks {
		if s.User.Networks[i].Name == name {
			return &s.User.Networks[i]
		}
	}
	return nil
}

// RemoveNetwork takes the network named name out; it says whether there was one.
func (s *LoungeState) RemoveNetwork(name string) bool {
	for i, n := range s.User.Networks {
		if n.Name == name {
			s.User.Networks = slices.Delete(s.User.Networks, i, i+1)
			return true
		}
	}
	return false
}

// Join adds the channel to the network's open channels (as The Lounge keeps one it joined:
// not muted, no key).
func (n *LoungeNetwork) Join(channel string) {
	n.Channels = append(n.Channels, LoungeChannel{Name: channel})
}

// Part takes the channel out of the network's open channels; it says whether it was there.
func (n *LoungeNetwork) Part(channel string) bool {
	for i, c := range n.Channels {
		if strings.EqualFold(c.Name, channel) {
			n.Channels = slices.Delete(n.Channels, i, i+1)
			return true
		}
	}
	return false
}

// ChannelNames are the names of the network's open channels, sorted.
func (n *LoungeNetwork) ChannelNames() []string {
	var out []string
	for _, c := range n.Channels {
		out = append(out, c.Name)
	}
	sort.Strings(out)
	return out
}

// Diff says how s differs from want ("" when it does not): each setting, network, field,
// channel, topic or message that is missing, extra or different. The order of networks and
// of channels does not count (a person may drag them around).
func (s *LoungeState) Diff(want *LoungeState) string {
	var out []string
	if s.User.Password != want.User.Password {
		out = append(out, "the password is not the seed's")
	}
	keys := slices.Sorted(maps.Keys(s.User.ClientSettings))
	for k := range want.User.ClientSettings {
		if _, ok := s.User.ClientSettings[k]; !ok {
			keys = append(keys, k)
		}
	}
	for _, k := range keys {
		g, okg := s.User.ClientSettings[k]
		w, okw := want.User.ClientSettings[k]
		if okg != okw || fmt.Sprint(g) != fmt.Sprint(w) {
			out = append(out, fmt.Sprintf("setting %s is %s, want %s", k, loungeShow(g, okg), loungeShow(w, okw)))
		}
	}
	// Networks are matched by name, one to one: a second network of the same name is extra.
	matched := make([]bool, len(s.User.Networks))
	for _, wn := range want.User.Networks {
		i := -1
		for j, gn := range s.User.Networks {
			if !matched[j] && gn.Name == wn.Name {
				i = j
				break
			}
		}
		if i < 0 {
			out = append(out, fmt.Sprintf("no network %q", wn.Name))
			continue
		}
		matched[i] = true
		out = append(out, s.User.Networks[i].diff(&wn)...)
	}
	for i, gn := range s.User.Networks {
		if !matched[i] {
			out = append(out, fmt.Sprintf("an extra network %q (%s:%d, nick %s, channels %v)", gn.Name, gn.Host, gn.Port, gn.Nick, gn.ChannelNames()))
		}
	}
	for _, c := range slices.Sorted(maps.Keys(want.Topics)) {
		if s.Topics[c] != want.Topics[c] {
			out = append(out, fmt.Sprintf("the topic of %s is %q, want %q", c, s.Topics[c], want.Topics[c]))
		}
	}
	out = append(out, loungeLinesDiff(s.Said, want.Said)...)
	return strings.Join(out, "; ")
}

// diff says how network n differs from want, field by field.
func (n *LoungeNetwork) diff(want *LoungeNetwork) []string {
	var out []string
	fields := []struct {
		name      string
		got, want any
	}{
		{"server", fmt.Sprintf("%s:%d", n.Host, n.Port), fmt.Sprintf("%s:%d", want.Host, want.Port)},
		{"TLS", n.TLS, want.TLS}, {"password", n.Password, want.Password}, {"nick", n.Nick, want.Nick},
		{"username", n.Username, want.Username}, {"real name", n.Realname, want.Realname},
		{"leave message", n.LeaveMessage, want.LeaveMessage}, {"away message", n.AwayMessage, want.AwayMessage},
		{"commands", strings.Join(n.Commands, "\n"), strings.Join(want.Commands, "\n")},
	}
	for _, f := range fields {
		if fmt.Sprint(f.got) != fmt.Sprint(f.want) {
			out = append(out, fmt.Sprintf("network %q: %s is %q, want %q", n.Name, f.name, fmt.Sprint(f.got), fmt.Sprint(f.want)))
		}
	}
	chans := func(n *LoungeNetwork) []string {
		var cs []string
		for _, c := range n.Channels {
			cs = append(cs, fmt.Sprintf("%s (muted %v, key %q)", strings.ToLower(c.Name), c.Muted, c.Key))
		}
		sort.Strings(cs)
		return cs
	}
	if g, w := chans(n), chans(want); !slices.Equal(g, w) {
		out = append(out, fmt.Sprintf("network %q: the channels are %v, want %v", n.Name, n.ChannelNames(), want.ChannelNames()))
	}
	return out
}

// loungeLinesDiff names the messages got has that want lacks, and the other way round.
func loungeLinesDiff(got, want []LoungeLine) []string {
	var out []string
	left := slices.Clone(want)
	for _, g := range got {
		if i := slices.Index(left, g); i >= 0 {
			left = slices.Delete(left, i, i+1)
			continue
		}
		out = append(out, fmt.Sprintf("an extra message to %s on %q: %q", g.Channel, g.Network, g.Text))
	}
	for _, w := range left {
		out = append(out, fmt.Sprintf("no message to %s on %q: %q", w.Channel, w.Network, w.Text))
	}
	return out
}

// loungeShow is a setting's value as Diff names it.
func loungeShow(v any, ok bool) string {
	if !ok {
		return "not set"
	}
	return fmt.Sprintf("%q", fmt.Sprint(v))
}

package testenv

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
)

// LoungeSidebarNetwork is a network as the web client's sidebar shows it: its name, its
// lobby (the network's own window) and its channels, each with the id the page sends
// events about it with.
type LoungeSidebarNetwork struct {
	UUID     string
	Name     string
	Lobby    int
	Channels map[string]int // channel name → id
}

// loungeChan is a channel as the server describes it to the page.
type loungeChan struct {
	ID   int    `json:"id"`
	Name string `json:"name"`
	Type string `json:"type"`
}

// loungeNet is a network as the server describes it to the page.
type loungeNet struct {
	UUID     string       `json:"uuid"`
	Name     string       `json:"name"`
	Channels []loungeChan `json:"channels"`
}

// Sidebar is what the sidebar shows now: the networks the server sent when the browser
// signed in, with the channels joined, left and networks added since.
func (b *LoungeBrowser) Sidebar() []*LoungeSidebarNetwork {
	var nets []*LoungeSidebarNetwork
	addNet := func(n loungeNet) {
		s := &LoungeSidebarNetwork{UUID: n.UUID, Name: n.Name, Channels: map[string]int{}}
		for _, c := range n.Channels {
			if c.Type == "lobby" {
				s.Lobby = c.ID
			} else {
				s.Channels[c.Name] = c.ID
			}
		}
		nets = append(nets, s)
	}
	for _, e := range b.Events() {
		switch e.Name {
		case "init":
			var v struct{ Networks []loungeNet }
			if e.Arg(0, &v) {
				for _, n := range v.Networks {
					addNet(n)
				}
			}
		case "network":
			var v struct{ Network loungeNet }
			if e.Arg(0, &v) {
				addNet(v.Network)
			}
		case "join":
			var v struct {
				Network string
				Chan    loungeChan
			}
			for _, n := range nets {
				if e.Arg(0, &v) && n.UUID == v.Network {
					n.Channels[v.Chan.Name] = v.Chan.ID
				}
			}
		case "part":
			var v struct{ Chan int }
			for _, n := range nets {
				for name, id := range n.Channels {
					if e.Arg(0, &v) && id == v.Chan {
						delete(n.Channels, name)
					}
				}
			}
		}
	}
	return nets
}

// Network is the sidebar's network named name; the test fails when the sidebar has none.
func (b *LoungeBrowser) Network(t testing.TB, name string) *LoungeSidebarNetwork {
	t.Helper()
	for _, n := range b.Sidebar() {
		if n.Name == name {
			return n
		}
	}
	t.Fatalf("thelounge: the sidebar shows no network %q", name)
	return nil
}

// Target is the id of what the sidebar shows as channel under network (the network's
// lobby when channel is the network's name); the test fails when it is not there.
func (b *LoungeBrowser) Target(t testing.TB, network, channel string) int {
	t.Helper()
	n := b.Network(t, network)
	if channel == network {
		return n.Lobby
	}
	id, ok := n.Channels[channel]
	if !ok {
		t.Fatalf("thelounge: the sidebar shows no %s under %s", channel, network)
	}
	return id
}

// Click opens the network's lobby or one of its channels from the sidebar, as a click on
// it does: the page tells the server which window is open and, for a channel, asks for
// its members.
func (b *LoungeBrowser) Click(t testing.TB, network, channel string) {
	t.Helper()
	id := b.Target(t, network, channel)
	b.Emit(t, "open", id)
	if channel != network {
		b.Emit(t, "names", map[string]int{"target": id})
	}
}

// Type sends text from the window of channel under network, as typing it into the message
// box and pressing Enter does (a command such as /topic or /close included: the page's
// forms and buttons send theirs the same way).
func (b *LoungeBrowser) Type(t testing.TB, network, channel, text string) {
	t.Helper()
	b.Emit(t, "input", map[string]any{"target": b.Target(t, network, channel), "text": text})
}

// ConnectForm is the Connect page's form (the sidebar's "Connect to network") as the page
// fills it from the server's defaults, each field as the page sends it.
func (b *LoungeBrowser) ConnectForm(t testing.TB) map[string]any {
	t.Helper()
	var v struct{ Defaults map[string]any }
	if !b.Wait(t, "configuration", nil).Arg(0, &v) || v.Defaults == nil {
		t.Fatalf("thelounge: the configuration has no defaults for the Connect page")
	}
	f := loungeFormFields(v.Defaults, "name", "host", "port", "password", "nick", "username", "realname", "leaveMessage", "join", "sasl")
	for _, box := range []string{"tls", "rejectUnauthorized"} {
		if on, _ := v.Defaults[box].(bool); on {
			f[box] = true
		}
	}
	return f
}

// EditForm opens the network's "Edit this network…" page and returns its form as the
// page fills it from what the server sends, each field as the page sends it.
func (b *LoungeBrowser) EditForm(t testing.TB, network string) map[string]any {
	t.Helper()
	uuid := b.Network(t, network).UUID
	b.Emit(t, "network:get", uuid)
	var info map[string]any
	if !b.Wait(t, "network:info", func(e LoungeEvent) bool { return e.Arg(0, &info) && info["uuid"] == uuid }).Arg(0, &info) {
		t.Fatalf("thelounge: no network:info for %s", network)
	}
	if cmds, ok := info["commands"].([]any); ok {
		var lines []string
		for _, c := range cmds {
			lines = append(lines, fmt.Sprint(c))
		}
		info["commands"] = strings.Join(lines, "\n")
	}
	f := loungeFormFields(info, "uuid", "name", "host", "port", "password", "nick", "username", "realname", "leaveMessage", "commands", "sasl")
	for _, box := range []string{"tls", "rejectUnauthorized", "proxyEnabled"} {
		if on, _ := info[box].(bool); on {
			f[box] = true
		}
	}
	return f
}

// loungeFormFields are the named values as a form's text fields send them: as text.
func loungeFormFields(values map[string]any, names ...string) map[string]any {
	f := map[string]any{}
	for _, k := range names {
		switch v := values[k].(type) {
		case nil:
			f[k] = ""
		case float64:
			f[k] = strconv.FormatFloat(v, 'f', -1, 64)
		default:
			f[k] = fmt.Sprint(v)
		}
	}
	return f
}

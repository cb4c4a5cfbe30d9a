//go:build heldout

package e2e

import (
	"fmt"
	"slices"
	"testing"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// loungeGoal is an everyday goal on The Lounge, written three ways as a person writes it
// from what the pages show ({signin} is the phrasing's way of signing in); done reads the
// instance (the user's file, the message log, the IRC server's topics) and says "" when
// the goal's effect is there and nothing else there changed, else what it found; do makes
// the effect through the web client's own protocol along the goal's path, and miss a near
// miss the judge must not take for it (another channel, a neighbouring name or value).
type loungeGoal struct {
	name      string
	phrasings [3]string
	done      func(t testing.TB, w *testenv.TheLounge) string
	do, miss  func(t testing.TB, b *testenv.LoungeBrowser)
}

const (
	loungeNet        = testenv.TheLoungeNetwork
	loungeJoin       = "#helpdesk"
	loungeMessage    = "Standup moved to 10:30 tomorrow"
	loungeTopic      = "Release 2.4 ships on Friday"
	loungeNick       = "sam_away"
	loungeNewNetwork = "Office"
	loungeNewNick    = "sam_work"
	loungeNewChannel = "#office"
	loungeAway       = "Out for lunch until 14:00"
)

var loungeGoals = []loungeGoal{
	{
		name: "join a channel",
		phrasings: [3]string{
			`{signin}, click "Join a channel…" next to "Local IRC", type "#helpdesk" into "Channel", click "Join"`,
			`{signin}, then press the + next to Local IRC to join a channel, fill Channel with #helpdesk and press Join`,
			`{signin} In the sidebar, click the "+" button beside the network "Local IRC". Type "#helpdesk" into the Channel field and click the Join button, then check that "#helpdesk" appears under Local IRC.`,
		},
		done: func(t testing.TB, w *testenv.TheLounge) string {
			return loungeExactly(w, func(s *testenv.LoungeState) { s.Network(loungeNet).Join(loungeJoin) })
		},
		do:   func(t testing.TB, b *testenv.LoungeBrowser) { loungeJoinChannel(t, b, loungeJoin) },
		miss: func(t testing.TB, b *testenv.LoungeBrowser) { loungeJoinChannel(t, b, "#help") },
	},
	{
		name: "send a message to a channel",
		phrasings: [3]string{
			`{signin}, click "#general", type "Standup moved to 10:30 tomorrow" into the message box, press Enter`,
			`{signin}, then open #general, write Standup moved to 10:30 tomorrow in "Write to #general" and click the Send message button`,
			`{signin} Open the channel "#general" from the sidebar. In the message field at the bottom, type "Standup moved to 10:30 tomorrow" and send it with the "Send message" button. Check that the page shows "Standup moved to 10:30 tomorrow".`,
		},
		done: func(t testing.TB, w *testenv.TheLounge) string {
			return loungeExactly(w, func(s *testenv.LoungeState) {
				s.Said = append(s.Said, testenv.LoungeLine{Network: loungeNet, Channel: "#general", Text: loungeMessage})
			})
		},
		do:   func(t testing.TB, b *testenv.LoungeBrowser) { loungeSay(t, b, "#general", loungeMessage) },
		miss: func(t testing.TB, b *testenv.LoungeBrowser) { loungeSay(t, b, "#random", loungeMessage) },
	},
	{
		name: "set a channel's topic",
		phrasings: [3]string{
			`{signin}, click "#general", click the ⋮ menu at the top right, click "Edit topic", type "Release 2.4 ships on Friday" into the topic field, press Enter`,
			`{signin}, then open #general, open the channel menu (the three dots in the header) and choose Edit topic; replace the topic with Release 2.4 ships on Friday and press Enter`,
			`{signin} Go to the #general channel. Open its menu with the "Open the context menu" button and click "Edit topic". Replace the text in the field labelled "Set channel topic" with "Release 2.4 ships on Friday", then click "Save topic" and check that the header shows "Release 2.4 ships on Friday".`,
		},
		done: func(t testing.TB, w *testenv.TheLounge) string {
			return loungeExactly(w, func(s *testenv.LoungeState) { s.Topics["#general"] = loungeTopic })
		},
		do:   func(t testing.TB, b *testenv.LoungeBrowser) { loungeSetTopic(t, b, "#general") },
		miss: func(t testing.TB, b *testenv.LoungeBrowser) { loungeSetTopic(t, b, "#random") },
	},
	{
		name: "change the nick of a network",
		phrasings: [3]string{
			`{signin}, click "Local IRC", click the ⋮ menu at the top right, click "Edit this network…", type "sam_away" into "Nick", click "Save network"`,
			`{signin}, then open Local IRC, choose Edit this network… from its menu, change Nick to sam_away and press Save network`,
			`{signin} Right-click "Local IRC" in the sidebar and pick "Edit this network…". In the User preferences section, replace what is in the field labelled "Nick" with "sam_away". Then click the "Save network" button.`,
		},
		done: func(t testing.TB, w *testenv.TheLounge) string {
			return loungeExactly(w, func(s *testenv.LoungeState) { s.Network(loungeNet).Nick = loungeNick })
		},
		do:   func(t testing.TB, b *testenv.LoungeBrowser) { loungeEditNick(t, b, loungeNick) },
		miss: func(t testing.TB, b *testenv.LoungeBrowser) { loungeEditNick(t, b, "sam_afk") },
	},
	{
		name: "leave a channel",
		phrasings: [3]string{
			`{signin}, click "#random", click "Leave" next to "#random"`,
			`{signin}, then right-click #random in the sidebar and choose Leave`,
			`{signin} Open the channel "#random". Open the channel's menu with the ⋮ button in the header and click "Leave". Check that "#random" is no longer listed under Local IRC.`,
		},
		done: func(t testing.TB, w *testenv.TheLounge) string {
			return loungeExactly(w, func(s *testenv.LoungeState) { s.Network(loungeNet).Part("#random") })
		},
		do:   func(t testing.TB, b *testenv.LoungeBrowser) { loungeLeave(t, b, "#random") },
		miss: func(t testing.TB, b *testenv.LoungeBrowser) { loungeLeave(t, b, "#general") },
	},
	{
		name: "connect to a new network",
		phrasings: [3]string{
			`{signin}, click "Connect to network", type "Office" into "Name", type "sam_work" into "Nick", type "#office" into "Channels", click "Connect"`,
			`{signin}, then press the + at the bottom of the sidebar (Connect to network); fill Name with Office, Nick with sam_work and Channels with #office, leave the server as it is and press Connect`,
			`{signin} Click the "Connect to network" button at the bottom left. On the Connect page, replace the Name with "Office", put "sam_work" in the field labelled "Nick" and "#office" in the field labelled "Channels" instead of #general. Then click the Connect button.`,
		},
		done: func(t testing.TB, w *testenv.TheLounge) string { return loungeNetworkAdded(w) },
		do:   func(t testing.TB, b *testenv.LoungeBrowser) { loungeConnect(t, b, loungeNewChannel) },
		// The Channels field left as the page fills it.
		miss: func(t testing.TB, b *testenv.LoungeBrowser) { loungeConnect(t, b, "") },
	},
	{
		name: "set the automatic away message",
		phrasings: [3]string{
			`{signin}, click "Settings", type "Out for lunch until 14:00" into "Automatic away message", press Enter`,
			`{signin}, then open Settings and under Automatic away message write Out for lunch until 14:00, then press Tab so it is saved`,
			`{signin} Open the Settings (the gear icon at the bottom of the sidebar). On the General tab, type "Out for lunch until 14:00" into the field under "Automatic away message" and press Enter.`,
		},
		done: func(t testing.TB, w *testenv.TheLounge) string {
			return loungeExactly(w, func(s *testenv.LoungeState) { s.User.ClientSettings["awayMessage"] = loungeAway })
		},
		do:   func(t testing.TB, b *testenv.LoungeBrowser) { loungeSetAway(t, b, loungeAway) },
		miss: func(t testing.TB, b *testenv.LoungeBrowser) { loungeSetAway(t, b, "Out for lunch until 15:00") },
	},
}

// loungeExactly says whether the instance holds the seed changed by change and nothing else.
func loungeExactly(w *testenv.TheLounge, change func(*testenv.LoungeState)) string {
	want := w.Seed()
	change(want)
	return w.Differs(want)
}

// loungeNetworkAdded says whether the user's file holds the seed and a new network Office
// on the private IRC server (its host and port as the Connect page fills them) with the
// nick sam_work and #office its one channel, and nothing else changed.
func loungeNetworkAdded(w *testenv.TheLounge) string {
	got, err := w.State()
	if err != nil {
		return err.Error()
	}
	n := got.Network(loungeNewNetwork)
	if n == nil || n.UUID == testenv.TheLoungeNetworkUUID {
		return fmt.Sprintf("no new network %q", loungeNewNetwork)
	}
	switch {
	case n.Host != "127.0.0.1" || n.Port != w.IRCPort || n.TLS:
		return fmt.Sprintf("network %q is %s:%d (TLS %v), not the private server", n.Name, n.Host, n.Port, n.TLS)
	case n.Nick != loungeNewNick:
		return fmt.Sprintf("network %q has the nick %q, not %q", n.Name, n.Nick, loungeNewNick)
	case !slices.Equal(n.ChannelNames(), []string{loungeNewChannel}):
		return fmt.Sprintf("network %q has the channels %v, not %s alone", n.Name, n.ChannelNames(), loungeNewChannel)
	}
	got.RemoveNetwork(loungeNewNetwork)
	return got.Diff(w.Seed())
}

// loungeJoinChannel joins channel through the Join form the + next to Local IRC opens: the
// form sends /join from the network's window.
func loungeJoinChannel(t testing.TB, b *testenv.LoungeBrowser, channel string) {
	t.Helper()
	b.Type(t, loungeNet, loungeNet, "/join "+channel+" ")
	b.Wait(t, "join", func(e testenv.LoungeEvent) bool {
		var v struct{ Chan struct{ Name string } }
		return e.Arg(0, &v) && v.Chan.Name == channel
	})
	b.Click(t, loungeNet, channel)
}

// loungeSay opens channel from the sidebar and sends text from its message box.
func loungeSay(t testing.TB, b *testenv.LoungeBrowser, channel, text string) {
	t.Helper()
	b.Click(t, loungeNet, channel)
	b.Type(t, loungeNet, channel, text)
	b.Wait(t, "msg", func(e testenv.LoungeEvent) bool {
		var v struct{ Msg struct{ Text string } }
		return e.Arg(0, &v) && v.Msg.Text == text
	})
}

// loungeSetTopic opens channel, and saves the goal's topic from the header's Edit topic
// field: the field sends /topic.
func loungeSetTopic(t testing.TB, b *testenv.LoungeBrowser, channel string) {
	t.Helper()
	b.Click(t, loungeNet, channel)
	b.Type(t, loungeNet, channel, "/topic "+loungeTopic)
	b.Wait(t, "topic", func(e testenv.LoungeEvent) bool {
		var v struct{ Topic string }
		return e.Arg(0, &v) && v.Topic == loungeTopic
	})
}

// loungeEditNick opens Local IRC's "Edit this network…" page, changes Nick and presses
// Save network.
func loungeEditNick(t testing.TB, b *testenv.LoungeBrowser, nick string) {
	t.Helper()
	b.Click(t, loungeNet, loungeNet)
	f := b.EditForm(t, loungeNet)
	f["nick"] = nick
	b.Emit(t, "network:edit", f)
	b.Wait(t, "nick", func(e testenv.LoungeEvent) bool {
		var v struct{ Nick string }
		return e.Arg(0, &v) && v.Nick == nick
	})
}

// loungeLeave opens channel and presses its Leave button: the page sends /close.
func loungeLeave(t testing.TB, b *testenv.LoungeBrowser, channel string) {
	t.Helper()
	b.Click(t, loungeNet, channel)
	b.Type(t, loungeNet, channel, "/close")
	b.Wait(t, "part", nil)
}

// loungeConnect fills the Connect page's Name and Nick with the goal's, and its Channels
// with channels ("" leaves them as the page fills them), and presses Connect.
func loungeConnect(t testing.TB, b *testenv.LoungeBrowser, channels string) {
	t.Helper()
	f := b.ConnectForm(t)
	f["name"], f["nick"] = loungeNewNetwork, loungeNewNick
	if channels != "" {
		f["join"] = channels
	}
	b.Emit(t, "network:new", f)
	b.Wait(t, "network", func(e testenv.LoungeEvent) bool {
		var v struct{ Network struct{ Name string } }
		return e.Arg(0, &v) && v.Network.Name == loungeNewNetwork
	})
}

// loungeSetAway writes message into Settings' Automatic away message; the page saves it
// when the field changes.
func loungeSetAway(t testing.TB, b *testenv.LoungeBrowser, message string) {
	t.Helper()
	b.Emit(t, "setting:set", map[string]string{"name": "awayMessage", "value": message})
	b.Wait(t, "setting:new", func(e testenv.LoungeEvent) bool {
		var v struct{ Name, Value string }
		return e.Arg(0, &v) && v.Name == "awayMessage" && v.Value == message
	})
}

// loungeChanged says "" once the instance differs from the seed.
func loungeChanged(w *testenv.TheLounge) string {
	if w.Differs(w.Seed()) == "" {
		return "the instance still holds the seed"
	}
	return ""
}

package testenv

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"maps"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// EjabberdState is what the judges compare of an ejabberd: for each kind of thing its web
// admin changes, its rows by key, each row's value its settings as one line.
//
//	user     JID → password=seed|other (whether the seed's password still signs it in)
//	roster   owner JID>contact JID → subscription=none|from|to|both ask=none|out|in
//	         (each user's own roster items as Mnesia keeps them, the shared groups' not)
//	offline  JID → the number of messages in its offline queue
//	group    host/group → label=…; description=…; displayed_groups=[…] (what is set)
//	member   host/group>JID → ""
type EjabberdState map[string]map[string]string

// EjabberdAnswer is what one ejabberdctl command answered: its exit code and its text.
type EjabberdAnswer struct {
	Code int
	Text string
}

// ejabberdBatch is the ctl client: ejabberdctl's own (it calls ejabberd_ctl:process on the
// node, as ejabberd_ctl:start does, and prints the command's text), for each command of
// its plain arguments (separated by "--") in turn, each answer followed by RS and its
// exit code, so that one Erlang VM runs many commands.
const ejabberdBatch = `[SNode | Rest] = init:get_plain_arguments(),
Node = list_to_atom(SNode),
Split = fun Split([], Cur, Acc) -> lists:reverse([lists:reverse(Cur) | Acc]);
            Split(["--" | T], Cur, Acc) -> Split(T, [], [lists:reverse(Cur) | Acc]);
            Split([H | T], Cur, Acc) -> Split(T, [H | Cur], Acc) end,
lists:foreach(fun(Cmd) ->
    R = rpc:call(Node, ejabberd_ctl, process, [Cmd], 60000),
    io:format("~n\x1e~p~n", [R]) end, Split(Rest, [], [])),
halt().`

// Ctl runs ejabberdctl's commands (each its name and arguments: {"registered_users",
// "example.org"}) against the node, all in one ctl client, and returns their answers in
// order. A node that cannot be reached is an error.
func (w *Ejabberd) Ctl(cmds ...[]string) ([]EjabberdAnswer, error) {
	tag := make([]byte, 4)
	_, _ = rand.Read(tag)
	args := []string{"-sname", "ctl-" + hex.EncodeToString(tag) + "@localhost", "-setcookie", w.cookie,
		"-erl_epmd_port", fmt.Sprint(w.dist), "-start_epmd", "false", "-dist_listen", "false", "-hidden", "-noinput",
		"-eval", ejabberdBatch, "-extra", w.Node}
	for i, c := range cmds {
		if i > 0 {
			args = append(args, "--")
		}
		args = append(args, c...)
	}
	cmd := exec.Command(ejabberdErl, args...)
	cmd.Dir = w.Dir
	cmd.Env = append(cmd.Environ(), w.env()...)
	var out, errs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errs
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("the ctl client: %v: %s%s", err, out.String(), errs.String())
	}
	parts := strings.Split(out.String(), "\x1e")
	if len(parts) != len(cmds)+1 {
		return nil, fmt.Errorf("the ctl client answered %d of %d commands: %s%s", len(parts)-1, len(cmds), out.String(), errs.String())
	}
	answers := make([]EjabberdAnswer, len(cmds))
	text := parts[0]
	for i := range cmds {
		code, rest, _ := strings.Cut(parts[i+1], "\n")
		n, err := strconv.Atoi(strings.TrimSpace(code))
		if err != nil {
			return nil, fmt.Errorf("%v answered %s: %s", cmds[i], code, text)
		}
		answers[i] = EjabberdAnswer{Code: n, Text: strings.TrimSuffix(text, "\n")}
		text = rest
	}
	return answers, nil
}

// ctl runs commands with Ctl, failing the test when the client does.
func (w *Ejabberd) ctl(t testing.TB, cmds ...[]string) []EjabberdAnswer {
	t.Helper()
	out, err := w.Ctl(cmds...)
	if err != nil {
		t.Fatalf("ejabberd: %v", err)
	}
	return out
}

// ejabberdRosterLine is a line of process_rosteritems' answer: owner JID, tab, contact JID.
var ejabberdRosterLine = regexp.MustCompile(`(?m)^(\S+@\S+)\t(\S+)$`)

// State reads the node now: the users of each virtual host, then in one more ctl client
// each user's password check and offline count, the roster items by subscription and
// pending state (process_rosteritems list, read only), and each shared roster group's
// settings and members.
func (w *Ejabberd) State(t testing.TB) EjabberdState {
	t.Helper()
	s := EjabberdState{"user": {}, "roster": {}, "offline": {}, "group": {}, "member": {}}
	var cmds [][]string
	for _, h := range EjabberdHosts {
		cmds = append(cmds, []string{"registered_users", h}, []string{"srg_list", h})
	}
	lists := w.ctl(t, cmds...)
	var users, groups [][2]string
	for i, h := range EjabberdHosts {
		for _, u := range ejabberdLines(lists[2*i].Text) {
			users = append(users, [2]string{u, h})
		}
		for _, g := range ejabberdLines(lists[2*i+1].Text) {
			groups = append(groups, [2]string{g, h})
		}
	}
	cmds = nil
	for _, u := range users {
		cmds = append(cmds, []string{"check_password", u[0], u[1], ejabberdSeedPasswordOf(u[0] + "@" + u[1])},
			[]string{"get_offline_count", u[0], u[1]})
	}
	for _, g := range groups {
		cmds = append(cmds, []string{"srg_get_info", g[0], g[1]}, []string{"srg_get_members", g[0], g[1]})
	}
	subs, asks := []string{"none", "from", "to", "both"}, []string{"none", "out", "in"}
	for _, sub := range subs {
		for _, ask := range asks {
			cmds = append(cmds, []string{"process_rosteritems", "list", sub, ask, "any", "any"})
		}
	}
	out := w.ctl(t, cmds...)
	for i, u := range users {
		jid := u[0] + "@" + u[1]
		s["user"][jid] = map[bool]string{true: "password=seed", false: "password=other"}[out[2*i].Code == 0]
		s["offline"][jid] = strings.TrimSpace(out[2*i+1].Text)
	}
	out = out[2*len(users):]
	for i, g := range groups {
		key := g[1] + "/" + g[0]
		s["group"][key] = ejabberdInfo(out[2*i].Text)
		for _, m := range ejabberdLines(out[2*i+1].Text) {
			s["member"][key+">"+m] = ""
		}
	}
	out = out[2*len(groups):]
	for i, sub := range subs {
		for j, ask := range asks {
			for _, m := range ejabberdRosterLine.FindAllStringSubmatch(out[i*len(asks)+j].Text, -1) {
				s["roster"][m[1]+">"+m[2]] = "subscription=" + sub + " ask=" + ask
			}
		}
	}
	return s
}

// ejabberdSeedPasswordOf is the password jid has in the seed.
func ejabberdSeedPasswordOf(jid string) string {
	if jid == EjabberdAdmin {
		return EjabberdPassword
	}
	return EjabberdSeedPassword
}

// ejabberdLines are an answer's non-empty lines.
func ejabberdLines(text string) []string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// ejabberdInfo is srg_get_info's answer (a "key<TAB>value" line for each option set) as
// "key=value; key=value" sorted by key.
func ejabberdInfo(text string) string {
	var parts []string
	for _, l := range ejabberdLines(text) {
		k, v, _ := strings.Cut(l, "\t")
		parts = append(parts, k+"="+strings.TrimSpace(v))
	}
	slices.Sort(parts)
	return strings.Join(parts, "; ")
}

// PasswordIs says whether password signs jid in (ejabberdctl check_password).
func (w *Ejabberd) PasswordIs(t testing.TB, jid, password string) bool {
	t.Helper()
	user, host, _ := strings.Cut(jid, "@")
	return w.ctl(t, []string{"check_password", user, host, password})[0].Code == 0
}

// Seed is the state the instance started with (a copy the caller may change).
func (w *Ejabberd) Seed() EjabberdState { return w.seed.Clone() }

// Clone is a deep copy of the state.
func (s EjabberdState) Clone() EjabberdState {
	c := EjabberdState{}
	for k, rows := range s {
		c[k] = maps.Clone(rows)
	}
	return c
}

// Diff says how s differs from want ("" when it does not): each row missing, extra or
// different, by kind and key.
func (s EjabberdState) Diff(want EjabberdState) string {
	return IcingaWebState(s).Diff(IcingaWebState(want))
}

// Differs says how the node's state differs from want ("" when it holds exactly that).
func (w *Ejabberd) Differs(t testing.TB, want EjabberdState) string {
	t.Helper()
	return w.State(t).Diff(want)
}

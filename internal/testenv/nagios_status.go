package testenv

import (
	"bufio"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// NagiosBlock is one block of status.dat: its kind (hoststatus, servicestatus,
// hostcomment, servicecomment, hostdowntime, servicedowntime, programstatus, ...) and its
// fields as Nagios writes them.
type NagiosBlock struct {
	Kind   string
	Fields map[string]string
}

// NagiosFlags is what the judges read of one host or service in status.dat.
type NagiosFlags struct {
	Checked       bool  // has_been_checked
	State         int   // current_state
	Acknowledged  bool  // problem_has_been_acknowledged
	Notifications bool  // notifications_enabled
	ActiveChecks  bool  // active_checks_enabled
	LastCheck     int64 // last_check, a Unix time
}

// NagiosComment is one comment in status.dat (hostcomment or servicecomment). Type is its
// entry_type: 1 a user's comment, 2 a downtime's, 3 flapping's, 4 an acknowledgement's.
type NagiosComment struct {
	ID            int
	Host, Service string // Service "" for a host's comment
	Type          int
	Author, Text  string
	Persistent    bool
}

// NagiosDowntime is one scheduled downtime in status.dat (hostdowntime or servicedowntime).
type NagiosDowntime struct {
	ID              int
	Host, Service   string // Service "" for a host's downtime
	Start, End      int64  // Unix times
	Fixed           bool
	Duration        int64 // seconds
	Author, Comment string
	TriggeredBy     int
}

// NagiosState is what the judges read of status.dat: each host ("web01") and service
// ("web01/HTTP") by name, the comments and the downtimes.
type NagiosState struct {
	Objects   map[string]NagiosFlags
	Comments  []NagiosComment
	Downtimes []NagiosDowntime
}

func (s NagiosState) clone() NagiosState {
	return NagiosState{Objects: maps.Clone(s.Objects), Comments: slices.Clone(s.Comments), Downtimes: slices.Clone(s.Downtimes)}
}

// Blocks are status.dat's blocks, in the file's order. Nagios writes the file whole and
// renames it into place, so a read never sees half of it.
func (w *Nagios) Blocks() ([]NagiosBlock, error) {
	f, err := os.Open(filepath.Join(w.Dir, "status.dat"))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []NagiosBlock
	var cur *NagiosBlock
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64*1024), 4*1024*1024)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
		case strings.HasSuffix(line, "{") && cur == nil:
			cur = &NagiosBlock{Kind: strings.TrimSpace(strings.TrimSuffix(line, "{")), Fields: map[string]string{}}
		case line == "}" && cur != nil:
			out = append(out, *cur)
			cur = nil
		case cur != nil:
			k, v, _ := strings.Cut(line, "=")
			cur.Fields[k] = v
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if cur != nil || len(out) == 0 {
		return nil, fmt.Errorf("status.dat is incomplete")
	}
	return out, nil
}

// State reads status.dat into what the judges compare.
func (w *Nagios) State() (NagiosState, error) {
	blocks, err := w.Blocks()
	if err != nil {
		return NagiosState{}, err
	}
	st := NagiosState{Objects: map[string]NagiosFlags{}}
	for _, b := range blocks {
		f := b.Fields
		name := f["host_name"]
		if svc := f["service_description"]; svc != "" {
			name += "/" + svc
		}
		switch b.Kind {
		case "hoststatus", "servicestatus":
			st.Objects[name] = NagiosFlags{Checked: f["has_been_checked"] == "1", State: atoi(f["current_state"]),
				Acknowledged: f["problem_has_been_acknowledged"] == "1", Notifications: f["notifications_enabled"] == "1",
				ActiveChecks: f["active_checks_enabled"] == "1", LastCheck: int64(atoi(f["last_check"]))}
		case "hostcomment", "servicecomment":
			st.Comments = append(st.Comments, NagiosComment{ID: atoi(f["comment_id"]), Host: f["host_name"], Service: f["service_description"],
				Type: atoi(f["entry_type"]), Author: f["author"], Text: f["comment_data"], Persistent: f["persistent"] == "1"})
		case "hostdowntime", "servicedowntime":
			st.Downtimes = append(st.Downtimes, NagiosDowntime{ID: atoi(f["downtime_id"]), Host: f["host_name"], Service: f["service_description"],
				Start: int64(atoi(f["start_time"])), End: int64(atoi(f["end_time"])), Fixed: f["fixed"] == "1",
				Duration: int64(atoi(f["duration"])), Author: f["author"], Comment: f["comment"], TriggeredBy: atoi(f["triggered_by"])})
		}
	}
	return st, nil
}

func atoi(s string) int {
	n, _ := strconv.Atoi(strings.TrimSpace(s))
	return n
}

// Differs says how the stored state differs from want — want's hosts and services (their
// acknowledgement, notifications and active checks, and for services whether they were
// checked again since the seed: want's LastCheck later than the seed's means "checked
// again", equal means "not"), its comments and its downtimes (compared whole, but for
// their IDs and entry times) — "" when it does not.
func (w *Nagios) Differs(want NagiosState) string {
	got, err := w.State()
	if err != nil {
		return err.Error()
	}
	var diffs []string
	for _, name := range slices.Sorted(maps.Keys(want.Objects)) {
		x, g := want.Objects[name], got.Objects[name]
		seed := w.seed.Objects[name]
		switch {
		case x.Acknowledged != g.Acknowledged:
			diffs = append(diffs, fmt.Sprintf("%s is acknowledged: %v", name, g.Acknowledged))
		case x.Notifications != g.Notifications:
			diffs = append(diffs, fmt.Sprintf("%s has notifications enabled: %v", name, g.Notifications))
		case x.ActiveChecks != g.ActiveChecks:
			diffs = append(diffs, fmt.Sprintf("%s has active checks enabled: %v", name, g.ActiveChecks))
		case strings.Contains(name, "/") && (x.LastCheck > seed.LastCheck) != (g.LastCheck > seed.LastCheck):
			diffs = append(diffs, fmt.Sprintf("%s was checked again since the seed: %v", name, g.LastCheck > seed.LastCheck))
		}
	}
	if d := nagiosListDiff("comments", commentKeys(want.Comments), commentKeys(got.Comments)); d != "" {
		diffs = append(diffs, d)
	}
	if d := nagiosListDiff("downtimes", downtimeKeys(want.Downtimes), downtimeKeys(got.Downtimes)); d != "" {
		diffs = append(diffs, d)
	}
	return strings.Join(diffs, "; ")
}

// commentKeys are comments as the judges compare them: where, what kind, who, what. The
// comments Nagios writes itself for a downtime (type 2, as the downtime is scheduled) are
// left out: the downtimes are compared themselves.
func commentKeys(cs []NagiosComment) []string {
	var out []string
	for _, c := range cs {
		if c.Type != 2 {
			out = append(out, fmt.Sprintf("%s type %d by %q: %q", nagiosWhere(c.Host, c.Service), c.Type, c.Author, c.Text))
		}
	}
	return out
}

// downtimeKeys are downtimes as the judges compare them: where, when, fixed or flexible
// (and how long then), who, why.
func downtimeKeys(ds []NagiosDowntime) []string {
	out := make([]string, len(ds))
	for i, d := range ds {
		kind := "fixed"
		if !d.Fixed {
			kind = fmt.Sprintf("flexible %ds", d.Duration)
		}
		out[i] = fmt.Sprintf("%s from %d to %d %s by %q: %q", nagiosWhere(d.Host, d.Service), d.Start, d.End, kind, d.Author, d.Comment)
	}
	return out
}

func nagiosWhere(host, service string) string {
	if service == "" {
		return "host " + host
	}
	return "service " + host + "/" + service
}

// nagiosListDiff compares two lists as multisets: "" when they hold the same, else what is
// missing and what is extra.
func nagiosListDiff(what string, want, got []string) string {
	count := map[string]int{}
	for _, k := range want {
		count[k]++
	}
	for _, k := range got {
		count[k]--
	}
	var missing, extra []string
	for _, k := range slices.Sorted(maps.Keys(count)) {
		for n := count[k]; n > 0; n-- {
			missing = append(missing, k)
		}
		for n := count[k]; n < 0; n++ {
			extra = append(extra, k)
		}
	}
	if len(missing)+len(extra) == 0 {
		return ""
	}
	return fmt.Sprintf("the %s lack %q and hold %q", what, missing, extra)
}

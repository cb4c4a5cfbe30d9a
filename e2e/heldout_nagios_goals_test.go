//go:build heldout

package e2e

import (
	"net/url"
	"strings"
	"testing"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// nagiosGoal is an everyday goal on Nagios, written three ways as a person writes it from
// what the pages show ({date} is filled in per instance); done reads the daemon's
// status.dat and says "" when the goal's effect is there and nothing else it reads
// changed (every host's and service's acknowledgement, notifications and active checks,
// which services were checked again, the comments and the downtimes), else what it found;
// do makes the effect through Nagios's own pages along the goal's path, and miss a near
// miss the judge must not take for it (the command given to a neighbouring host or
// service, another value).
type nagiosGoal struct {
	name      string
	phrasings [3]string
	done      func(t testing.TB, w *testenv.Nagios) string
	do, miss  func(t testing.TB, w *testenv.Nagios, b *testenv.NagiosBrowser)
}

const (
	nagiosAckText      = "Purging old binlogs tonight"
	nagiosDowntimeText = "Replacing failed disks"
	nagiosHostNote     = "Moving to rack B4 on Thursday"
	nagiosDisksNote    = "New disks ordered, arriving Friday"
	nagiosSpamNote     = "Spam filter rules updated on Monday"
)

var nagiosGoals = []nagiosGoal{
	{
		name: "acknowledge a service problem",
		phrasings: [3]string{
			`click "Services", click "Disk Space" of host "db01", click "Acknowledge this service problem", type "Purging old binlogs tonight" into "Comment", click "Commit"`,
			`open the Services list, then open the Disk Space service on db01 and press Acknowledge this service problem; fill the Comment field with Purging old binlogs tonight and press Commit`,
			`In the menu on the left, click Services. Find the service "Disk Space" of the host db01 and click it. Click "Acknowledge this service problem", write "Purging old binlogs tonight" in the field labelled "Comment" and click the Commit button, then make sure "successfully submitted" is shown.`,
		},
		done: func(t testing.TB, w *testenv.Nagios) string {
			return nagiosExactly(w, func(s *testenv.NagiosState) {
				nagiosSet(s, "db01/Disk Space", func(f *testenv.NagiosFlags) { f.Acknowledged = true })
				s.Comments = append(s.Comments, testenv.NagiosComment{Host: "db01", Service: "Disk Space", Type: 4, Author: testenv.NagiosAuthor, Text: nagiosAckText})
			})
		},
		do: func(t testing.TB, w *testenv.Nagios, b *testenv.NagiosBrowser) {
			nagiosService(t, w, b, "Services", "db01", "Disk Space")
			b.Click(t, "Acknowledge this service problem")
			b.Commit(t, map[string]string{"com_data": nagiosAckText})
		},
		miss: func(t testing.TB, w *testenv.Nagios, b *testenv.NagiosBrowser) {
			nagiosService(t, w, b, "Services", "fileserver", "Disk Space")
			b.Click(t, "Acknowledge this service problem")
			b.Commit(t, map[string]string{"com_data": nagiosAckText})
		},
	},
	{
		name: "schedule downtime for a host",
		phrasings: [3]string{
			`click "Hosts", click "fileserver", click "Schedule downtime for this host", type "Replacing failed disks" into "Comment", type "{date} 20:00:00" into "Start Time", type "{date} 23:00:00" into "End Time", click "Commit"`,
			`open Hosts, then fileserver, and press Schedule downtime for this host. Fill Comment with Replacing failed disks, set the Start Time to {date} 20:00:00 and the End Time to {date} 23:00:00, then press Commit`,
			`Schedule downtime for the host fileserver: click Hosts in the left-hand menu, click fileserver, then click "Schedule downtime for this host". In the field labelled "Comment" write "Replacing failed disks", replace the Start Time with {date} 20:00:00 and the End Time with {date} 23:00:00, and click the Commit button.`,
		},
		done: func(t testing.TB, w *testenv.Nagios) string {
			return nagiosExactly(w, func(s *testenv.NagiosState) {
				s.Downtimes = append(s.Downtimes, testenv.NagiosDowntime{Host: "fileserver", Start: w.DayAt(20, 0), End: w.DayAt(23, 0),
					Fixed: true, Author: testenv.NagiosAuthor, Comment: nagiosDowntimeText})
			})
		},
		do: func(t testing.TB, w *testenv.Nagios, b *testenv.NagiosBrowser) {
			nagiosHostDowntime(t, w, b, "23:00:00")
		},
		miss: func(t testing.TB, w *testenv.Nagios, b *testenv.NagiosBrowser) {
			nagiosHostDowntime(t, w, b, "22:00:00")
		},
	},
	{
		name: "disable notifications for a service",
		phrasings: [3]string{
			`click "Services", click "Mail Queue", click "Disable notifications for this service", click "Commit"`,
			`go to Services, open Mail Queue on mail01, then press "Disable notifications for this service" and press Commit`,
			`Turn off notifications for the Mail Queue service on mail01. Click Services in the menu, click on "Mail Queue", choose "Disable notifications for this service" under Service Commands and click the Commit button.`,
		},
		done: func(t testing.TB, w *testenv.Nagios) string {
			return nagiosExactly(w, func(s *testenv.NagiosState) {
				nagiosSet(s, "mail01/Mail Queue", func(f *testenv.NagiosFlags) { f.Notifications = false })
			})
		},
		do: func(t testing.TB, w *testenv.Nagios, b *testenv.NagiosBrowser) {
			nagiosService(t, w, b, "Services", "mail01", "Mail Queue")
			b.Click(t, "Disable notifications for this service")
			b.Commit(t, nil)
		},
		miss: func(t testing.TB, w *testenv.Nagios, b *testenv.NagiosBrowser) {
			// The host's notifications rather than the service's.
			nagiosService(t, w, b, "Services", "mail01", "Mail Queue")
			b.Click(t, "View Information For This Host")
			b.Click(t, "Disable notifications for this host")
			b.Commit(t, nil)
		},
	},
	{
		name: "add a comment to a host",
		phrasings: [3]string{
			`click "Hosts", click "web01", click "Add a new comment", type "Moving to rack B4 on Thursday" into "Comment", click "Commit"`,
			`open the host web01 (Hosts in the menu), press Add a new comment, fill the Comment field with Moving to rack B4 on Thursday and press Commit`,
			`Add a comment to the host web01. Click Hosts in the menu on the left, then click web01 and, under Host Comments, click "Add a new comment". Type "Moving to rack B4 on Thursday" in the field labelled "Comment" and click the Commit button.`,
		},
		done: func(t testing.TB, w *testenv.Nagios) string {
			return nagiosExactly(w, func(s *testenv.NagiosState) {
				s.Comments = append(s.Comments, testenv.NagiosComment{Host: "web01", Type: 1, Author: testenv.NagiosAuthor, Text: nagiosHostNote})
			})
		},
		do: func(t testing.TB, w *testenv.Nagios, b *testenv.NagiosBrowser) {
			nagiosHost(t, w, b, "web01")
			b.Click(t, "Add a new comment")
			b.Commit(t, map[string]string{"com_data": nagiosHostNote})
		},
		miss: func(t testing.TB, w *testenv.Nagios, b *testenv.NagiosBrowser) {
			// The comment on one of the host's services.
			nagiosService(t, w, b, "Services", "web01", "HTTP")
			b.Click(t, "Add a new comment")
			b.Commit(t, map[string]string{"com_data": nagiosHostNote})
		},
	},
	{
		name: "delete a comment",
		phrasings: [3]string{
			`click "Comments", click the "Delete This Comment" icon of "New disks ordered, arriving Friday", click "Commit"`,
			`open Comments from the menu, then press the delete icon next to the comment "New disks ordered, arriving Friday" and press Commit to confirm`,
			`Delete the comment "New disks ordered, arriving Friday" on the host fileserver: click Comments in the left-hand menu, click the delete icon in that comment's row and then click the Commit button. Make sure the comment is no longer listed.`,
		},
		done: func(t testing.TB, w *testenv.Nagios) string {
			return nagiosExactly(w, func(s *testenv.NagiosState) { nagiosDropComment(s, nagiosDisksNote) })
		},
		do: func(t testing.TB, w *testenv.Nagios, b *testenv.NagiosBrowser) {
			nagiosDeleteComment(t, b, nagiosDisksNote)
		},
		miss: func(t testing.TB, w *testenv.Nagios, b *testenv.NagiosBrowser) {
			nagiosDeleteComment(t, b, nagiosSpamNote)
		},
	},
	{
		name: "find a host, then disable a service's active checks",
		phrasings: [3]string{
			`type "fileserver" into "Quick Search" and press Enter, click "Backup Job", click "Disable active checks of this service", click "Commit"`,
			`search for fileserver with the Quick Search box, then open its Backup Job service, press Disable active checks of this service and press Commit`,
			`Use the Quick Search box in the menu to look up fileserver. In the list of its services, click "Backup Job", then click the link labelled "Disable active checks of this service" and click Commit.`,
		},
		done: func(t testing.TB, w *testenv.Nagios) string {
			return nagiosExactly(w, func(s *testenv.NagiosState) {
				nagiosSet(s, "fileserver/Backup Job", func(f *testenv.NagiosFlags) { f.ActiveChecks = false })
			})
		},
		do: func(t testing.TB, w *testenv.Nagios, b *testenv.NagiosBrowser) {
			nagiosSearchThenDisable(t, w, b, "Backup Job")
		},
		miss: func(t testing.TB, w *testenv.Nagios, b *testenv.NagiosBrowser) {
			nagiosSearchThenDisable(t, w, b, "Disk Space")
		},
	},
	{
		name: "re-schedule a service check",
		phrasings: [3]string{
			`click "Services", click "HTTPS Certificate", click "Re-schedule the next check of this service", click "Commit"`,
			`open Services, then HTTPS Certificate on web01, then press "Re-schedule the next check of this service" and press Commit, keeping Force Check ticked`,
			`The certificate on web01 has been renewed, so have Nagios check it again now: click Services in the menu, open the "HTTPS Certificate" service, click "Re-schedule the next check of this service" and click the Commit button without changing the check time.`,
		},
		done: func(t testing.TB, w *testenv.Nagios) string {
			return nagiosExactly(w, func(s *testenv.NagiosState) {
				nagiosSet(s, "web01/HTTPS Certificate", func(f *testenv.NagiosFlags) { f.LastCheck++ })
			})
		},
		do: func(t testing.TB, w *testenv.Nagios, b *testenv.NagiosBrowser) {
			nagiosService(t, w, b, "Services", "web01", "HTTPS Certificate")
			b.Click(t, "Re-schedule the next check of this service")
			b.Commit(t, nil)
		},
		miss: func(t testing.TB, w *testenv.Nagios, b *testenv.NagiosBrowser) {
			nagiosService(t, w, b, "Services", "web01", "HTTP")
			b.Click(t, "Re-schedule the next check of this service")
			b.Commit(t, nil)
		},
	},
}

// nagiosExactly says whether status.dat holds the seed changed by change and nothing else.
func nagiosExactly(w *testenv.Nagios, change func(*testenv.NagiosState)) string {
	want := w.Seed()
	change(&want)
	return w.Differs(want)
}

// nagiosChanged says "" once status.dat differs from the seed in anything the judges read.
func nagiosChanged(w *testenv.Nagios) string {
	if w.Differs(w.Seed()) == "" {
		return "status.dat is still the seed's"
	}
	return ""
}

// nagiosSet changes one host's or service's flags in a state.
func nagiosSet(s *testenv.NagiosState, name string, change func(*testenv.NagiosFlags)) {
	f, ok := s.Objects[name]
	if !ok {
		panic("no host or service " + name)
	}
	change(&f)
	s.Objects[name] = f
}

// nagiosDropComment removes the comment whose text is text from a state.
func nagiosDropComment(s *testenv.NagiosState, text string) {
	for i, c := range s.Comments {
		if c.Text == text {
			s.Comments = append(s.Comments[:i:i], s.Comments[i+1:]...)
			return
		}
	}
	panic("no comment " + text)
}

// nagiosService opens the side menu, clicks menu (a list of services) and follows the link
// of host's service there, as a person clicks the service's name in the list.
func nagiosService(t testing.TB, w *testenv.Nagios, b *testenv.NagiosBrowser, menu, host, service string) {
	t.Helper()
	b.Open(t, "/nagios4/side.php")
	b.Click(t, menu)
	nagiosFollow(t, w, b, host, service)
}

// nagiosHost opens the side menu's Hosts list and follows the host's link there.
func nagiosHost(t testing.TB, w *testenv.Nagios, b *testenv.NagiosBrowser, host string) {
	t.Helper()
	b.Open(t, "/nagios4/side.php")
	b.Click(t, "Hosts")
	nagiosFollow(t, w, b, host, "")
}

// nagiosFollow follows the link of a host's (service "") or service's page on the page the
// browser is on: the list names a service once per host, so its link, not its name, tells
// db01's Disk Space from fileserver's.
func nagiosFollow(t testing.TB, w *testenv.Nagios, b *testenv.NagiosBrowser, host, service string) {
	t.Helper()
	page := w.ObjectPage(host, service)
	rel := page[strings.LastIndex(page, "/")+1:]
	if !strings.Contains(b.Page(), "href='"+rel+"'") {
		t.Fatalf("the page does not link %s:\n%s", rel, b.Page())
	}
	b.Open(t, rel)
}

// nagiosHostDowntime schedules fileserver's downtime on the instance's day from 20:00 to
// end through its page's "Schedule downtime for this host" form.
func nagiosHostDowntime(t testing.TB, w *testenv.Nagios, b *testenv.NagiosBrowser, end string) {
	t.Helper()
	nagiosHost(t, w, b, "fileserver")
	b.Click(t, "Schedule downtime for this host")
	b.Commit(t, map[string]string{"com_data": nagiosDowntimeText,
		"start_time": w.FormDate() + " 20:00:00", "end_time": w.FormDate() + " " + end})
}

// nagiosDeleteComment opens the side menu's Comments page, clicks the delete icon in the
// row of the comment whose text is text and confirms with Commit.
func nagiosDeleteComment(t testing.TB, b *testenv.NagiosBrowser, text string) {
	t.Helper()
	b.Open(t, "/nagios4/side.php")
	b.Click(t, "Comments")
	b.ClickInRow(t, text, "Delete This Comment")
	b.Commit(t, nil)
}

// nagiosSearchThenDisable looks fileserver up with the side menu's Quick Search box, opens
// its service and disables the service's active checks.
func nagiosSearchThenDisable(t testing.TB, w *testenv.Nagios, b *testenv.NagiosBrowser, service string) {
	t.Helper()
	b.Open(t, "/nagios4/side.php")
	b.Submit(t, "navbarsearch", url.Values{"host": {"fileserver"}})
	nagiosFollow(t, w, b, "fileserver", service)
	b.Click(t, "Disable active checks of this service")
	b.Commit(t, nil)
}

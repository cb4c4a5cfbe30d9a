package testenv

import (
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// RT is a private Request Tracker 5 — Debian's request-tracker5: a ticketing system in
// Perl and Mason, whose pages list tickets by queue, show each ticket's history and
// take comments, replies and changes of status and owner, and whose admin area creates
// queues, users and groups — run by its own standalone server (rt-server under Starlet)
// on a free loopback port, from an RT_SiteConfig.pm of its own in a temporary folder: a
// fresh SQLite database initialised with rt-setup-database and seeded from an initialdata
// file (RTQueues, RTUsers, RTGroups, RTTickets), Mason's cache and the sessions in the
// same folder, and a mailer that writes RT's mail (autoreplies, notifications) to a file
// rather than sending it. Its sign-in is its own login page; the one who signs in is
// root, RT's superuser, with RTPassword. What a run did is read back from the database
// (RTState).
type RT struct {
	URL  string // the server's root, e.g. http://127.0.0.1:PORT: the login page
	Dir  string // the instance's folder: RT_SiteConfig.pm, rt.db, the caches
	DB   string // the SQLite database
	web  *process
	seed RTState
}

// RTUser is who signs in and RTPassword the password; the worker grants it to the
// goals, which never hold it.
const (
	RTUser     = "root"
	RTPassword = "Ticket-Desk-8351"
	rtServer   = "/usr/share/request-tracker5/libexec/rt-server"
	rtSetupDB  = "/usr/sbin/rt-setup-database-5"
)

// RTTicketSeed is one ticket of the seed: its queue, subject, status and the text of its
// first message; carol@example.com asked for it and nobody owns it.
type RTTicketSeed struct{ Queue, Subject, Status, Text string }

// The seed every instance starts with, besides what RT's own initial data holds (the
// General queue, root, the system's groups and scrips).
var (
	RTQueues = [][2]string{ // name, description
		{"IT Helpdesk", "Laptops, printers, accounts and the network"},
		{"Facilities", "The building, furniture and meeting rooms"},
	}
	RTUsers = [][4]string{ // username, real name, e-mail, "1" when privileged
		{"alice", "Alice Walker", "alice@example.com", "1"},
		{"bob", "Bob Ortiz", "bob@example.com", "1"},
		{"carol@example.com", "Carol Diaz", "carol@example.com", ""},
	}
	RTGroups = [][3]string{ // name, description, its one member
		{"Helpdesk Staff", "Everyone who answers IT Helpdesk tickets", "alice"},
		{"Facilities Team", "Caretakers and the office manager", "carol@example.com"},
	}
	RTTickets = []RTTicketSeed{ // tickets #1 to #4
		{"IT Helpdesk", "Printer on the second floor jams", "new", "It jams on every double-sided job."},
		{"IT Helpdesk", "VPN drops every hour", "open", "The VPN disconnects about once an hour since Monday."},
		{"IT Helpdesk", "New keyboard for reception", "open", "The reception keyboard is missing two keys."},
		{"Facilities", "Meeting room B projector flickers", "new", "The projector in room B flickers after a few minutes."},
	}
)

// RTInstalled says whether Debian's Request Tracker 5 with its SQLite backend and
// standalone server, and the sqlite3 CLI, are here (deploy/setup.sh heldout installs them).
func RTInstalled() bool {
	_, err := exec.LookPath("sqlite3")
	return err == nil && exists(rtServer) && exists(rtSetupDB) &&
		exec.Command("perl", "-MDBD::SQLite", "-MStarlet", "-e1").Run() == nil
}

// StartRT writes a site configuration into a temporary folder, initialises and seeds a
// database there, serves it on a free loopback port until the test ends and waits until
// the login page answers; it keeps the seeded database's state as the seed. It skips the
// test when RT or sqlite3 is missing.
func StartRT(t testing.TB) *RT {
	t.Helper()
	if !RTInstalled() {
		t.Skip("Request Tracker is not installed: run `deploy/setup.sh heldout` (it installs Debian's request-tracker5, rt5-db-sqlite and rt5-standalone)")
	}
	dir := t.TempDir()
	port := FreePort(t)
	w := &RT{URL: fmt.Sprintf("http://%s", Addr(port)), Dir: dir, DB: filepath.Join(dir, "rt.db")}
	for _, sub := range []string{"site.d", "mason", "sessions"} {
		if err := os.Mkdir(filepath.Join(dir, sub), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write(t, filepath.Join(dir, "RT_SiteConfig.pm"), rtSiteConfig(w, port))
	write(t, filepath.Join(dir, "root-password"), RTPassword+"\n")
	write(t, filepath.Join(dir, "seed.pl"), rtInitialData())
	w.setup(t, "--action", "init", "--root-password-file", filepath.Join(dir, "root-password"))
	w.setup(t, "--action", "insert", "--datafile", filepath.Join(dir, "seed.pl"))
	w.seed = w.State(t)
	if len(w.seed.Tickets) != len(RTTickets) {
		t.Fatalf("rt: the seed holds %d tickets, want %d: %+v", len(w.seed.Tickets), len(RTTickets), w.seed.Tickets)
	}
	cmd := exec.Command(rtServer, "--listen", Addr(port), "--max-workers", "2")
	cmd.Dir = dir
	cmd.Env = w.env()
	w.web = start(t, "rt-server", cmd)
	if why := Eventually(90*time.Second, func() string {
		select {
		case <-w.web.done:
			return "rt-server stopped"
		default:
		}
		return rtAnswers(w.URL + "/")
	}); why != "" {
		t.Fatalf("rt: %s:\n%s", why, w.web.out.String())
	}
	return w
}

// env is the environment of RT's commands: the test's, with the instance's site
// configuration and an empty folder of extra configuration in place of /etc's.
func (w *RT) env() []string {
	return append(os.Environ(), "RT_SITE_CONFIG="+filepath.Join(w.Dir, "RT_SiteConfig.pm"),
		"RT_SITE_CONFIG_DIR="+filepath.Join(w.Dir, "site.d"), "TZ=UTC", "LANG=C.UTF-8", "HOME="+w.Dir)
}

// setup runs rt-setup-database with args against the instance's database.
func (w *RT) setup(t testing.TB, args ...string) {
	t.Helper()
	cmd := exec.Command(rtSetupDB, append(args, "--force")...)
	cmd.Dir = w.Dir
	cmd.Env = w.env()
	if out, err := cmd.CombinedOutput(); err != nil || !strings.Contains(string(out), "Done.") {
		t.Fatalf("rt: rt-setup-database %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// rtSiteConfig is the instance's RT_SiteConfig.pm: SQLite in its folder, the server's
// own address as RT's base URL (RT checks a form's Referer against it), logs on the
// server's standard error, mail written to a file, and Mason's cache and the sessions in
// its folder rather than /var/cache.
func rtSiteConfig(w *RT, port int) string {
	return fmt.Sprintf(`Set($rtname, 'example.com');
Set($Organization, 'example.com');
Set($DatabaseType, 'SQLite');
Set($DatabaseName, '%[1]s');
Set($WebPath, '');
Set($WebDomain, '127.0.0.1');
Set($WebPort, %[3]d);
Set($WebBaseURL, '%[2]s');
Set($Timezone, 'UTC');
Set($LogToSyslog, undef);
Set($LogToFile, undef);
Set($LogToSTDERR, 'warning');
Set($MailCommand, 'testfile');
Set($CorrespondAddress, 'support@example.com');
Set($CommentAddress, 'support-comment@example.com');
$RT::MasonDataDir = '%[4]s';
$RT::MasonSessionDir = '%[5]s';
1;
`, w.DB, w.URL, port, filepath.Join(w.Dir, "mason"), filepath.Join(w.Dir, "sessions"))
}

// rtInitialData is the seed as an RT initialdata file: the queues, users and groups,
// the right to own and work on tickets for every privileged user, and the tickets,
// created last by RT's own API as the system user (so their autoreplies go to the mailer).
func rtInitialData() string {
	var b strings.Builder
	b.WriteString("@Queues = (\n")
	for _, q := range RTQueues {
		fmt.Fprintf(&b, "    { Name => %s, Description => %s },\n", perlQuote(q[0]), perlQuote(q[1]))
	}
	b.WriteString(");\n@Users = (\n")
	for _, u := range RTUsers {
		fmt.Fprintf(&b, "    { Name => %s, RealName => %s, EmailAddress => %s, Privileged => %d },\n",
			perlQuote(u[0]), perlQuote(u[1]), perlQuote(u[2]), len(u[3]))
	}
	b.WriteString(");\n@Groups = (\n")
	for _, g := range RTGroups {
		fmt.Fprintf(&b, "    { Name => %s, Description => %s },\n", perlQuote(g[0]), perlQuote(g[1]))
	}
	b.WriteString(");\n@Members = (\n")
	for _, g := range RTGroups {
		fmt.Fprintf(&b, "    { Group => %s, Name => %s },\n", perlQuote(g[0]), perlQuote(g[2]))
	}
	b.WriteString(`);
@ACL = ( map { { GroupDomain => 'SystemInternal', GroupType => 'Privileged', Right => $_ } }
    qw(OwnTicket ShowTicket SeeQueue CreateTicket ReplyToTicket CommentOnTicket ModifyTicket) );
@Final = ( sub {
    for my $t (
`)
	for _, tk := range RTTickets {
		fmt.Fprintf(&b, "        [ %s, %s, %s, %s ],\n", perlQuote(tk.Queue), perlQuote(tk.Subject), perlQuote(tk.Status), perlQuote(tk.Text))
	}
	b.WriteString(`    ) {
        my $ticket = RT::Ticket->new( RT->SystemUser );
        my ( $id, undef, $msg ) = $ticket->Create(
            Queue => $t->[0], Subject => $t->[1], Status => $t->[2], Requestor => ['carol@example.com'],
            MIMEObj => MIME::Entity->build( Type => 'text/plain', Charset => 'UTF-8', Data => [ $t->[3] ] ),
        );
        die "ticket $t->[1]: $msg" unless $id;
    }
} );
1;
`)
	return b.String()
}

// perlQuote is s as a single-quoted Perl string.
func perlQuote(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}

// rtAnswers says why url does not answer 200 OK yet; "" once it does.
func rtAnswers(url string) string {
	resp, err := http.Get(url)
	if err != nil {
		return err.Error()
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Sprintf("%s answered %d", url, resp.StatusCode)
	}
	return ""
}

// Seed is the state the fresh instance was in once seeded (a copy the caller may change).
func (w *RT) Seed() RTState { return w.seed.clone() }

// Log is what the server has written so far.
func (w *RT) Log() string { return w.web.out.String() }

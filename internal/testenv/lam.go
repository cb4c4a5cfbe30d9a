package testenv

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// LAM is a private LDAP Account Manager — Debian's ldap-account-manager 8.3: a web front
// end in PHP that manages the users and groups of an LDAP directory through forms (a
// user's Personal, Unix and Shadow tabs, a group's members picked from lists), its server
// profiles kept in files of its own — in front of a private OpenLDAP server: Debian's
// slapd, run as the test's own process on a free loopback port (as phpLDAPadmin's harness
// runs it: the same suffix and admin), seeded with ldapadd. LAM is served by PHP's built-in
// server from a copy laid out in a temporary folder whose config folder (its main
// configuration and one server profile, "lam", pointed at that slapd), sessions and
// temporary files are the copy's own; its user signs in through LAM's login page as the
// directory's admin. What a run did is read back from the directory itself with
// ldapsearch. The system's slapd service and the package's own configuration and state
// folders are never used.
type LAM struct {
	URL      string // the login page, e.g. http://127.0.0.1:PORT/templates/login.php
	LDAP     string // the directory server, e.g. ldap://127.0.0.1:PORT/
	Login    string // the DN the goals sign in as (the directory's admin)
	Password string
	Dir      string // the instance's folder: the directory's database, the served copy
	// Seeded is the directory as the seed left it, read back right after seeding (DN →
	// entry, as LDAPKey writes DNs): what a judge compares the directory with.
	Seeded map[string]LDAPEntry
	web    *process // php -S, whose log a failed request shows
}

// The directory every instance serves is startSlapd's: its suffix and admin, whom LAM's
// login page lists as "admin". LAMPassword is that admin's password, which a worker grants
// and no goal holds.
const (
	LAMBase     = PhpLDAPadminBase
	LAMLogin    = PhpLDAPadminLogin
	LAMPassword = PhpLDAPadminPassword
	LAMPeople   = "ou=People," + LAMBase
	LAMGroups   = "ou=Groups," + LAMBase
	lamDir      = "/usr/share/ldap-account-manager"
)

// LAMPerson is one of the seed's users, as LAM's user page shows them: inetOrgPerson and
// posixAccount (the Personal and Unix tabs), with a primary group by its GID number.
type LAMPerson struct {
	UID, First, Last, UIDNumber, GIDNumber, Title, Phone string
}

// LAMGroup is one of the seed's POSIX groups: name, GID number, description, members.
type LAMGroup struct {
	Name, GIDNumber, Description string
	Members                      []string
}

// LAMSeedPeople and LAMSeedGroups are what every instance starts with, numbered inside
// the ranges LAM's server profile hands out (UIDs from 10000, GIDs 10000 to 20000) so that
// the numbers LAM gives a new user or group follow them. Everyone's primary group is staff
// and the team groups list their members, as LAM expects: LAM drops a user from the
// member list of the user's own primary group when it saves the user.
var (
	LAMSeedPeople = []LAMPerson{
		{"hlarsen", "Henrik", "Larsen", "10001", "10000", "Backend Developer", "+45 3312 4401"},
		{"asato", "Aiko", "Sato", "10002", "10000", "Frontend Developer", "+45 3312 4402"},
		{"rokafor", "Ruth", "Okafor", "10003", "10000", "Support Specialist", "+45 3312 4403"},
		{"mrossi", "Marco", "Rossi", "10004", "10000", "Support Lead", "+45 3312 4404"},
		{"ewilson", "Emma", "Wilson", "10005", "10000", "Account Manager", "+45 3312 4405"},
	}
	LAMSeedGroups = []LAMGroup{
		{"staff", "10000", "All employees", nil},
		{"engineering", "10001", "Software engineering", []string{"hlarsen", "asato"}},
		{"helpdesk", "10002", "First-line support", []string{"rokafor", "mrossi"}},
		{"sales", "10003", "Sales and accounts", []string{"ewilson"}},
	}
)

// lamSeed is LAMSeedPeople and LAMSeedGroups as LDIF, under the suffix's People and Groups.
func lamSeed() string {
	var b strings.Builder
	fmt.Fprintf(&b, "dn: %s\nobjectClass: top\nobjectClass: dcObject\nobjectClass: organization\no: Example Org\ndc: example\n", LAMBase)
	fmt.Fprintf(&b, "\ndn: %s\nobjectClass: organizationalUnit\nou: People\n", LAMPeople)
	fmt.Fprintf(&b, "\ndn: %s\nobjectClass: organizationalUnit\nou: Groups\n", LAMGroups)
	for _, g := range LAMSeedGroups {
		fmt.Fprintf(&b, "\ndn: cn=%s,%s\nobjectClass: posixGroup\ncn: %s\ngidNumber: %s\ndescription: %s\n", g.Name, LAMGroups, g.Name, g.GIDNumber, g.Description)
		for _, m := range g.Members {
			fmt.Fprintf(&b, "memberUid: %s\n", m)
		}
	}
	for _, p := range LAMSeedPeople {
		fmt.Fprintf(&b, "\ndn: uid=%s,%s\nobjectClass: inetOrgPerson\nobjectClass: posixAccount\n", p.UID, LAMPeople)
		fmt.Fprintf(&b, "uid: %s\ncn: %s %s\ngivenName: %s\nsn: %s\n", p.UID, p.First, p.Last, p.First, p.Last)
		fmt.Fprintf(&b, "mail: %s.%s@example.org\ntitle: %s\ntelephoneNumber: %s\n", strings.ToLower(p.First), strings.ToLower(p.Last), p.Title, p.Phone)
		fmt.Fprintf(&b, "uidNumber: %s\ngidNumber: %s\nhomeDirectory: /home/%s\nloginShell: /bin/bash\n", p.UIDNumber, p.GIDNumber, p.UID)
	}
	return b.String()
}

// LAMInstalled says whether Debian's LDAP Account Manager, slapd and its schemas, the LDAP
// command-line clients, and PHP with the extensions LAM needs are here (deploy/setup.sh
// heldout installs them).
func LAMInstalled() bool {
	for _, f := range []string{filepath.Join(lamDir, "templates", "login.php"), filepath.Join(lamDir, "lib", "config.inc"),
		filepath.Join(lamDir, "config-samples", "profiles", "default.user"), slapdBin,
		filepath.Join(phpldapadminSchemas, "inetorgperson.schema"), filepath.Join(phpldapadminSchemas, "nis.schema")} {
		if !exists(f) {
			return false
		}
	}
	for _, bin := range []string{"php", "ldapadd", "ldapsearch"} {
		if _, err := exec.LookPath(bin); err != nil {
			return false
		}
	}
	return exec.Command("php", "-r", `foreach (["ldap","xml","gmp","zip","mbstring","curl","gd"] as $e) if (!extension_loaded($e)) exit(1);`).Run() == nil
}

// StartLAM starts a private slapd, seeds it, reads it back into Seeded, lays out a copy of
// LAM whose server profile points at it and serves that copy with php -S until the test
// ends. It skips the test when LAM, slapd, the LDAP clients or PHP's extensions are missing.
func StartLAM(t testing.TB) *LAM {
	t.Helper()
	if !LAMInstalled() {
		t.Skip("LDAP Account Manager or OpenLDAP is not installed: run `deploy/setup.sh heldout` (it installs Debian's ldap-account-manager, slapd and ldap-utils)")
	}
	root := t.TempDir()
	l := &LAM{Login: LAMLogin, Password: LAMPassword, Dir: root}
	ldapPort := startSlapd(t, root)
	l.LDAP = "ldap://" + Addr(ldapPort) + "/"
	if out, err := l.ldapClient("ldapadd", lamSeed()); err != nil {
		t.Fatalf("lam: seeding the directory: %v\n%s", err, out)
	}
	seeded, err := l.Entries()
	if err != nil {
		t.Fatalf("lam: %v", err)
	}
	l.Seeded = seeded
	www := filepath.Join(root, "www")
	lamLayout(t, www)
	write(t, filepath.Join(www, "config", "config.cfg"), lamMainConfig)
	write(t, filepath.Join(www, "config", "lam.conf"), lamProfile(ldapPort))
	port := FreePort(t)
	l.URL = "http://" + Addr(port) + "/templates/login.php"
	cmd := exec.Command("php", "-S", Addr(port), "-t", www, "-d", "session.save_path="+filepath.Join(www, "sess"),
		"-d", "display_errors=0", "-d", "log_errors=1", "-d", "date.timezone=UTC", "-d", "memory_limit=256M")
	cmd.Dir = www
	// A few workers: a page's scripts, styles and images are asked for at once.
	cmd.Env = append(os.Environ(), "PHP_CLI_SERVER_WORKERS=3", "TZ=UTC")
	l.web = start(t, "lam", cmd)
	waitHTTP(t, "lam", l.URL, 30*time.Second, l.web)
	return l
}

// lamLayout lays out the served copy in dir. LAM finds its config, sess and tmp folders
// from its own scripts' folders (lib/../config, templates/../../config), and PHP names a
// linked script by where the link points, so lib's and templates' scripts are copied (their
// large third-party folders, which look for nothing of LAM's, linked); the static folders
// are linked; config starts with the package's language list and its profile and PDF
// templates (LAM copies them into the server profile at the first login); sess and tmp are
// empty.
func lamLayout(t testing.TB, dir string) {
	t.Helper()
	for _, d := range []string{"lib", "templates", "sess", "tmp/internal", "config/profiles", "config/pdf", "config/templates"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	var copies []string
	for _, sub := range []string{"lib", "templates"} {
		entries, err := os.ReadDir(filepath.Join(lamDir, sub))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			src := filepath.Join(lamDir, sub, e.Name())
			if e.Name() == "3rdParty" || sub == "templates" && e.Name() == "lib" {
				lamLink(t, src, filepath.Join(dir, sub, e.Name()))
				continue
			}
			copies = append(copies, src)
		}
		if out, err := exec.Command("cp", append(append([]string{"-R"}, copies...), filepath.Join(dir, sub))...).CombinedOutput(); err != nil {
			t.Fatalf("lam: copy the code: %v\n%s", err, out)
		}
		copies = copies[:0]
	}
	for _, name := range []string{"graphics", "help", "locale", "style"} {
		lamLink(t, filepath.Join(lamDir, name), filepath.Join(dir, name))
	}
	args := []string{"-R", filepath.Join(lamDir, "VERSION"), filepath.Join(lamDir, "index.html"), filepath.Join(lamDir, "pwa_worker.js"), dir}
	if out, err := exec.Command("cp", args...).CombinedOutput(); err != nil {
		t.Fatalf("lam: copy the code: %v\n%s", err, out)
	}
	args = []string{"-R", filepath.Join(lamDir, "config-samples", "profiles"), filepath.Join(lamDir, "config-samples", "pdf"), filepath.Join(dir, "config", "templates")}
	if out, err := exec.Command("cp", args...).CombinedOutput(); err != nil {
		t.Fatalf("lam: copy the profile templates: %v\n%s", err, out)
	}
	b, err := os.ReadFile(filepath.Join(lamDir, "config", "language"))
	if err != nil {
		t.Fatalf("lam: %v", err)
	}
	write(t, filepath.Join(dir, "config", "language"), string(b))
}

func lamLink(t testing.TB, src, dst string) {
	t.Helper()
	if err := os.Symlink(src, dst); err != nil {
		t.Fatal(err)
	}
}

// lamMainConfig is the copy's config.cfg, LAM's main configuration: the package's own (its
// configuration password "lam", which no goal uses, and the profile "lam" as the default),
// logging nowhere rather than to the system's log.
const lamMainConfig = `# password to add/delete/rename configuration profiles (default: lam)
password: {SSHA}D6AaX93kPmck9wAxNlq3GF93S7A= R7gkjQ==
default: lam
logLevel: 4
logDestination: NONE
configDatabaseType: files
license:
`

// lamProfile is the server profile lam.conf: the package's Unix sample (users with the
// Personal, Unix and Shadow tabs, POSIX groups, their ID ranges and SSHA passwords) pointed
// at the private slapd, its admin the one login the login page lists, its users and groups
// under People and Groups.
func lamProfile(ldapPort int) string {
	return fmt.Sprintf(`ServerURL: ldap://%s
Admins: %s
Passwd: lam
tools: treeViewSuffix: %s
defaultLanguage: en_GB.utf8
scriptPath:
scriptServer:
scriptRights: 750
cachetimeout: 5
searchLimit: 0
modules: posixAccount_user_minUID: 10000
modules: posixAccount_user_maxUID: 30000
modules: posixAccount_host_minMachine: 50000
modules: posixAccount_host_maxMachine: 60000
modules: posixGroup_group_minGID: 10000
modules: posixGroup_group_maxGID: 20000
modules: posixAccount_user_uidGeneratorUsers: range
modules: posixAccount_host_uidGeneratorUsers: range
modules: posixAccount_group_gidGeneratorUsers: range
modules: posixGroup_pwdHash: SSHA
modules: posixAccount_pwdHash: SSHA
activeTypes: user,group
types: suffix_user: %s
types: attr_user: #uid;#givenName;#sn;#uidNumber;#gidNumber
types: modules_user: inetOrgPerson,posixAccount,shadowAccount
types: suffix_group: %s
types: attr_group: #cn;#gidNumber;#memberUID;#description
types: modules_group: posixGroup
`, Addr(ldapPort), LAMLogin, LAMBase, LAMPeople, LAMGroups)
}

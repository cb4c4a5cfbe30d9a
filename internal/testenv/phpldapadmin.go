package testenv

import (
	"crypto/rand"
	"crypto/sha1"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// PhpLDAPadmin is a private phpLDAPadmin — Debian's phpldapadmin: a web front end in PHP
// that browses an LDAP directory as a tree and creates, edits, renames and deletes its
// entries, from templates — in front of a private OpenLDAP server: Debian's slapd, run as
// the test's own process on a free loopback port from a configuration file the test writes
// (the core, cosine, inetorgperson and nis schemas, one mdb database in a temporary
// folder), seeded with ldapadd. phpLDAPadmin is served by PHP's built-in server from a copy
// whose config.php points at that server; its user signs in through phpLDAPadmin's own
// login form with the directory's admin DN and password. What a run did is read back from
// the directory itself with ldapsearch. The system's slapd service and /etc/phpldapadmin
// are never used.
type PhpLDAPadmin struct {
	URL      string // the front page, e.g. http://127.0.0.1:PORT/index.php
	LDAP     string // the directory server, e.g. ldap://127.0.0.1:PORT/
	Login    string // the DN the goals sign in as (the directory's admin)
	Password string
	Dir      string // the instance's folder: the directory's database, the served copy
	// Seeded is the directory as the seed left it, read back right after seeding (DN →
	// entry, as LDAPKey writes DNs): what a judge compares the entries a goal must not
	// touch with.
	Seeded map[string]LDAPEntry
	web    *process // php -S, whose log a failed request shows
}

// The directory every instance serves: its suffix, its admin (the rootdn, who signs in to
// phpLDAPadmin) and that admin's password, the same in every instance so that one grant
// on the worker serves each fresh instance of a test.
const (
	PhpLDAPadminBase     = "dc=example,dc=org"
	PhpLDAPadminLogin    = "cn=admin,dc=example,dc=org"
	PhpLDAPadminPassword = "ldap-admin-pass-7"
	phpldapadminDir      = "/usr/share/phpldapadmin"
	phpldapadminSchemas  = "/etc/ldap/schema"
	slapdBin             = "/usr/sbin/slapd"
)

// PhpLDAPadminSeed is the directory every instance starts from: an organisation with
// people (inetOrgPerson and posixAccount, as phpLDAPadmin's User Account template makes
// them) and their POSIX groups.
var PhpLDAPadminSeed = `dn: dc=example,dc=org
objectClass: top
objectClass: dcObject
objectClass: organization
o: Example Org
dc: example

dn: ou=People,dc=example,dc=org
objectClass: organizationalUnit
ou: People

dn: ou=Groups,dc=example,dc=org
objectClass: organizationalUnit
ou: Groups
` + phpldapadminPeople + phpldapadminGroups

// phpldapadminPeople are the seed's people: uid, first name, last name, uidNumber,
// gidNumber, title and phone.
var phpldapadminPeople = phpldapadminPersons([][7]string{
	{"jsmith", "John", "Smith", "1001", "500", "Software Engineer", "+1 555 0101"},
	{"mgarcia", "Maria", "Garcia", "1002", "500", "Senior Developer", "+1 555 0102"},
	{"akim", "Alex", "Kim", "1003", "501", "Support Engineer", "+1 555 0103"},
	{"pnovak", "Petra", "Novak", "1004", "501", "Support Lead", "+1 555 0104"},
	{"tbrown", "Tom", "Brown", "1005", "502", "Marketing Coordinator", "+1 555 0105"},
})

const phpldapadminGroups = `
dn: cn=developers,ou=Groups,dc=example,dc=org
objectClass: posixGroup
cn: developers
gidNumber: 500
description: Software development team
memberUid: jsmith
memberUid: mgarcia

dn: cn=support,ou=Groups,dc=example,dc=org
objectClass: posixGroup
cn: support
gidNumber: 501
description: Customer support team
memberUid: akim
memberUid: pnovak

dn: cn=marketing,ou=Groups,dc=example,dc=org
objectClass: posixGroup
cn: marketing
gidNumber: 502
description: Marketing team
memberUid: tbrown
`

func phpldapadminPersons(people [][7]string) string {
	var b strings.Builder
	for _, p := range people {
		uid, first, last := p[0], p[1], p[2]
		fmt.Fprintf(&b, "\ndn: uid=%s,ou=People,dc=example,dc=org\nobjectClass: inetOrgPerson\nobjectClass: posixAccount\n", uid)
		fmt.Fprintf(&b, "cn: %s %s\ngivenName: %s\nsn: %s\nuid: %s\n", first, last, first, last, uid)
		fmt.Fprintf(&b, "mail: %s.%s@example.org\ntitle: %s\ntelephoneNumber: %s\n", strings.ToLower(first), strings.ToLower(last), p[5], p[6])
		fmt.Fprintf(&b, "uidNumber: %s\ngidNumber: %s\nhomeDirectory: /home/%s\nloginShell: /bin/bash\n", p[3], p[4], uid)
	}
	return b.String()
}

// PhpLDAPadminInstalled says whether Debian's phpLDAPadmin, slapd and its schemas, the
// LDAP command-line clients, and PHP with its LDAP and XML extensions are here
// (deploy/setup.sh heldout installs them).
func PhpLDAPadminInstalled() bool {
	for _, f := range []string{filepath.Join(phpldapadminDir, "htdocs", "index.php"), filepath.Join(phpldapadminDir, "lib", "common.php"),
		slapdBin, filepath.Join(phpldapadminSchemas, "inetorgperson.schema"), filepath.Join(phpldapadminSchemas, "nis.schema")} {
		if !exists(f) {
			return false
		}
	}
	for _, bin := range []string{"php", "ldapadd", "ldapsearch"} {
		if _, err := exec.LookPath(bin); err != nil {
			return false
		}
	}
	return exec.Command("php", "-r", `exit(extension_loaded("ldap") && extension_loaded("xml") ? 0 : 1);`).Run() == nil
}

// StartPhpLDAPadmin starts a private slapd, seeds it with PhpLDAPadminSeed through ldapadd,
// reads it back into Seeded, lays out a copy of phpLDAPadmin configured for it and serves
// that copy with php -S until the test ends. It skips the test when phpLDAPadmin, slapd,
// the LDAP clients or PHP's extensions are missing.
func StartPhpLDAPadmin(t testing.TB) *PhpLDAPadmin {
	t.Helper()
	if !PhpLDAPadminInstalled() {
		t.Skip("phpLDAPadmin or OpenLDAP is not installed: run `deploy/setup.sh heldout` (it installs Debian's phpldapadmin, slapd, ldap-utils and PHP's LDAP extension)")
	}
	root := t.TempDir()
	p := &PhpLDAPadmin{Login: PhpLDAPadminLogin, Password: PhpLDAPadminPassword, Dir: root}
	ldapPort := startSlapd(t, root)
	p.LDAP = "ldap://" + Addr(ldapPort) + "/"
	if out, err := p.ldapClient("ldapadd", PhpLDAPadminSeed); err != nil {
		t.Fatalf("phpldapadmin: seeding the directory: %v\n%s", err, out)
	}
	seeded, err := p.Entries()
	if err != nil {
		t.Fatalf("phpldapadmin: %v", err)
	}
	p.Seeded = seeded
	www, sessions := filepath.Join(root, "www"), filepath.Join(root, "sessions")
	phpldapadminLayout(t, www)
	write(t, filepath.Join(www, "config", "config.php"), phpldapadminConfig(ldapPort, filepath.Join(root, "tmp")))
	for _, d := range []string{sessions, filepath.Join(root, "tmp")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	port := FreePort(t)
	p.URL = "http://" + Addr(port) + "/index.php"
	cmd := exec.Command("php", "-S", Addr(port), "-t", filepath.Join(www, "htdocs"), "-d", "session.save_path="+sessions,
		"-d", "display_errors=0", "-d", "log_errors=1", "-d", "date.timezone=UTC")
	cmd.Dir = filepath.Join(www, "htdocs")
	// A few workers: the tree's nodes and the page are asked for at once.
	cmd.Env = append(os.Environ(), "PHP_CLI_SERVER_WORKERS=3", "TZ=UTC")
	p.web = start(t, "phpldapadmin", cmd)
	waitHTTP(t, "phpldapadmin", p.URL, 30*time.Second, p.web)
	return p
}

// startSlapd writes a slapd.conf into dir (the four schemas, an mdb database in dir/db
// with the suffix and its rootdn) and runs slapd in the foreground on a free loopback
// port until the test ends; it returns the port once slapd accepts connections.
func startSlapd(t testing.TB, dir string) int {
	t.Helper()
	db := filepath.Join(dir, "db")
	if err := os.MkdirAll(db, 0o700); err != nil {
		t.Fatal(err)
	}
	var conf strings.Builder
	for _, s := range []string{"core", "cosine", "inetorgperson", "nis"} {
		fmt.Fprintf(&conf, "include %s\n", filepath.Join(phpldapadminSchemas, s+".schema"))
	}
	fmt.Fprintf(&conf, "pidfile %s\nargsfile %s\n", filepath.Join(dir, "slapd.pid"), filepath.Join(dir, "slapd.args"))
	fmt.Fprintf(&conf, "modulepath /usr/lib/ldap\nmoduleload back_mdb\n\ndatabase mdb\nmaxsize 33554432\n")
	fmt.Fprintf(&conf, "suffix %q\nrootdn %q\nrootpw %s\ndirectory %s\n", PhpLDAPadminBase, PhpLDAPadminLogin, slapdSSHA(PhpLDAPadminPassword), db)
	conf.WriteString("index objectClass eq\nindex uid,cn,sn,memberUid eq,sub\n")
	file := filepath.Join(dir, "slapd.conf")
	write(t, file, conf.String())
	port := FreePort(t)
	// -d 0 keeps slapd in the foreground (a process the test owns) without debug output.
	proc := start(t, "slapd", exec.Command(slapdBin, "-f", file, "-h", "ldap://"+Addr(port)+"/", "-d", "0"))
	deadline := time.Now().Add(20 * time.Second)
	for {
		if c, err := net.DialTimeout("tcp", Addr(port), time.Second); err == nil {
			c.Close()
			return port
		}
		select {
		case <-proc.done:
			t.Fatalf("slapd stopped:\n%s", proc.out.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("slapd did not listen on %d in 20s:\n%s", port, proc.out.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// slapdSSHA is password hashed as slappasswd does by default: {SSHA} and base64 of
// SHA-1(password + salt) + salt.
func slapdSSHA(password string) string {
	salt := make([]byte, 8)
	_, _ = rand.Read(salt)
	sum := sha1.Sum(append([]byte(password), salt...))
	return "{SSHA}" + base64.StdEncoding.EncodeToString(append(sum[:], salt...))
}

// phpldapadminLayout lays out the served copy in dir: htdocs' scripts and lib copied (the
// scripts find lib as ../lib from their own folder, and lib finds the configuration as
// ../config from its own, so both must be the copy's), the static folders and the
// read-only parts (templates, queries, hooks, translations) linked, and a config folder of
// its own.
func phpldapadminLayout(t testing.TB, dir string) {
	t.Helper()
	htdocs := filepath.Join(dir, "htdocs")
	for _, d := range []string{htdocs, filepath.Join(dir, "config")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if out, err := exec.Command("cp", "-a", filepath.Join(phpldapadminDir, "lib"), filepath.Join(phpldapadminDir, "VERSION"), dir).CombinedOutput(); err != nil {
		t.Fatalf("phpldapadmin: copy the code: %v\n%s", err, out)
	}
	phpldapadminMend(t, filepath.Join(dir, "lib", "functions.php"))
	entries, err := os.ReadDir(filepath.Join(phpldapadminDir, "htdocs"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		src, dst := filepath.Join(phpldapadminDir, "htdocs", e.Name()), filepath.Join(htdocs, e.Name())
		if e.IsDir() {
			err = os.Symlink(src, dst)
		} else if b, rerr := os.ReadFile(src); rerr != nil {
			err = rerr
		} else {
			err = os.WriteFile(dst, b, 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{"templates", "queries", "hooks", "locale"} {
		if err := os.Symlink(filepath.Join(phpldapadminDir, name), filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
}

// phpldapadminSplit is how phpLDAPadmin reads back what it encrypted into the session (the
// login DN and password, at every request): the ciphertext, the IV and the tag, joined by
// "::", split at the first two "::". The IV is random bytes, so once in a few hundred
// sign-ins it holds "::" or ends in ":", the split goes wrong, openssl_decrypt warns, and
// the error handler dies serializing the warning's arguments (a known upstream bug, the
// answer a blank 500). The copy cuts the IV and the tag at their fixed lengths instead:
// the same values whenever the split was right.
const (
	phpldapadminSplit   = "list($encryptedData, $iv, $tag) = explode('::', base64_decode($encdata), 3);"
	phpldapadminByFixed = "$raw = base64_decode($encdata); $ivlen = openssl_cipher_iv_length(SESSION_CIPHER); " +
		"$tag = substr($raw, -16); $iv = substr($raw, -18 - $ivlen, $ivlen); $encryptedData = substr($raw, 0, -20 - $ivlen);"
)

// phpldapadminMend makes the copy's functions.php read the session's secrets back by
// phpldapadminByFixed; the package's line must be there.
func phpldapadminMend(t testing.TB, file string) {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(string(b), phpldapadminSplit) != 1 {
		t.Fatalf("phpldapadmin: %s does not read its session's secrets as Debian's 1.2.6.3 does", file)
	}
	write(t, file, strings.Replace(string(b), phpldapadminSplit, phpldapadminByFixed, 1))
}

// phpldapadminConfig is the copy's config.php: Debian's settings (its friendly names for
// attributes, the server's name, session sign-in with the login DN filled in), pointed at
// the private slapd and its suffix, with a session secret of its own, the template
// warnings about schemas this server lacks (Samba, Courier, ...) hidden, and UTC.
func phpldapadminConfig(ldapPort int, tmp string) string {
	secret := make([]byte, 16)
	_, _ = rand.Read(secret)
	return fmt.Sprintf(`<?php
$config->custom->session['blowfish'] = '%s';
$config->custom->appearance['friendly_attrs'] = array(
	'facsimileTelephoneNumber' => 'Fax',
	'gid'                      => 'Group',
	'mail'                     => 'Email',
	'telephoneNumber'          => 'Telephone',
	'uid'                      => 'User Name',
	'userPassword'             => 'Password'
);
$config->custom->appearance['hide_template_warning'] = true;
$config->custom->appearance['timezone'] = 'UTC';
$config->custom->jpeg['tmpdir'] = '%s';
$config->custom->session['reCAPTCHA-enable'] = false;

$servers = new Datastore();
$servers->newServer('ldap_pla');
$servers->setValue('server','name','My LDAP Server');
$servers->setValue('server','host','127.0.0.1');
$servers->setValue('server','port',%d);
$servers->setValue('server','base',array('%s'));
$servers->setValue('login','auth_type','session');
$servers->setValue('login','bind_id','%s');
`, hex.EncodeToString(secret), tmp, ldapPort, PhpLDAPadminBase, PhpLDAPadminLogin)
}

package testenv

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Tomcat is a private Apache Tomcat — Debian's tomcat10 10.1 with tomcat10-admin — used
// through its own administration web apps: the Manager (/manager/html), which lists the
// applications of the host localhost and starts, stops, reloads, undeploys and deploys them
// and expires their sessions, and the Host Manager (/host-manager/html), which adds, stops
// and removes virtual hosts. Each instance is a CATALINA_BASE of its own in a temporary
// folder: its server.xml (a connector on a free loopback port, no shutdown port, three
// virtual hosts besides localhost), its tomcat-users.xml (admin, who may use both web apps'
// pages, and a judge who may use only their text interfaces, with a password of the
// instance's own), its webapps folder with the seed's small applications, and the package's
// two web apps deployed from the package's folders, their sign-in switched from the browser's
// BASIC dialog to a sign-in form (a private copy of each one's web.xml, the form served from
// the instance's folder), as a headless browser needs. The package's bootstrap.jar runs it
// with Java in the foreground until the test ends. The judges read the Manager's and Host
// Manager's text interfaces (read-only: list) and the folder's files.
type Tomcat struct {
	URL      string // the server's root, e.g. http://127.0.0.1:PORT
	User     string // admin
	Password string
	Base     string // the instance's CATALINA_BASE
	judge    string // the judge's password (the text interfaces)
	reader   *http.Client
	seed     TomcatState
}

// TomcatPassword is admin's password in every instance: one grant on the worker serves
// each fresh instance of a test.
const TomcatPassword = "Catalina-Console-58!"

// TomcatApp is one of the seed's applications on the host localhost: its context path,
// the display name its web.xml gives, whether it is running and how many sessions it
// holds.
type TomcatApp struct {
	Path, Name string
	Running    bool
	Sessions   int
}

// The seed every instance starts from: eight applications in pairs of similar names (two
// of them stopped, two holding sessions), two releases of a catalog application waiting in
// webapps/releases (a folder the host does not deploy by itself), and three virtual hosts
// besides localhost.
var (
	TomcatSeedApps = []TomcatApp{
		{"/inventory", "Inventory Service", true, 0},
		{"/invoices", "Invoices Portal", true, 0},
		{"/shop", "Web Shop", true, 3},
		{"/shop-staging", "Web Shop (staging)", true, 2},
		{"/reports", "Sales Reports", false, 0},
		{"/reports-beta", "Sales Reports (beta)", false, 0},
		{"/wiki", "Team Wiki", true, 0},
		{"/wiki-old", "Team Wiki (archived)", true, 0},
	}
	// TomcatSeedReleases are the WAR files in webapps/releases and the display name each
	// one's web.xml gives.
	TomcatSeedReleases = [][2]string{{"catalog-2.0.war", "Product Catalog 2.0"}, {"catalog-2.1.war", "Product Catalog 2.1"}}
	// TomcatSeedHosts are the virtual hosts besides localhost: name, app base, aliases.
	TomcatSeedHosts = [][3]string{
		{"static.example.org", "static-apps", "cdn.example.org"},
		{"stats.example.org", "stats-apps", "stats"},
		{"status.example.org", "status-apps", ""},
	}
)

const (
	tomcatHome  = "/usr/share/tomcat10"
	tomcatAdmin = "/usr/share/tomcat10-admin"
	tomcatJudge = "deploybot"
)

// TomcatInstalled says whether Debian's tomcat10 and tomcat10-admin and a Java runtime are
// here (deploy/setup.sh heldout installs them).
func TomcatInstalled() bool {
	for _, f := range []string{"bin/bootstrap.jar", "bin/tomcat-juli.jar", "etc/web.xml", "etc/context.xml", "etc/catalina.properties"} {
		if !exists(filepath.Join(tomcatHome, f)) {
			return false
		}
	}
	if !exists(filepath.Join(tomcatAdmin, "manager/WEB-INF/web.xml")) || !exists(filepath.Join(tomcatAdmin, "host-manager/WEB-INF/web.xml")) {
		return false
	}
	_, err := exec.LookPath("java")
	return err == nil
}

// StartTomcat writes a fresh CATALINA_BASE with the seed, runs Tomcat on it until the test
// ends, opens sessions on the applications that hold some, stops those the seed has
// stopped and records the seed's state. It skips the test when Tomcat or Java is missing.
func StartTomcat(t testing.TB) *Tomcat {
	t.Helper()
	if !TomcatInstalled() {
		t.Skip("Tomcat is not installed: run `deploy/setup.sh heldout` (it installs Debian's tomcat10 and tomcat10-admin)")
	}
	secret := make([]byte, 12)
	_, _ = rand.Read(secret)
	tc := &Tomcat{User: "admin", Password: TomcatPassword, Base: t.TempDir(), judge: hex.EncodeToString(secret)}
	port := FreePort(t)
	tc.URL = "http://" + Addr(port)
	tc.writeBase(t, port)
	tc.writeApps(t)
	cmd := exec.Command("java", "-Xmx384m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
		"-Dcatalina.home="+tomcatHome, "-Dcatalina.base="+tc.Base, "-Djava.io.tmpdir="+filepath.Join(tc.Base, "temp"),
		"-Djava.util.logging.config.file="+filepath.Join(tc.Base, "conf", "logging.properties"),
		"-Djava.util.logging.manager=org.apache.juli.ClassLoaderLogManager",
		"-cp", filepath.Join(tomcatHome, "bin", "bootstrap.jar")+":"+filepath.Join(tomcatHome, "bin", "tomcat-juli.jar"),
		"org.apache.catalina.startup.Bootstrap", "start")
	cmd.Dir = tc.Base
	cmd.Env = append(os.Environ(), "TZ=UTC")
	p := start(t, "tomcat", cmd)
	waitHTTP(t, "tomcat", tc.URL+"/manager/signin/signin.html", 60*time.Second, p)
	tc.seedRuntime(t)
	tc.seed = tc.State(t)
	if n := len(tc.seed["app"]); n != len(TomcatSeedApps)+2 {
		t.Fatalf("tomcat: the Manager lists %d applications, not %d: %v", n, len(TomcatSeedApps)+2, tc.seed["app"])
	}
	return tc
}

// seedRuntime opens the seed's sessions (each a visit of its own, with no cookie, to the
// application's page, which keeps a session) and stops the applications the seed has
// stopped, through the Manager's text interface.
func (tc *Tomcat) seedRuntime(t testing.TB) {
	t.Helper()
	c := &http.Client{Timeout: 30 * time.Second}
	for _, a := range TomcatSeedApps {
		for range a.Sessions {
			resp, err := c.Get(tc.URL + a.Path + "/")
			if err != nil {
				t.Fatalf("tomcat: open a session on %s: %v", a.Path, err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("tomcat: %s answered %d", a.Path, resp.StatusCode)
			}
		}
		if !a.Running {
			if out := tc.Text(t, "/manager/text/stop?path="+a.Path); !strings.HasPrefix(out, "OK") {
				t.Fatalf("tomcat: stop %s: %s", a.Path, out)
			}
		}
	}
}

// writeBase writes the instance's configuration: server.xml, tomcat-users.xml, logging
// and the package's default web.xml, context.xml and catalina.properties (JAR scanning
// off, which only slows the start), the two administration web apps' context files and
// their web.xml with a sign-in form, and the sign-in form itself.
func (tc *Tomcat) writeBase(t testing.TB, port int) {
	t.Helper()
	for _, d := range []string{"conf/Catalina/localhost", "webapps/releases", "signin", "logs", "temp", "work"} {
		mkdirAll(t, filepath.Join(tc.Base, d))
	}
	files := map[string]string{
		"conf/server.xml":         tomcatServerXML(port),
		"conf/tomcat-users.xml":   tomcatUsersXML(tc.Password, tc.judge),
		"conf/logging.properties": tomcatLogging,
		"conf/web.xml":            readText(t, filepath.Join(tomcatHome, "etc/web.xml")),
		"conf/context.xml":        readText(t, filepath.Join(tomcatHome, "etc/context.xml")),
		"conf/catalina.properties": readText(t, filepath.Join(tomcatHome, "etc/catalina.properties")) +
			"\ntomcat.util.scan.StandardJarScanFilter.jarsToSkip=*.jar\n",
		"signin/signin.html": tomcatSignInPage(""),
		"signin/failed.html": tomcatSignInPage("The username or password you entered is incorrect."),
	}
	for _, app := range []string{"manager", "host-manager"} {
		dd := filepath.Join(tc.Base, "conf", app+"-web.xml")
		files["conf/"+app+"-web.xml"] = tomcatFormSignIn(t, app)
		files["conf/Catalina/localhost/"+app+".xml"] = fmt.Sprintf(`<?xml version="1.0" encoding="UTF-8"?>
<Context docBase="%s" altDDName="%s" antiResourceLocking="false" privileged="true">
  <Resources>
    <PostResources className="org.apache.catalina.webresources.DirResourceSet" base="%s" webAppMount="/signin"/>
  </Resources>
</Context>
`, filepath.Join(tomcatAdmin, app), dd, filepath.Join(tc.Base, "signin"))
	}
	for name, text := range files {
		write(t, filepath.Join(tc.Base, name), text)
	}
}

// tomcatFormSignIn is the package's web.xml of the web app app with its BASIC sign-in
// replaced by a sign-in form (the instance's /signin pages).
func tomcatFormSignIn(t testing.TB, app string) string {
	t.Helper()
	dd := readText(t, filepath.Join(tomcatAdmin, app, "WEB-INF/web.xml"))
	const basic = "<auth-method>BASIC</auth-method>"
	if !strings.Contains(dd, basic) || !strings.Contains(dd, "</realm-name>") {
		t.Fatalf("tomcat: the %s web app's web.xml has no BASIC sign-in", app)
	}
	dd = strings.Replace(dd, basic, "<auth-method>FORM</auth-method>", 1)
	return strings.Replace(dd, "</realm-name>", `</realm-name>
    <form-login-config>
      <form-login-page>/signin/signin.html</form-login-page>
      <form-error-page>/signin/failed.html</form-error-page>
    </form-login-config>`, 1)
}

// tomcatServerXML is the instance's server.xml: one connector on port of the loopback
// address, no shutdown port, the users of conf/tomcat-users.xml, the host localhost (its
// applications deployed at start only, webapps/releases never by itself, one sign-in for
// both administration web apps) and the seed's virtual hosts.
func tomcatServerXML(port int) string {
	var hosts strings.Builder
	for _, h := range TomcatSeedHosts {
		alias := ""
		if h[2] != "" {
			alias = "\n        <Alias>" + h[2] + "</Alias>\n      "
		}
		fmt.Fprintf(&hosts, "      <Host name=%q appBase=%q unpackWARs=\"true\" autoDeploy=\"false\">%s</Host>\n", h[0], h[1], alias)
	}
	return fmt.Sprintf(`<?xml version="1.0" encoding="UTF-8"?>
<Server port="-1" shutdown="SHUTDOWN">
  <GlobalNamingResources>
    <Resource name="UserDatabase" auth="Container" type="org.apache.catalina.UserDatabase"
              description="User database that can be updated and saved"
              factory="org.apache.catalina.users.MemoryUserDatabaseFactory" pathname="conf/tomcat-users.xml" />
  </GlobalNamingResources>
  <Service name="Catalina">
    <Connector port="%d" address="127.0.0.1" protocol="HTTP/1.1" connectionTimeout="20000" />
    <Engine name="Catalina" defaultHost="localhost">
      <Realm className="org.apache.catalina.realm.UserDatabaseRealm" resourceName="UserDatabase"/>
      <Host name="localhost" appBase="webapps" unpackWARs="true" autoDeploy="false" deployIgnore="^releases$">
        <Valve className="org.apache.catalina.authenticator.SingleSignOn" />
      </Host>
%s    </Engine>
  </Service>
</Server>
`, port, hosts.String())
}

// tomcatUsersXML is the instance's tomcat-users.xml: admin, who may use the two web apps'
// pages, and the judge, who may use only their text interfaces.
func tomcatUsersXML(password, judge string) string {
	return fmt.Sprintf(`<?xml version="1.0" encoding="UTF-8"?>
<tomcat-users xmlns="http://tomcat.apache.org/xml" version="1.0">
  <role rolename="manager-gui"/>
  <role rolename="admin-gui"/>
  <role rolename="manager-script"/>
  <role rolename="admin-script"/>
  <user username="admin" password=%q roles="manager-gui,admin-gui"/>
  <user username=%q password=%q roles="manager-script,admin-script"/>
</tomcat-users>
`, password, tomcatJudge, judge)
}

const tomcatLogging = `handlers = java.util.logging.ConsoleHandler
.handlers = java.util.logging.ConsoleHandler
java.util.logging.ConsoleHandler.level = WARNING
java.util.logging.ConsoleHandler.formatter = org.apache.juli.OneLineFormatter
`

// mkdirAll makes a folder and its parents.
func mkdirAll(t testing.TB, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
}

// readText is a file's text.
func readText(t testing.TB, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

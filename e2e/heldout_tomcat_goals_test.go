//go:build heldout

package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// tomcatGoal is an everyday goal on Tomcat's Manager or Host Manager pages, written three
// ways as a person writes it from what the pages show ({signin} is the phrasing's way of
// signing in); app is the web app it starts on ("manager" or "host-manager", its page
// /APP/html); done reads the two web apps' text lists and the CATALINA_BASE's files and
// says "" when the goal's effect is there and nothing else the pages change did, else what
// it found; do makes the effect through the pages along the goal's path, and miss a near
// miss the judge must not take for it (another application or host of a similar name,
// another release, another alias).
type tomcatGoal struct {
	name      string
	app       string
	phrasings [3]string
	done      func(t testing.TB, tc *testenv.Tomcat) string
	do, miss  func(t testing.TB, b *testenv.TomcatBrowser)
}

const (
	tomcatRelease = "catalog-2.1.war"
	tomcatNewHost = "intranet.example.org"
	tomcatAlias   = "intranet"
	tomcatAppBase = "intranet-apps"
)

var tomcatGoals = []tomcatGoal{
	{
		name: "stop an application",
		app:  "manager",
		phrasings: [3]string{
			`{signin}, click "Stop" in the row of "/inventory", check that "OK - Stopped application at context path [/inventory]" appears`,
			`{signin}, then in the Manager's Applications list stop /inventory (the Inventory Service) with the Stop button of its row`,
			`{signin} Once the Tomcat Web Application Manager shows its Applications table, find the row whose Path is "/inventory" (display name Inventory Service, not /invoices) and hit the Stop button in that row's Commands column.`,
		},
		done: func(t testing.TB, tc *testenv.Tomcat) string {
			return tomcatExactly(t, tc, func(s testenv.TomcatState) { tomcatSetRunning(s, "/inventory", "stopped") })
		},
		do: func(t testing.TB, b *testenv.TomcatBrowser) {
			tomcatPress(t, b, "stop", "/inventory", "OK - Stopped application at context path [/inventory]")
		},
		miss: func(t testing.TB, b *testenv.TomcatBrowser) { b.Press(t, "stop", "/invoices") },
	},
	{
		name: "start a stopped application",
		app:  "manager",
		phrasings: [3]string{
			`{signin}, click "Start" in the row of "/reports", check that "OK - Started application at context path [/reports]" appears`,
			`{signin} then start the stopped app /reports (Sales Reports) from the Applications list - Start button in its row`,
			`{signin} In the Applications table the application at /reports is not running (its Running column says false). Click Start among the Commands of the /reports row and leave /reports-beta stopped.`,
		},
		done: func(t testing.TB, tc *testenv.Tomcat) string {
			return tomcatExactly(t, tc, func(s testenv.TomcatState) { tomcatSetRunning(s, "/reports", "running") })
		},
		do: func(t testing.TB, b *testenv.TomcatBrowser) {
			tomcatPress(t, b, "start", "/reports", "OK - Started application at context path [/reports]")
		},
		miss: func(t testing.TB, b *testenv.TomcatBrowser) { b.Press(t, "start", "/reports-beta") },
	},
	{
		name: "undeploy an application",
		app:  "manager",
		phrasings: [3]string{
			`{signin}, click "Undeploy" in the row of "/wiki-old", check that "OK - Undeployed application at context path [/wiki-old]" appears`,
			`{signin}, then undeploy /wiki-old (Team Wiki (archived)) from the Applications list by clicking Undeploy in its row`,
			`{signin} We no longer need the archived wiki. In the Manager's Applications table go to the row with the path /wiki-old and press "Undeploy" there; the current wiki at /wiki must stay deployed.`,
		},
		done: func(t testing.TB, tc *testenv.Tomcat) string {
			return tomcatExactly(t, tc, func(s testenv.TomcatState) {
				delete(s["app"], "/wiki-old")
				tomcatDropFiles(s, "webapps/wiki-old")
			})
		},
		do: func(t testing.TB, b *testenv.TomcatBrowser) {
			tomcatPress(t, b, "undeploy", "/wiki-old", "OK - Undeployed application at context path [/wiki-old]")
		},
		miss: func(t testing.TB, b *testenv.TomcatBrowser) { b.Press(t, "undeploy", "/wiki") },
	},
	{
		name: "expire an application's sessions",
		app:  "manager",
		phrasings: [3]string{
			`{signin}, in the row of "/shop" replace "30" with "0" in the field between "with idle ≥" and "minutes", then click "Expire sessions" in that row`,
			`{signin}, then expire every session of /shop: in its row set the idle minutes box (with idle ≥ … minutes) to 0 and press Expire sessions`,
			`{signin} The Web Shop at /shop has stale sessions. In the Applications list, in the part of the /shop row (not /shop-staging) that reads "with idle ≥ 30 minutes", change the number in the box to 0 and click the Expire sessions button next to it, so that all of its sessions are expired.`,
		},
		done: func(t testing.TB, tc *testenv.Tomcat) string {
			return tomcatExactly(t, tc, func(s testenv.TomcatState) { s["sessions"]["/shop"] = "none" })
		},
		do:   func(t testing.TB, b *testenv.TomcatBrowser) { tomcatExpire(t, b, "/shop") },
		miss: func(t testing.TB, b *testenv.TomcatBrowser) { tomcatExpire(t, b, "/shop-staging") },
	},
	{
		name: "deploy a WAR file from the server",
		app:  "manager",
		phrasings: [3]string{
			`{signin}, under "Deploy directory or WAR file located on server" type "/catalog" into "Context Path", type "releases/catalog-2.1.war" into "WAR or Directory path", click "Deploy" in that section, check that "OK - Deployed application at context path [/catalog]" appears`,
			`{signin}, then deploy the WAR file releases/catalog-2.1.war, which is already on the server, at the context path /catalog (section Deploy directory or WAR file located on server, button Deploy)`,
			`{signin} Scroll down to the Deploy part of the Manager. In the box "Deploy directory or WAR file located on server" enter /catalog as the Context Path and releases/catalog-2.1.war in the field labelled WAR or Directory path (leave Version and XML Configuration file path empty), then hit its Deploy button, not the one for uploading a WAR file.`,
		},
		done: tomcatDeployed,
		do:   func(t testing.TB, b *testenv.TomcatBrowser) { tomcatDeploy(t, b, tomcatRelease) },
		miss: func(t testing.TB, b *testenv.TomcatBrowser) { tomcatDeploy(t, b, "catalog-2.0.war") },
	},
	{
		name: "add a virtual host",
		app:  "host-manager",
		phrasings: [3]string{
			`{signin}, under "Add Virtual Host" type "intranet.example.org" into "Name", type "intranet" into "Aliases", type "intranet-apps" into "App base", click "Add", check that "OK - Host [intranet.example.org] added" appears`,
			`{signin}, then in the Host Manager add a virtual host named intranet.example.org with the alias intranet and the App base intranet-apps (leave the checkboxes as they are) and press Add`,
			`{signin} On the Tomcat Virtual Host Manager page fill in the Add Virtual Host form: Name "intranet.example.org", Aliases intranet, and intranet-apps in the App base field. Keep the checkboxes as they are and click the Add button.`,
		},
		done: tomcatHostAdded,
		do:   func(t testing.TB, b *testenv.TomcatBrowser) { tomcatAddHost(t, b, tomcatNewHost) },
		miss: func(t testing.TB, b *testenv.TomcatBrowser) { tomcatAddHost(t, b, "intranet.example.com") },
	},
	{
		name: "remove a virtual host",
		app:  "host-manager",
		phrasings: [3]string{
			`{signin}, click "Remove" in the row of "stats.example.org", check that "OK - Removed host [stats.example.org]" appears`,
			`{signin}, then remove the virtual host stats.example.org (alias stats) with the Remove button in its row of the host list`,
			`{signin} In the Host Manager's list of virtual hosts find stats.example.org (careful: not status.example.org or static.example.org) and press Remove in its Commands column.`,
		},
		done: func(t testing.TB, tc *testenv.Tomcat) string {
			return tomcatExactly(t, tc, func(s testenv.TomcatState) { delete(s["host"], "stats.example.org") })
		},
		do: func(t testing.TB, b *testenv.TomcatBrowser) {
			tomcatPress(t, b, "remove", "stats.example.org", "OK - Removed host [stats.example.org]")
		},
		miss: func(t testing.TB, b *testenv.TomcatBrowser) { b.Press(t, "remove", "status.example.org") },
	},
}

// tomcatExactly says whether the state is the seed changed by change and nothing else.
func tomcatExactly(t testing.TB, tc *testenv.Tomcat, change func(testenv.TomcatState)) string {
	want := tc.Seed()
	change(want)
	return tc.Differs(t, want)
}

// tomcatSetRunning sets the application at path of the state to running or stopped, its
// document base as it was.
func tomcatSetRunning(s testenv.TomcatState, path, running string) {
	_, rest, _ := strings.Cut(s["app"][path], " ")
	s["app"][path] = running + " " + rest
}

// tomcatDropFiles takes the file or folder path, and all under it, out of the state.
func tomcatDropFiles(s testenv.TomcatState, path string) {
	for k := range s["file"] {
		if k == path || strings.HasPrefix(k, path+"/") {
			delete(s["file"], k)
		}
	}
}

// tomcatDeployed says whether the application /catalog is running from a copy of the
// release the goal names (webapps/catalog.war, unpacked into webapps/catalog), and nothing
// else changed.
func tomcatDeployed(t testing.TB, tc *testenv.Tomcat) string {
	got := tc.State(t)
	row, ok := got["app"]["/catalog"]
	if !ok {
		return "no application at /catalog"
	}
	if row != "running docbase=catalog" {
		return fmt.Sprintf("the application /catalog is %q, not running from webapps/catalog", row)
	}
	if sum, want := got["file"]["webapps/catalog.war"], tc.ReleaseMD5(t, tomcatRelease); sum != want {
		return fmt.Sprintf("webapps/catalog.war is %q, not a copy of releases/%s", sum, tomcatRelease)
	}
	delete(got["app"], "/catalog")
	tomcatDropFiles(got, "webapps/catalog.war")
	tomcatDropFiles(got, "webapps/catalog")
	return got.Diff(tc.Seed())
}

// tomcatHostAdded says whether the Host Manager lists the goal's host with the goal's
// alias alone and its app base folder is there, and nothing else changed (but the folders
// Tomcat makes for the new host: its app base, its configuration folder and the Manager's
// context file there).
func tomcatHostAdded(t testing.TB, tc *testenv.Tomcat) string {
	got := tc.State(t)
	aliases, ok := got["host"][tomcatNewHost]
	if !ok {
		return "no virtual host " + tomcatNewHost
	}
	if aliases != tomcatAlias {
		return fmt.Sprintf("the host %s has the aliases %q, not %s", tomcatNewHost, aliases, tomcatAlias)
	}
	if got["file"][tomcatAppBase] != "dir" {
		return fmt.Sprintf("the host's app base folder %s is not there", tomcatAppBase)
	}
	delete(got["host"], tomcatNewHost)
	tomcatDropFiles(got, tomcatAppBase)
	tomcatDropFiles(got, "conf/Catalina/"+tomcatNewHost)
	return got.Diff(tc.Seed())
}

// tomcatExpire types 0 into the idle minutes of the application's Expire sessions and
// presses the button.
func tomcatExpire(t testing.TB, b *testenv.TomcatBrowser, path string) {
	t.Helper()
	f := b.Form(t, "expire", path)
	f.Fields.Set("idle", "0")
	b.Send(t, f)
}

// tomcatDeploy deploys the release file of webapps/releases at /catalog through "Deploy
// directory or WAR file located on server".
func tomcatDeploy(t testing.TB, b *testenv.TomcatBrowser, release string) {
	t.Helper()
	f := b.Form(t, "deploy", "")
	f.Fields.Set("deployPath", "/catalog")
	f.Fields.Set("deployWar", "releases/"+release)
	if msg := testenv.TomcatMessage(b.Send(t, f)); msg != "OK - Deployed application at context path [/catalog]" {
		t.Fatalf("the deployment says %q", msg)
	}
}

// tomcatAddHost adds the virtual host name with the goal's alias and app base through the
// Host Manager's Add Virtual Host, its boxes as the page ticks them.
func tomcatAddHost(t testing.TB, b *testenv.TomcatBrowser, name string) {
	t.Helper()
	f := b.Form(t, "add", "")
	f.Fields.Set("name", name)
	f.Fields.Set("aliases", tomcatAlias)
	f.Fields.Set("appBase", tomcatAppBase)
	if msg, want := testenv.TomcatMessage(b.Send(t, f)), "OK - Host ["+name+"] added"; msg != want {
		t.Fatalf("adding the host says %q, not %q", msg, want)
	}
}

// tomcatPress presses the button of the form command for target (an application's
// context path, a host's name) and checks that the page then says msg, as phrasing 1 has
// it checked.
func tomcatPress(t testing.TB, b *testenv.TomcatBrowser, command, target, msg string) {
	t.Helper()
	if got := testenv.TomcatMessage(b.Press(t, command, target)); got != msg {
		t.Fatalf("%s %s says %q, not %q", command, target, got, msg)
	}
}

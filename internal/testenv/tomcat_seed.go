package testenv

import (
	"archive/zip"
	"bytes"
	"fmt"
	"html"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeApps writes the seed's applications into webapps, each an exploded folder (a page
// of its own that keeps a session, and a web.xml that names it), and the releases into
// webapps/releases, each a WAR file of the same kind.
func (tc *Tomcat) writeApps(t testing.TB) {
	t.Helper()
	for _, a := range TomcatSeedApps {
		dir := filepath.Join(tc.Base, "webapps", strings.TrimPrefix(a.Path, "/"))
		mkdirAll(t, filepath.Join(dir, "WEB-INF"))
		for name, text := range tomcatAppFiles(a.Name) {
			write(t, filepath.Join(dir, name), text)
		}
	}
	for _, r := range TomcatSeedReleases {
		var buf bytes.Buffer
		z := zip.NewWriter(&buf)
		for _, name := range []string{"index.jsp", "WEB-INF/web.xml"} {
			w, err := z.Create(name)
			if err != nil {
				t.Fatal(err)
			}
			_, _ = w.Write([]byte(tomcatAppFiles(r[1])[name]))
		}
		if err := z.Close(); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(tc.Base, "webapps", "releases", r[0]), buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, h := range TomcatSeedHosts {
		mkdirAll(t, filepath.Join(tc.Base, h[1]))
	}
}

// tomcatAppFiles are a small application's files, by their path in it: a JSP page that
// greets its visitor in a session of its own, and a web.xml that names the application.
func tomcatAppFiles(name string) map[string]string {
	n := html.EscapeString(name)
	return map[string]string{
		"index.jsp": fmt.Sprintf(`<%%@ page contentType="text/html; charset=UTF-8" session="true" %%><!DOCTYPE html>
<html><head><title>%s</title></head>
<body><h1>%s</h1><p>Your session started at <%%= new java.util.Date(session.getCreationTime()) %%>.</p></body></html>
`, n, n),
		"WEB-INF/web.xml": fmt.Sprintf(`<?xml version="1.0" encoding="UTF-8"?>
<web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" version="6.0">
  <display-name>%s</display-name>
  <welcome-file-list><welcome-file>index.jsp</welcome-file></welcome-file-list>
</web-app>
`, n),
	}
}

// tomcatSignInPage is the administration web apps' sign-in form (FORM authentication's
// j_security_check), with a message above it when a sign-in failed.
func tomcatSignInPage(message string) string {
	if message != "" {
		message = `<p class="error">` + html.EscapeString(message) + "</p>\n"
	}
	return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<title>Apache Tomcat - Log In</title>
<style>
` + tomcatSignInCSS + `</style>
</head>
<body>
<div class="box">
<h1>Apache Tomcat</h1>
<p>Log in to manage this server's applications and virtual hosts.</p>
` + message + `<form method="post" action="j_security_check">
<label for="j_username">Username</label>
<input type="text" id="j_username" name="j_username" autocomplete="username" autofocus>
<label for="j_password">Password</label>
<input type="password" id="j_password" name="j_password" autocomplete="current-password">
<input type="submit" value="Log In">
</form>
</div>
</body>
</html>
`
}

const tomcatSignInCSS = `body { font-family: Tahoma, Arial, sans-serif; background: #f4f4f4; color: #333; }
.box { width: 22em; margin: 6em auto; padding: 1.5em 2em; background: #fff; border: 1px solid #525d76; }
h1 { color: #fff; background: #525d76; margin: -0.75em -1.1em 1em; padding: 0.4em 0.6em; font-size: 1.4em; }
label { display: block; margin-top: 0.8em; font-weight: bold; }
input[type=text], input[type=password] { width: 100%; padding: 0.3em; box-sizing: border-box; }
input[type=submit] { margin-top: 1.2em; padding: 0.3em 1.5em; }
.error { color: #b00; font-weight: bold; }
`

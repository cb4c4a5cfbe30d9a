# heldout_pouchdb.sh installs PouchDB Server, one of the held-out applications (setup.sh
# heldout). Sourced by heldout.sh, which provides apt_install() (and setup.sh log()).

# install_pouchdb installs PouchDB Server (a held-out application: a CouchDB-compatible
# database server that serves CouchDB's own admin web interface, Fauxton, at /_utils, whose
# pages create and delete databases, create, edit and delete their JSON documents, and
# change the server's settings) from the npm registry, run by Node.js (Debian's, when none
# is here). Every install script is left out, so nothing is compiled or downloaded besides
# the packages: its LevelDB store (leveldown) loads the prebuilt binary its package ships,
# and the SQLite store it offers instead (sqlite3, which would be built) is not used. Each
# test runs a private server on a free loopback port, its databases and its config.json in a
# temporary folder, with no admin (the "admin party": no sign-in); the judges read its
# databases through its own CouchDB HTTP API and its settings from its config.json.
: "${POUCHDB_VERSION:=4.2.0}"
: "${POUCHDB_DIR:=$WEBAGENT_TOOLS/pouchdb-server-$POUCHDB_VERSION}"
pouchdb_ok() {
	local m="$POUCHDB_DIR/node_modules"
	[[ -f "$m/pouchdb-server/bin/pouchdb-server" && -f "$m/pouchdb-fauxton/www/index.html" &&
		-f "$m/leveldown/prebuilds/linux-x64/node.napi.glibc.node" ]] &&
		grep -q "\"version\": \"$POUCHDB_VERSION\"" "$m/pouchdb-server/package.json" && command -v node >/dev/null
}
pouchdb_versions() {
	echo "$POUCHDB_VERSION, pouchdb-fauxton $(sed -n 's/.*"version": "\(.*\)".*/\1/p' "$POUCHDB_DIR/node_modules/pouchdb-fauxton/package.json"), node $(node --version)"
}
install_pouchdb() {
	install_node
	if pouchdb_ok; then
		log pouchdb "$(pouchdb_versions) cached"
		return
	fi
	log pouchdb "$POUCHDB_VERSION installing from the npm registry (a minute or two, once)"
	local dir="$POUCHDB_DIR.tmp" try
	rm -rf "$dir" && mkdir -p "$dir"
	printf '{"private": true, "dependencies": {"pouchdb-server": "%s"}}\n' "$POUCHDB_VERSION" >"$dir/package.json"
	for try in 1 2 3; do
		if (cd "$dir" && npm install --ignore-scripts --no-audit --no-fund --loglevel=error >/dev/null); then
			break
		fi
		log pouchdb "npm install failed (try $try of 3), retrying"
		sleep 3
	done
	POUCHDB_DIR="$dir" pouchdb_ok || { echo "pouchdb-server did not install" >&2; exit 1; }
	rm -rf "$POUCHDB_DIR" && mv "$dir" "$POUCHDB_DIR"
	log pouchdb "$(pouchdb_versions) installed"
}

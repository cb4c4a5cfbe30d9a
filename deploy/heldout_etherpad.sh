# heldout_etherpad.sh installs Etherpad, one of the held-out applications (setup.sh heldout).
# Sourced by heldout.sh, which provides apt_install() (and setup.sh log()).

# install_etherpad installs Etherpad (a held-out application: a collaborative text editor
# whose pads, their text and authorship colours, their chat, and the names of their authors
# are kept in a key-value database, here ueberDB's "dirty" file, one JSON record a line)
# from the npm registry, where its server is published as ep_etherpad-lite, run by Node.js
# (Debian's, when none is here). The registry holds the 1.8 series only: 1.8.14 is pinned.
# Etherpad finds its base folder as the parent of a folder named src and serves some of its
# pages' scripts from src/node_modules, as in its own source tree, so the installed folder
# is laid out as that tree is: the package moved to src/, the modules it depends on to
# src/node_modules, and a node_modules beside src/ linking the package back under its own
# name (where Etherpad's plugin loader, npm ls, looks for it). Each test writes a
# settings.json of its own in a temporary folder (a free loopback port, a database file
# there, an admin user) and runs Etherpad's server.js with it; nothing is written to the
# installed folder.
: "${ETHERPAD_VERSION:=1.8.14}"
: "${ETHERPAD_DIR:=$WEBAGENT_TOOLS/etherpad-$ETHERPAD_VERSION}"
etherpad_ok() {
	[[ -f "$ETHERPAD_DIR/src/node/server.js" && -L "$ETHERPAD_DIR/node_modules/ep_etherpad-lite" &&
		-d "$ETHERPAD_DIR/src/node_modules/ueberdb2" && -d "$ETHERPAD_DIR/src/node_modules/socket.io" ]]
}
install_etherpad() {
	local dir="$ETHERPAD_DIR.tmp" try
	if etherpad_ok; then
		log etherpad "$ETHERPAD_VERSION cached, node $(node --version 2>/dev/null || echo missing)"
		return
	fi
	install_node
	log etherpad "$ETHERPAD_VERSION installing from the npm registry (a few minutes, once)"
	rm -rf "$dir" && mkdir -p "$dir"
	printf '{"private": true, "dependencies": {"ep_etherpad-lite": "%s"}}\n' "$ETHERPAD_VERSION" >"$dir/package.json"
	for try in 1 2 3; do
		if (cd "$dir" && npm install --no-audit --no-fund --loglevel=error >/dev/null); then
			break
		fi
		log etherpad "npm install failed (try $try of 3), retrying"
		sleep 3
	done
	[[ -f "$dir/node_modules/ep_etherpad-lite/node/server.js" ]] || { echo "etherpad: npm install failed" >&2; exit 1; }
	mv "$dir/node_modules/ep_etherpad-lite" "$dir/src" && mv "$dir/node_modules" "$dir/src/node_modules" &&
		rm -f "$dir/package-lock.json" && mkdir "$dir/node_modules" && ln -s ../src "$dir/node_modules/ep_etherpad-lite"
	ETHERPAD_DIR="$dir" etherpad_ok || { echo "etherpad did not install" >&2; exit 1; }
	rm -rf "$ETHERPAD_DIR" && mv "$dir" "$ETHERPAD_DIR"
	log etherpad "$ETHERPAD_VERSION installed, node $(node --version)"
}

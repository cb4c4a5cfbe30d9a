# heldout_meshcentral.sh installs MeshCentral, one of the held-out applications (setup.sh
# heldout). Sourced by heldout.sh, which provides apt_install() (and setup.sh log()).

# install_meshcentral installs MeshCentral (a held-out application: a remote device
# management server whose web app manages device groups, user accounts, their server
# permissions and device group memberships, and each account's own settings, all kept in
# NeDB files, one JSON document a line) from the npm registry, run by Node.js (Debian's,
# when none is here). MeshCentral installs missing modules with npm when it starts; the
# package's own dependencies are all it needs with the configuration the tests write (NeDB,
# no mail, no second factor), so it never does. Each test writes a meshcentral-data folder
# of its own in a temporary folder (config.json: plain HTTP on a free loopback port, no
# redirect or Intel AMT port, no self update, no backups), creates the site administrator
# with MeshCentral's own command line (--createaccount, --adminaccount) and runs it until
# the test ends, no systemd. The judges read its meshcentral.db back.
: "${MESHCENTRAL_VERSION:=1.1.55}"
: "${MESHCENTRAL_DIR:=$WEBAGENT_TOOLS/meshcentral-$MESHCENTRAL_VERSION}"
meshcentral_ok() {
	local m="$MESHCENTRAL_DIR/node_modules"
	[[ -f "$m/meshcentral/meshcentral.js" && -f "$m/@seald-io/nedb/package.json" && -f "$m/express/package.json" ]]
}
install_meshcentral() {
	local try
	if meshcentral_ok; then
		log meshcentral "$MESHCENTRAL_VERSION cached, node $(node --version 2>/dev/null || echo missing)"
		return
	fi
	install_node
	log meshcentral "$MESHCENTRAL_VERSION installing from the npm registry"
	rm -rf "$MESHCENTRAL_DIR.tmp" && mkdir -p "$MESHCENTRAL_DIR.tmp"
	printf '{"private": true, "dependencies": {"meshcentral": "%s"}}\n' "$MESHCENTRAL_VERSION" >"$MESHCENTRAL_DIR.tmp/package.json"
	for try in 1 2 3; do
		if (cd "$MESHCENTRAL_DIR.tmp" && npm install --no-audit --no-fund --loglevel=error >/dev/null); then
			break
		fi
		log meshcentral "npm install failed (try $try of 3), retrying"
		sleep 3
	done
	MESHCENTRAL_DIR="$MESHCENTRAL_DIR.tmp" meshcentral_ok || { echo "meshcentral did not install" >&2; exit 1; }
	rm -rf "$MESHCENTRAL_DIR" && mv "$MESHCENTRAL_DIR.tmp" "$MESHCENTRAL_DIR"
	log meshcentral "$MESHCENTRAL_VERSION installed, node $(node --version)"
}

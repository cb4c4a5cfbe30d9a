# heldout_decap.sh installs Decap CMS, one of the held-out applications (setup.sh heldout).
# Sourced by heldout.sh, which provides apt_install() (and setup.sh log()).

# install_decap installs Decap CMS (a held-out application: a Git-based headless CMS, a
# single-page admin app that edits a static site's content, Markdown and YAML files, through
# forms its config.yml describes) and its local backend decap-server (which writes and
# commits each change to a git repository) from the npm registry, both pinned, run by
# Node.js (Debian's, when none is here), and Debian's git when it is missing. The admin app
# is the package's own bundle (dist/decap-cms.js and the chunks it loads), served from the
# cache with no CDN. Each test makes a seeded git repository of its own in a temporary
# folder, runs decap-server in git mode on a free loopback port over it, and serves a small
# admin page (index.html and config.yml) with the bundle on another.
: "${DECAP_VERSION:=3.16.3}"
: "${DECAP_SERVER_VERSION:=3.11.3}"
: "${DECAP_DIR:=$WEBAGENT_TOOLS/decap-$DECAP_VERSION}"
decap_ok() {
	[[ -f "$DECAP_DIR/node_modules/decap-cms/dist/decap-cms.js" && -f "$DECAP_DIR/node_modules/decap-server/dist/index.js" ]] &&
		grep -q "\"version\": \"$DECAP_SERVER_VERSION\"" "$DECAP_DIR/node_modules/decap-server/package.json" &&
		command -v git >/dev/null
}
install_decap() {
	local try
	if ! command -v git >/dev/null; then
		log decap "installing Debian's git"
		apt_install decap git
		command -v git >/dev/null || { echo "decap: git did not install" >&2; exit 1; }
	fi
	if decap_ok; then
		log decap "$DECAP_VERSION cached, decap-server $DECAP_SERVER_VERSION, node $(node --version)"
		return
	fi
	install_node
	log decap "$DECAP_VERSION and decap-server $DECAP_SERVER_VERSION installing from the npm registry"
	rm -rf "$DECAP_DIR.tmp" && mkdir -p "$DECAP_DIR.tmp"
	printf '{"private": true, "dependencies": {"decap-cms": "%s", "decap-server": "%s"}}\n' "$DECAP_VERSION" "$DECAP_SERVER_VERSION" >"$DECAP_DIR.tmp/package.json"
	for try in 1 2 3; do
		if (cd "$DECAP_DIR.tmp" && npm install --no-audit --no-fund --loglevel=error >/dev/null); then
			break
		fi
		log decap "npm install failed (try $try of 3), retrying"
		sleep 3
	done
	DECAP_DIR="$DECAP_DIR.tmp" decap_ok || { echo "decap-cms or decap-server did not install" >&2; exit 1; }
	rm -rf "$DECAP_DIR" && mv "$DECAP_DIR.tmp" "$DECAP_DIR"
	log decap "$DECAP_VERSION installed, decap-server $DECAP_SERVER_VERSION, node $(node --version)"
}

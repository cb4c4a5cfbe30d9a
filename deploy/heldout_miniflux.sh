# heldout_miniflux.sh installs Miniflux, one of the held-out applications (setup.sh heldout).
# Sourced by heldout.sh, which provides apt_install() (and setup.sh log()).

# install_miniflux installs Miniflux (a held-out application: a minimalist RSS and Atom feed
# reader people host themselves, whose pages manage subscriptions, categories, entries read
# and starred, users, API keys and each user's settings, all kept in a PostgreSQL database),
# built from the Go module proxy into a cached folder of its own version, and Debian's
# PostgreSQL 15 server and client. Each test makes a PostgreSQL cluster of its own in a
# temporary folder (initdb, its own port and socket folder, no systemd), runs a private
# Miniflux in the foreground on a free loopback port with Miniflux's own migrations and
# admin account, and serves the feeds it reads itself; the judges read that database with
# psql. Any cluster the postgresql package made is not used.
: "${MINIFLUX_VERSION:=v2.3.5}"
: "${MINIFLUX_DIR:=$WEBAGENT_TOOLS/miniflux-$MINIFLUX_VERSION}"
miniflux_pg_ok() {
	[[ -x /usr/lib/postgresql/15/bin/initdb && -x /usr/lib/postgresql/15/bin/postgres ]] && command -v psql >/dev/null
}
# miniflux_version is the module version the cached binary was built from (its -version says
# only its branch: the module proxy's build carries no release stamp).
miniflux_version() { go version -m "$MINIFLUX_DIR/miniflux" 2>/dev/null | awk '$1 == "mod" { print $3; exit }'; }
install_miniflux() {
	if ! miniflux_pg_ok; then
		log miniflux "installing Debian's postgresql-15 and its client"
		apt_install miniflux postgresql-15 postgresql-client-15
		miniflux_pg_ok || { echo "postgresql-15 did not install" >&2; exit 1; }
	fi
	local dir="$MINIFLUX_DIR"
	if [[ -x "$dir/miniflux" ]]; then
		log miniflux "$(miniflux_version) cached, $(psql --version | cut -d' ' -f3) PostgreSQL client"
		return
	fi
	log miniflux "$MINIFLUX_VERSION building from the Go module proxy (a few minutes, once)"
	rm -rf "$dir.tmp" && mkdir -p "$dir.tmp"
	GOBIN="$dir.tmp" GOFLAGS=-buildvcs=false CGO_ENABLED=0 go install "miniflux.app/v2@$MINIFLUX_VERSION" 2>&1 | grep -v "^go: downloading" || true
	# The module's path ends in its major version, so go names the binary after the part before.
	[[ -x "$dir.tmp/miniflux.app" ]] || { echo "miniflux: build failed" >&2; exit 1; }
	mv "$dir.tmp/miniflux.app" "$dir.tmp/miniflux"
	rm -rf "$dir" && mv "$dir.tmp" "$dir"
	log miniflux "$(miniflux_version) built, $(psql --version | cut -d' ' -f3) PostgreSQL client"
}

# heldout_nzbget.sh installs NZBGet, one of the held-out applications (setup.sh heldout).
# Sourced by heldout.sh, which provides apt_install() (and setup.sh log()).

# install_nzbget installs Debian's NZBGet (a held-out application: a Usenet downloader
# whose web control panel lists, edits, reorders and deletes the queued downloads, sets the
# speed limit and edits every option of its configuration file: news servers, categories,
# paths, limits) with its web files, the configuration template its Settings page is built
# from, and the chart libraries the panel loads (libjs-raphael, libjs-elycharts).
# Recommends are left out (an unrar and Python for extension scripts: nothing is ever
# downloaded or unpacked). The package ships no service; /etc/nzbget.conf is never used:
# each test writes a configuration file of its own from the template, runs nzbget in server
# mode in the foreground with every folder in a temporary one, on a free loopback port,
# its news servers on loopback ports nothing listens on, and the judges read that file and
# the daemon's JSON-RPC (listgroups, history, status).
: "${NZBGET_VERSION:=21.0+dfsg-2.1}"
nzbget_ok() {
	command -v nzbget >/dev/null && [[ -f /usr/share/nzbget/webui/index.html && -f /usr/share/nzbget/webui/nzbget.conf ]] &&
		[[ -e /usr/share/nzbget/webui/lib/raphael.min.js && -e /usr/share/nzbget/webui/lib/elycharts.min.js ]]
}
nzbget_version() { dpkg-query -W -f='${Version}' nzbget 2>/dev/null || echo present; }
install_nzbget() {
	if nzbget_ok; then
		log nzbget "$(nzbget_version) present"
		return
	fi
	log nzbget "installing Debian's nzbget $NZBGET_VERSION"
	apt_install nzbget "nzbget=$NZBGET_VERSION" libjs-raphael libjs-elycharts
	nzbget_ok || { echo "nzbget did not install" >&2; exit 1; }
	log nzbget "$(nzbget_version)"
}

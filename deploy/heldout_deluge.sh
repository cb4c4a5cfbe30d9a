# heldout_deluge.sh installs Deluge, one of the held-out applications (setup.sh heldout).
# Sourced by heldout.sh, which provides apt_install() (and setup.sh log()).

# install_deluge installs Debian's Deluge (a held-out application: a BitTorrent client whose
# daemon, deluged, keeps its torrents and preferences in its own config folder, driven
# through deluge-web, its ExtJS web interface) and deluge-console, its command line client.
# The package's service is not used: each test runs a private deluged and deluge-web from
# a config folder of its own on free loopback ports, cut off from the network (no DHT,
# UPnP, NAT-PMP or local peer discovery), and the judges read the daemon's own state
# through the web interface's JSON-RPC API.
: "${DELUGE_VERSION:=2.0.3-4}"
deluge_ok() {
	command -v deluged >/dev/null && command -v deluge-web >/dev/null && command -v deluge-console >/dev/null &&
		/usr/bin/python3 -c 'import deluge, libtorrent' 2>/dev/null
}
install_deluge() {
	local sudo=""
	if deluge_ok; then
		log deluge "$(dpkg-query -W -f='${Version}' deluged 2>/dev/null || echo present) present"
		return
	fi
	if [[ $(id -u) -ne 0 ]]; then sudo="sudo"; fi
	log deluge "installing Debian's deluged, deluge-web and deluge-console $DELUGE_VERSION"
	apt_install deluge "deluged=$DELUGE_VERSION" "deluge-web=$DELUGE_VERSION" "deluge-console=$DELUGE_VERSION" \
		"deluge-common=$DELUGE_VERSION"
	if [[ -d /run/systemd/system ]]; then
		$sudo systemctl disable --now deluged.service deluge-web.service >/dev/null 2>&1 || true
	fi
	deluge_ok || { echo "deluge did not install" >&2; exit 1; }
	log deluge "$(dpkg-query -W -f='${Version}' deluged)"
}

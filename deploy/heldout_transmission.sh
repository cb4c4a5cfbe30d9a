# heldout_transmission.sh installs Transmission for the held-out pool; it is sourced by
# heldout.sh, whose apt_install and setup.sh's log() it uses.

# install_transmission installs Debian's Transmission daemon (a held-out application: a
# BitTorrent client whose web interface lists, adds, pauses, resumes and removes torrents
# and edits its preferences and which of a torrent's files it downloads, all through the
# daemon's JSON RPC) and Transmission's command-line tools, whose transmission-create makes
# the seed's torrents. Each test runs a private daemon in the foreground with a
# configuration folder of its own (settings.json written before it starts), on free
# loopback ports, cut off from the network (no DHT, LPD, PEX, uTP or port forwarding); the
# judge reads what the daemon keeps through its own RPC. The system's service (stopped
# and disabled when this installs the package) and /etc/transmission-daemon are never used.
: "${TRANSMISSION_VERSION:=3.00-2.1+deb12u1}"
transmission_ok() {
	command -v transmission-daemon >/dev/null && command -v transmission-create >/dev/null &&
		[[ -f /usr/share/transmission/web/index.html ]]
}
transmission_version() { dpkg-query -W -f='${Version}' transmission-daemon 2>/dev/null || echo present; }
install_transmission() {
	if transmission_ok; then
		log transmission "$(transmission_version) present"
		return
	fi
	log transmission "installing Debian's transmission-daemon and transmission-cli $TRANSMISSION_VERSION"
	apt_install transmission "transmission-daemon=$TRANSMISSION_VERSION" "transmission-cli=$TRANSMISSION_VERSION" \
		"transmission-common=$TRANSMISSION_VERSION"
	transmission_ok || { echo "transmission did not install" >&2; exit 1; }
	# Debian's package enables and starts a service of its own, which reaches the network
	# (DHT, trackers, a peer port); no test uses it.
	if [[ -d /run/systemd/system ]] && systemctl is-enabled --quiet transmission-daemon 2>/dev/null; then
		local sudo=""
		if [[ $(id -u) -ne 0 ]]; then sudo="sudo"; fi
		log transmission "stopping and disabling Debian's transmission-daemon service: the tests run daemons of their own"
		$sudo systemctl disable --now transmission-daemon >/dev/null 2>&1 || log transmission "could not disable the transmission-daemon service"
	fi
	log transmission "$(transmission_version)"
}

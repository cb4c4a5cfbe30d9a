# heldout_qbittorrent.sh installs qBittorrent, one of the held-out applications (setup.sh
# heldout). Sourced by heldout.sh, which provides apt_install() (and setup.sh log()).

# install_qbittorrent installs Debian's qbittorrent-nox (a held-out application: a
# BitTorrent client with no window, driven through its Web UI, which adds, pauses,
# renames, sorts into categories and removes torrents and sets the client's options, all
# through its Web API). Recommends are left out. The package ships a qbittorrent-nox@
# service template no test uses; where systemd runs and something enabled it for root,
# it is stopped and disabled. Each test runs a private qbittorrent-nox from a profile
# folder of its own in a temporary folder (its qBittorrent.conf written before it starts:
# the legal notice accepted, the Web UI on a free loopback port behind its login, no DHT,
# peer exchange, local peer discovery or port forwarding), seeds it with torrents made
# locally, and the judges read its state back through the Web API.
: "${QBITTORRENT_VERSION:=4.5.2-3+deb12u1}"
qbittorrent_ok() { command -v qbittorrent-nox >/dev/null; }
qbittorrent_version() { dpkg-query -W -f='${Version}' qbittorrent-nox 2>/dev/null || echo present; }
install_qbittorrent() {
	local sudo=""
	if qbittorrent_ok; then
		log qbittorrent "$(qbittorrent_version) present"
		return
	fi
	if [[ $(id -u) -ne 0 ]]; then sudo="sudo"; fi
	log qbittorrent "installing Debian's qbittorrent-nox $QBITTORRENT_VERSION"
	apt_install qbittorrent "qbittorrent-nox=$QBITTORRENT_VERSION"
	qbittorrent_ok || { echo "qbittorrent-nox did not install" >&2; exit 1; }
	if [[ -d /run/systemd/system ]] && systemctl is-enabled --quiet qbittorrent-nox@root 2>/dev/null; then
		log qbittorrent "stopping and disabling Debian's qbittorrent-nox@root service: the tests run instances of their own"
		$sudo systemctl disable --now qbittorrent-nox@root >/dev/null 2>&1 || log qbittorrent "could not disable the qbittorrent-nox@root service"
	fi
	log qbittorrent "$(qbittorrent_version)"
}

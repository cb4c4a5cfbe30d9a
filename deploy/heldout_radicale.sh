# heldout_radicale.sh installs Radicale for the held-out pool; it is sourced by heldout.sh,
# whose apt_install and setup.sh's log() it uses.

# install_radicale installs Debian's Radicale (a held-out application: a CalDAV and
# CardDAV server whose own web interface creates, edits and deletes calendars and address
# books, each kept as a folder of .ics and .vcf files with its properties in a JSON file).
# Each test runs a private instance from a configuration file of its own, with a temporary
# storage folder and one htpasswd user, on a free loopback port; the system's service and
# /etc/radicale are never used.
: "${RADICALE_VERSION:=3.1.8-2}"
radicale_ok() {
	command -v radicale >/dev/null && [[ -f /usr/lib/python3/dist-packages/radicale/web/internal_data/fn.js ]] &&
		/usr/bin/python3 -c 'import radicale, passlib, vobject, defusedxml, dateutil' 2>/dev/null
}
install_radicale() {
	if radicale_ok; then
		log radicale "$(dpkg-query -W -f='${Version}' radicale 2>/dev/null || echo present) present"
		return
	fi
	log radicale "installing Debian's radicale $RADICALE_VERSION"
	apt_install radicale "radicale=$RADICALE_VERSION" "python3-radicale=$RADICALE_VERSION"
	radicale_ok || { echo "radicale did not install" >&2; exit 1; }
	log radicale "$(dpkg-query -W -f='${Version}' radicale)"
}

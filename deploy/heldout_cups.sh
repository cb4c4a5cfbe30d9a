# heldout_cups.sh installs CUPS, one of the held-out applications (setup.sh heldout).
# Sourced by heldout.sh, which provides apt_install() (and setup.sh log()).

# install_cups installs Debian's CUPS 2.4 (a held-out application: the printing system's
# web interface, the admin pages people add, change and delete printers and classes on,
# set a printer's default options, cancel jobs and change the server's settings with) and
# its command-line client (lpadmin, lp, lpstat, cupsenable), which the tests seed each
# instance with and read jobs back with. Recommends are left out (Avahi, colour management,
# printer-driver packages). The package's own cupsd is not started (Debian's policy in a
# container denies it, and the tests never use it): each test runs a cupsd of its own in
# the foreground, its ServerRoot, spool, state, cache, temporary folder and logs in a
# temporary folder, listening on its own loopback port; the judges read that ServerRoot's
# printers.conf, classes.conf, cupsd.conf and PPDs and that spool's job files.
: "${CUPS_VERSION:=2.4.2-3+deb12u9}"
cups_ok() {
	[[ -x /usr/sbin/cupsd && -x /usr/lib/cups/cgi-bin/admin.cgi && -f /usr/share/cups/templates/admin.tmpl ]] &&
		[[ -f /usr/share/cups/drv/sample.drv ]] &&
		command -v lpadmin >/dev/null && command -v lp >/dev/null && command -v lpstat >/dev/null && command -v cupsenable >/dev/null
}
cups_version() { dpkg-query -W -f='${Version}' cups-daemon 2>/dev/null || echo present; }
install_cups() {
	if cups_ok; then
		log cups "$(cups_version) present"
		return
	fi
	log cups "installing Debian's cups and cups-client $CUPS_VERSION"
	apt_install cups "cups=$CUPS_VERSION" "cups-daemon=$CUPS_VERSION" "cups-client=$CUPS_VERSION" "cups-common=$CUPS_VERSION" \
		"cups-core-drivers=$CUPS_VERSION" "cups-server-common=$CUPS_VERSION" "cups-ppdc=$CUPS_VERSION"
	cups_ok || { echo "cups did not install" >&2; exit 1; }
	log cups "$(cups_version)"
}

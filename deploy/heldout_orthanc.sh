# heldout_orthanc.sh installs Orthanc, one of the held-out applications (setup.sh heldout).
# Sourced by heldout.sh, which provides apt_install() (and setup.sh log()).

# install_orthanc installs Debian's Orthanc 1.10 (a held-out application: a lightweight
# DICOM server for medical images whose own web interface, Orthanc Explorer, lists the
# patients, their studies, series and instances, and deletes, protects, anonymizes and
# modifies them). Recommends are left out. Installing starts no daemon that stays running
# (the package's orthanc service, when the system starts services at all, is stopped and
# disabled here): each test runs a private Orthanc as the current user with a
# configuration of its own in a temporary folder (its storage and index folders there,
# its HTTP server on a free loopback port, its DICOM server off, remote access refused and
# no HTTP authentication, Orthanc's accounts being HTTP Basic only), seeded through
# Orthanc's own REST API; the judges read that index through the same REST API.
# /etc/orthanc and /var/lib/orthanc are never used.
: "${ORTHANC_VERSION:=1.10.1+dfsg-2+deb12u1}"
orthanc_ok() { [[ -x /usr/sbin/Orthanc ]] && /usr/sbin/Orthanc --version >/dev/null 2>&1; }
orthanc_version() { dpkg-query -W -f='${Version}' orthanc 2>/dev/null || echo present; }
install_orthanc() {
	if orthanc_ok; then
		log orthanc "$(orthanc_version) present"
		return
	fi
	log orthanc "installing Debian's orthanc $ORTHANC_VERSION"
	apt_install orthanc "orthanc=$ORTHANC_VERSION"
	orthanc_ok || { echo "orthanc did not install" >&2; exit 1; }
	# Debian's package enables and starts an Orthanc service of its own (/etc/orthanc,
	# /var/lib/orthanc, port 8042); no test uses it.
	local sudo=""
	if [[ $(id -u) -ne 0 ]]; then sudo="sudo"; fi
	if [[ -d /run/systemd/system ]] && systemctl is-enabled --quiet orthanc 2>/dev/null; then
		log orthanc "stopping and disabling Debian's orthanc service: the tests run Orthancs of their own"
		$sudo systemctl disable --now orthanc >/dev/null 2>&1 || log orthanc "could not disable the orthanc service"
	elif [[ -x /etc/init.d/orthanc ]] && $sudo service orthanc status >/dev/null 2>&1; then
		log orthanc "stopping Debian's orthanc service: the tests run Orthancs of their own"
		$sudo service orthanc stop >/dev/null 2>&1 || log orthanc "could not stop the orthanc service"
	fi
	log orthanc "$(orthanc_version)"
}

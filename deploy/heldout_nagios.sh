# heldout_nagios.sh installs Nagios Core, one of the held-out applications (setup.sh heldout).
# Sourced by heldout.sh, which provides apt_install() (and setup.sh log()).

# install_nagios installs Debian's Nagios Core 4 (a held-out application: a host and service
# monitor whose classic web interface is a set of C CGIs and a few PHP pages): its daemon
# (nagios4-core), its CGIs and pages (nagios4-cgi), PHP's CGI runtime the pages run under,
# and mailutils, which meets the package's need of a mailx without bringing a mail server.
# Recommends are left out (no Apache set-up). Where systemd runs, the nagios4 service the
# package enables (for /etc/nagios4's configuration) is stopped. Each test runs a private
# daemon from a nagios.cfg of its own in a temporary folder (its checks /bin/true,
# /bin/false and small scripts) and serves the CGIs and pages through Go's net/http/cgi;
# the judges read the daemon's own status.dat. /etc/nagios4 is not used.
: "${NAGIOS_VERSION:=4.4.6-4+deb12u2}"
nagios_ok() {
	[[ -x /usr/sbin/nagios4 && -x /usr/lib/cgi-bin/nagios4/cmd.cgi && -x /usr/lib/cgi-bin/nagios4/status.cgi &&
		-f /usr/share/nagios4/htdocs/index.php && -f /usr/share/nagios4/htdocs/side.php ]] && command -v php-cgi >/dev/null
}
nagios_version() { dpkg-query -W -f='${Version}' nagios4-core 2>/dev/null || echo present; }
install_nagios() {
	local sudo=""
	if nagios_ok; then
		log nagios "$(nagios_version) present, $(php-cgi -v | head -1 | cut -d' ' -f1-2)"
		return
	fi
	if [[ $(id -u) -ne 0 ]]; then sudo="sudo"; fi
	log nagios "installing Debian's nagios4-core and nagios4-cgi $NAGIOS_VERSION, php-cgi and mailutils"
	apt_install nagios "nagios4-core=$NAGIOS_VERSION" "nagios4-cgi=$NAGIOS_VERSION" "nagios4-common=$NAGIOS_VERSION" \
		mailutils php-cli php-cgi
	if [[ -d /run/systemd/system ]]; then
		$sudo systemctl disable --now nagios4.service >/dev/null 2>&1 || true
	fi
	nagios_ok || { echo "nagios did not install" >&2; exit 1; }
	log nagios "$(nagios_version), $(php-cgi -v | head -1 | cut -d' ' -f1-2)"
}

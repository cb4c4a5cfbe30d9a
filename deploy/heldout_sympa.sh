# heldout_sympa.sh installs Sympa, one of the held-out applications (setup.sh heldout).
# Sourced by heldout.sh, which provides apt_install() (and setup.sh log()).

# install_sympa installs Debian's Sympa (a held-out application: the mailing list manager,
# driven through its web interface WWSympa; it keeps each list's settings in a config file
# and the lists' status, members, owners and moderators in an SQL database, here SQLite),
# Debian's lighttpd, which serves WWSympa's FastCGI program in the tests, and the sqlite3
# CLI the tests read the database with. Recommends are left out (they would bring Apache
# and a database server). The package's own configuration asks for a mail domain, which
# it takes from the machine's name when nobody answers and then refuses when that name has
# no dot: it is preseeded (an example domain; no test uses the system's configuration). The
# package enables the system's own Sympa services; where systemd runs they are stopped and
# disabled: no test uses them. Each test writes a Sympa of its own into a temporary
# folder (a sympa.conf and a copy of Sympa::Constants pointing every folder there, its own
# SQLite database, a sendmail that only files the messages) and runs lighttpd on a free
# loopback port; /etc/sympa, /var/lib/sympa and /var/spool/sympa are not used.
: "${SYMPA_VERSION:=6.2.70~dfsg-2+deb12u2}"
: "${SYMPA_DOMAIN:=lists.example.org}"
sympa_ok() {
	[[ -x /usr/lib/sympa/bin/sympa && -x /usr/lib/sympa/bin/sympa.pl && -x /usr/lib/cgi-bin/sympa/wwsympa.fcgi ]] &&
		[[ -f /usr/share/sympa/lib/Sympa/Constants.pm && -x /usr/sbin/lighttpd && -f /usr/share/lighttpd/create-mime.conf.pl ]] &&
		command -v sqlite3 >/dev/null && perl -MDBD::SQLite -e1 2>/dev/null &&
		[[ $(dpkg-query -W -f='${Status}' sympa 2>/dev/null) == "install ok installed" ]]
}
sympa_version() {
	echo "$(dpkg-query -W -f='${Version}' sympa 2>/dev/null || echo present), lighttpd $(dpkg-query -W -f='${Version}' lighttpd 2>/dev/null || echo present), sqlite3 $(sqlite3 --version | cut -d' ' -f1)"
}
install_sympa() {
	if sympa_ok; then
		log sympa "$(sympa_version) present"
		return
	fi
	local sudo=""
	if [[ $(id -u) -ne 0 ]]; then sudo="sudo"; fi
	log sympa "installing Debian's sympa $SYMPA_VERSION, lighttpd and sqlite3 (mail domain $SYMPA_DOMAIN preseeded)"
	printf '%s\n' "sympa sympa/hostname string $SYMPA_DOMAIN" "sympa sympa/listmaster string listmaster@$SYMPA_DOMAIN" \
		"wwsympa wwsympa/wwsympa_url string http://$SYMPA_DOMAIN/wws" | $sudo debconf-set-selections
	# A configuration an earlier, failed install left with a domain without a dot is mended
	# first, or the package's configuration reads it back and fails again.
	local conf=/etc/sympa/sympa/sympa.conf
	if [[ -f $conf ]] && ! grep -qE '^domain[[:space:]]+[^[:space:]]+\.[^[:space:]]+' "$conf"; then
		$sudo sed -i -E "s/^domain[[:space:]].*/domain\t$SYMPA_DOMAIN/; s/^listmaster[[:space:]].*/listmaster\tlistmaster@$SYMPA_DOMAIN/" "$conf"
		DEBIAN_FRONTEND=noninteractive $sudo dpkg --configure -a >/dev/null || log sympa "dpkg --configure -a failed"
	fi
	apt_install sympa "sympa=$SYMPA_VERSION" lighttpd sqlite3 libdbd-sqlite3-perl
	sympa_ok || { echo "sympa did not install" >&2; exit 1; }
	if [[ -d /run/systemd/system ]]; then
		log sympa "stopping and disabling Debian's sympa, wwsympa, sympasoap and lighttpd services: the tests run instances of their own"
		$sudo systemctl disable --now sympa wwsympa.socket wwsympa sympasoap.socket sympasoap lighttpd >/dev/null 2>&1 ||
			log sympa "could not disable the sympa services"
	fi
	log sympa "$(sympa_version)"
}

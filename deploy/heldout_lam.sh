# heldout_lam.sh installs LDAP Account Manager and OpenLDAP, one of the held-out
# applications (setup.sh heldout). Sourced by heldout.sh, which provides apt_install() (and
# setup.sh log()).

# install_lam installs Debian's LDAP Account Manager (a held-out application: a web front
# end in PHP that manages the users, groups and hosts of an LDAP directory through forms,
# with server profiles kept in files of its own), Debian's OpenLDAP server (slapd) and its
# command-line clients (ldap-utils), and the PHP extensions LAM needs. Recommends are left
# out. The package's Apache configuration is not used: each test serves a copy of LAM with
# php -S from a temporary folder (its config folder, server profile and sessions its own)
# in front of a slapd of its own on a free loopback port (a configuration file it writes,
# an mdb database in that folder, seeded with ldapadd); the judges read the directory back
# with ldapsearch. The system's slapd service and the package's own configuration and
# state folders are never used.
: "${LAM_VERSION:=8.3-1}"
: "${SLAPD_VERSION:=2.5.13+dfsg-5}"
lam_ok() {
	[[ -f /usr/share/ldap-account-manager/templates/login.php && -f /usr/share/ldap-account-manager/lib/config.inc ]] &&
		[[ -x /usr/sbin/slapd && -f /etc/ldap/schema/inetorgperson.schema && -f /etc/ldap/schema/nis.schema ]] &&
		command -v ldapadd >/dev/null && command -v ldapsearch >/dev/null && command -v php >/dev/null &&
		php -r 'foreach (["ldap","xml","gmp","zip","mbstring","curl","gd"] as $e) if (!extension_loaded($e)) exit(1);' 2>/dev/null
}
lam_version() {
	echo "$(dpkg-query -W -f='${Version}' ldap-account-manager 2>/dev/null || echo present), slapd $(dpkg-query -W -f='${Version}' slapd 2>/dev/null || echo present)"
}
install_lam() {
	if lam_ok; then
		log lam "$(lam_version) present, $(php -r 'echo "PHP ", PHP_VERSION;')"
		return
	fi
	log lam "installing Debian's ldap-account-manager $LAM_VERSION, slapd and ldap-utils $SLAPD_VERSION and PHP's extensions for it"
	apt_install lam "ldap-account-manager=$LAM_VERSION" "slapd=$SLAPD_VERSION" "ldap-utils=$SLAPD_VERSION" \
		php-cli php-cgi php-ldap php-xml php-gmp php-zip php-mbstring php-curl php-gd
	lam_ok || { echo "ldap-account-manager did not install" >&2; exit 1; }
	log lam "$(lam_version), $(php -r 'echo "PHP ", PHP_VERSION;')"
}

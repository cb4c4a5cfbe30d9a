# heldout_phpldapadmin.sh installs phpLDAPadmin and OpenLDAP, one of the held-out
# applications (setup.sh heldout). Sourced by heldout.sh, which provides apt_install() (and
# setup.sh log()).

# install_phpldapadmin installs Debian's phpLDAPadmin (a held-out application: a web
# front end in PHP for browsing and editing an LDAP directory, from templates), Debian's
# OpenLDAP server (slapd) and its command-line clients (ldap-utils), and the PHP
# extensions phpLDAPadmin needs. php-cgi is named so that the package's need of a PHP web
# runtime is met without Apache: the tests serve each private copy with php -S. Each test
# runs a slapd of its own on a free loopback port (a configuration file it writes, an mdb
# database in a temporary folder, seeded with ldapadd) and serves a copy of phpLDAPadmin
# whose config.php points at it; the judges read the directory back with ldapsearch.
# The system's slapd service and /etc/phpldapadmin are never used.
: "${PHPLDAPADMIN_VERSION:=1.2.6.3-0.3+deb12u1}"
: "${SLAPD_VERSION:=2.5.13+dfsg-5}"
phpldapadmin_ok() {
	[[ -f /usr/share/phpldapadmin/htdocs/index.php && -f /usr/share/phpldapadmin/lib/common.php && -x /usr/sbin/slapd ]] &&
		[[ -f /etc/ldap/schema/inetorgperson.schema && -f /etc/ldap/schema/nis.schema ]] &&
		command -v ldapadd >/dev/null && command -v ldapsearch >/dev/null && command -v php >/dev/null &&
		php -r 'exit(extension_loaded("ldap") && extension_loaded("xml") ? 0 : 1);' 2>/dev/null
}
phpldapadmin_version() {
	echo "$(dpkg-query -W -f='${Version}' phpldapadmin 2>/dev/null || echo present), slapd $(dpkg-query -W -f='${Version}' slapd 2>/dev/null || echo present)"
}
install_phpldapadmin() {
	if phpldapadmin_ok; then
		log phpldapadmin "$(phpldapadmin_version) present, $(php -r 'echo "PHP ", PHP_VERSION;')"
		return
	fi
	log phpldapadmin "installing Debian's phpldapadmin $PHPLDAPADMIN_VERSION, slapd and ldap-utils $SLAPD_VERSION and PHP's LDAP and XML extensions"
	apt_install phpldapadmin "phpldapadmin=$PHPLDAPADMIN_VERSION" "slapd=$SLAPD_VERSION" "ldap-utils=$SLAPD_VERSION" \
		php-cli php-cgi php-ldap php-xml
	phpldapadmin_ok || { echo "phpldapadmin did not install" >&2; exit 1; }
	log phpldapadmin "$(phpldapadmin_version), $(php -r 'echo "PHP ", PHP_VERSION;')"
}

# heldout_cacti.sh installs Cacti, one of the held-out applications (setup.sh heldout).
# Sourced by heldout.sh, which provides apt_install() (and setup.sh log()).

# install_cacti installs Debian's Cacti (a held-out application: a network-graphing admin
# panel in PHP for devices, their graphs, graph trees, users and user groups and the
# panel's settings, all kept in a MySQL database), Debian's MariaDB server and client and
# the PHP extensions Cacti needs. Preseeded answers to the package's two questions (no
# database of its own through dbconfig-common, no web server set up) and dbconfig-no-thanks
# keep the install from making a database or touching a web server; recommends are left
# out. Each test runs a private MariaDB server in a temporary folder (a socket of its own,
# no network), loads the schema the package ships (cacti.sql), serves a copy of the
# package's site folder with php -S on a free loopback port with a config.php of its own,
# and the judges read that database with the mariadb CLI. /etc/cacti is not used.
: "${CACTI_VERSION:=1.2.24+ds1-1+deb12u5}"
cacti_ok() {
	[[ -f /usr/share/cacti/site/index.php && -f /usr/share/cacti/conf_templates/cacti.sql ]] &&
		command -v php >/dev/null && command -v mariadbd >/dev/null && command -v mariadb >/dev/null &&
		command -v mariadb-install-db >/dev/null &&
		php -r 'foreach (["pdo_mysql", "gd", "gmp", "ldap", "mbstring", "snmp", "xml", "simplexml"] as $e) if (!extension_loaded($e)) exit(1);' 2>/dev/null
}
cacti_version() {
	echo "$(dpkg-query -W -f='${Version}' cacti 2>/dev/null || echo present), mariadb $(dpkg-query -W -f='${Version}' mariadb-server 2>/dev/null || echo present)"
}
install_cacti() {
	local sudo=""
	if cacti_ok; then
		log cacti "$(cacti_version) present"
		return
	fi
	if [[ $(id -u) -ne 0 ]]; then sudo="sudo"; fi
	log cacti "installing Debian's cacti $CACTI_VERSION, mariadb-server, mariadb-client and PHP's MySQL extensions"
	printf '%s\n' "cacti cacti/dbconfig-install boolean false" "cacti cacti/webserver select None" | $sudo debconf-set-selections
	apt_install cacti "cacti=$CACTI_VERSION" dbconfig-no-thanks mariadb-server mariadb-client \
		php-cli php-mysql php-gd php-gmp php-ldap php-mbstring php-snmp php-xml
	cacti_ok || { echo "cacti did not install" >&2; exit 1; }
	log cacti "$(cacti_version)"
}

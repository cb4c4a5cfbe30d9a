# heldout_zabbix.sh installs the Zabbix frontend, one of the held-out applications (setup.sh
# heldout). Sourced by heldout.sh, which provides apt_install() (and setup.sh log()).

# install_zabbix installs Debian's Zabbix frontend (a held-out application: the web panel in
# PHP of a monitoring system, for its hosts, host groups, templates, users, maintenance
# periods and settings, all kept in a MySQL database), Debian's Zabbix server for MySQL
# (only for the schema and the data it ships to create that database: no test runs the
# server), Debian's MariaDB server and client and the PHP extensions the frontend needs.
# Recommends are left out (a web server, SNMP and nmap no test uses). The server package
# enables a zabbix-server service; where systemd runs it is stopped and disabled. Each test
# runs a private MariaDB server in a temporary folder (a socket of its own, no network),
# loads the package's schema.sql, images.sql and data.sql into it, serves a copy of the
# frontend's folder with php -S on a free loopback port with a zabbix.conf.php of its own,
# and the judges read that database with the mariadb CLI. /etc/zabbix is not used.
: "${ZABBIX_VERSION:=1:6.0.14+dfsg-1}"
zabbix_ok() {
	[[ -f /usr/share/zabbix/index.php && -f /usr/share/zabbix-server-mysql/schema.sql.gz && -f /usr/share/zabbix-server-mysql/data.sql.gz ]] &&
		command -v php >/dev/null && command -v mariadbd >/dev/null && command -v mariadb >/dev/null &&
		command -v mariadb-install-db >/dev/null &&
		php -r 'foreach (["mysqli", "bcmath", "gd", "mbstring", "xml", "xmlreader", "xmlwriter", "ctype", "session", "sockets"] as $e) if (!extension_loaded($e)) exit(1);' 2>/dev/null
}
zabbix_version() {
	echo "$(dpkg-query -W -f='${Version}' zabbix-frontend-php 2>/dev/null || echo present), mariadb $(dpkg-query -W -f='${Version}' mariadb-server 2>/dev/null || echo present)"
}
install_zabbix() {
	local sudo=""
	if zabbix_ok; then
		log zabbix "$(zabbix_version) present"
		return
	fi
	if [[ $(id -u) -ne 0 ]]; then sudo="sudo"; fi
	log zabbix "installing Debian's zabbix-frontend-php and zabbix-server-mysql $ZABBIX_VERSION, mariadb-server, mariadb-client and PHP's extensions"
	apt_install zabbix "zabbix-frontend-php=$ZABBIX_VERSION" "zabbix-server-mysql=$ZABBIX_VERSION*" mariadb-server mariadb-client \
		php-cli php-mysql php-bcmath php-gd php-mbstring php-xml
	zabbix_ok || { echo "zabbix did not install" >&2; exit 1; }
	if [[ -d /run/systemd/system ]] && systemctl is-enabled --quiet zabbix-server 2>/dev/null; then
		log zabbix "stopping and disabling Debian's zabbix-server service: the tests run no server"
		$sudo systemctl disable --now zabbix-server >/dev/null 2>&1 || log zabbix "could not disable the zabbix-server service"
	fi
	log zabbix "$(zabbix_version)"
}

# heldout_phpmyadmin.sh installs phpMyAdmin, one of the held-out applications (setup.sh heldout).
# Sourced by heldout.sh, which provides apt_install() (and setup.sh log()).

# install_phpmyadmin installs Debian's phpMyAdmin (a held-out application: the MySQL and
# MariaDB admin panel in PHP, pinned by PHPMYADMIN_VERSION's upstream version), Debian's
# MariaDB server and client, and the PHP extensions it needs. dbconfig-no-thanks answers
# the package's question about a database of its own, and recommends are left out, so no
# web server is set up and no database is made. Each test serves a private copy of the
# package's code with php -S, with a configuration of its own, in front of a private
# MariaDB server (a temporary datadir, a socket of its own); the judges read that server
# with the mariadb CLI. /etc/phpmyadmin is not used.
: "${PHPMYADMIN_VERSION:=5.2.1}"
phpmyadmin_ok() {
	[[ -f /usr/share/phpmyadmin/index.php && -f /usr/share/phpmyadmin/libraries/vendor_config.php ]] && command -v php >/dev/null &&
		command -v mariadbd >/dev/null && command -v mariadb >/dev/null && command -v mariadb-install-db >/dev/null &&
		php -r 'exit(extension_loaded("mysqli") && extension_loaded("mbstring") && extension_loaded("sodium") ? 0 : 1);' 2>/dev/null
}
phpmyadmin_version() {
	echo "$(dpkg-query -W -f='${Version}' phpmyadmin 2>/dev/null || echo present), mariadb $(dpkg-query -W -f='${Version}' mariadb-server 2>/dev/null || echo present)"
}
install_phpmyadmin() {
	if phpmyadmin_ok; then
		log phpmyadmin "$(phpmyadmin_version) present"
		return
	fi
	log phpmyadmin "installing Debian's phpmyadmin $PHPMYADMIN_VERSION, mariadb-server, mariadb-client and PHP's MySQL, mbstring and XML extensions"
	apt_install phpmyadmin "phpmyadmin=4:$PHPMYADMIN_VERSION*" dbconfig-no-thanks mariadb-server mariadb-client \
		php-cli php-mysql php-mbstring php-xml
	phpmyadmin_ok || { echo "phpmyadmin did not install" >&2; exit 1; }
	log phpmyadmin "$(phpmyadmin_version)"
}

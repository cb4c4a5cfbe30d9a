# heldout_phpliteadmin.sh installs phpLiteAdmin, one of the held-out applications (setup.sh heldout).
# Sourced by heldout.sh, which provides apt_install() (and setup.sh log()).

# install_phpliteadmin installs Debian's phpLiteAdmin (a held-out application: the web
# admin for SQLite databases, one PHP file), PHP's command line with its SQLite and
# mbstring extensions, and the sqlite3 CLI. Recommends are left out (they would bring
# Apache), and php-cgi is named so that the package's need of a PHP web runtime is met
# without Apache. Each test writes a docroot of its own (a thin phpliteadmin.php running
# the package's file, a phpliteadmin.config.php with its own password and database
# folder), seeds SQLite files in a temporary folder and serves the docroot with php -S;
# the judges read those files with the sqlite3 CLI. /etc/phpliteadmin.config.php is not
# used.
: "${PHPLITEADMIN_VERSION:=1.9.8.2-2}"
phpliteadmin_ok() {
	[[ -f /usr/share/phpliteadmin/phpliteadmin.php ]] && command -v php >/dev/null && command -v sqlite3 >/dev/null &&
		php -r 'exit(extension_loaded("pdo_sqlite") && extension_loaded("mbstring") ? 0 : 1);' 2>/dev/null
}
phpliteadmin_version() {
	echo "$(dpkg-query -W -f='${Version}' phpliteadmin 2>/dev/null || echo present), $(php -r 'echo "PHP ", PHP_VERSION;'), sqlite3 $(sqlite3 --version | cut -d' ' -f1)"
}
install_phpliteadmin() {
	if phpliteadmin_ok; then
		log phpliteadmin "$(phpliteadmin_version) present"
		return
	fi
	log phpliteadmin "installing Debian's phpliteadmin $PHPLITEADMIN_VERSION, php-sqlite3, php-mbstring and sqlite3"
	apt_install phpliteadmin "phpliteadmin=$PHPLITEADMIN_VERSION" php-cli php-cgi php-sqlite3 php-mbstring sqlite3
	phpliteadmin_ok || { echo "phpliteadmin did not install" >&2; exit 1; }
	log phpliteadmin "$(phpliteadmin_version)"
}

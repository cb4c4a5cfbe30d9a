# heldout_zoneminder.sh installs ZoneMinder, one of the held-out applications (setup.sh
# heldout). Sourced by heldout.sh, which provides apt_install() (and setup.sh log()).

# install_zoneminder installs Debian's ZoneMinder (a held-out application: a video
# surveillance system whose PHP web console manages the cameras, called monitors, their
# function, groups of monitors, the console's users and their permissions and the system's
# options, all kept in a MySQL database), Debian's MariaDB server and client and the PHP
# extensions the console needs; recommends (Apache, FFmpeg, the documentation) are left
# out. The package makes no database and starts no daemon of its own: its service is not
# enabled and needs a database it is never given. Each test runs a private MariaDB server
# in a temporary folder (a socket of its own, no network), loads the schema the package
# ships (zm_create.sql), serves a copy of the package's web folder, pointed at a zm.conf of
# its own, with php -S on a free loopback port, and runs no capture daemon (the console's
# calls to them go to stand-ins that do nothing); the judges read that database with the
# mariadb CLI. /etc/zm, /var/cache/zoneminder and /var/log/zm are not used.
: "${ZONEMINDER_VERSION:=1.36.33+dfsg1-1}"
zoneminder_ok() {
	[[ -f /usr/share/zoneminder/www/index.php && -f /usr/share/zoneminder/db/zm_create.sql ]] &&
		command -v php >/dev/null && command -v mariadbd >/dev/null && command -v mariadb >/dev/null &&
		command -v mariadb-install-db >/dev/null &&
		php -r 'foreach (["pdo_mysql", "gd", "intl", "apcu"] as $e) if (!extension_loaded($e)) exit(1);' 2>/dev/null
}
zoneminder_version() {
	echo "$(dpkg-query -W -f='${Version}' zoneminder 2>/dev/null || echo present), mariadb $(dpkg-query -W -f='${Version}' mariadb-server 2>/dev/null || echo present)"
}
install_zoneminder() {
	if zoneminder_ok; then
		log zoneminder "$(zoneminder_version) present"
		return
	fi
	log zoneminder "installing Debian's zoneminder $ZONEMINDER_VERSION, mariadb-server, mariadb-client and PHP's MySQL, GD, intl and APCu extensions"
	apt_install zoneminder "zoneminder=$ZONEMINDER_VERSION" mariadb-server mariadb-client \
		php-cli php-mysql php-gd php-intl php-apcu
	zoneminder_ok || { echo "zoneminder did not install" >&2; exit 1; }
	log zoneminder "$(zoneminder_version)"
}

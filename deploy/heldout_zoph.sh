# heldout_zoph.sh installs Zoph, one of the held-out applications (setup.sh heldout).
# Sourced by heldout.sh, which provides apt_install() (and setup.sh log()).

# install_zoph installs Debian's zoph (a held-out application: a web photo organiser in PHP
# that keeps photos with their albums, categories, people, places, ratings and descriptions
# in a MySQL database), with what it depends on (Debian's MariaDB server and client, PHP's
# MySQL, GD, XML and zip extensions, ImageMagick, jhead), and dbconfig-no-thanks, so that
# the package sets up no database of its own. Recommends are left out. Installing starts no
# daemon that stays running (Apache's and MariaDB's services, which the package pulls in,
# are stopped and disabled here when the system starts services at all): each test runs a
# private MariaDB server in a temporary folder (a socket of its own, no network), loads the
# schema the package ships for its database setup, serves a copy of Zoph's PHP with php -S
# on a free loopback port with a zoph.ini of its own and an image folder in the test's
# folder, imports its seed's photos with a copy of the package's zoph CLI pointed at that
# zoph.ini, and the judges read that database with the mariadb CLI. /etc/zoph.ini and
# /var/lib/zoph are not used.
: "${ZOPH_VERSION:=1.0.1-3}"
zoph_ok() {
	[[ -f /usr/share/zoph/www/php/zoph.php && -f /usr/share/dbconfig-common/data/zoph/install/mysql && -x /usr/bin/zoph ]] &&
		command -v php >/dev/null && command -v mariadbd >/dev/null && command -v mariadb >/dev/null &&
		command -v mariadb-install-db >/dev/null &&
		php -r 'foreach (["mysqli", "pdo_mysql", "gd", "xml", "session"] as $e) if (!extension_loaded($e)) exit(1);' 2>/dev/null
}
zoph_version() {
	echo "$(dpkg-query -W -f='${Version}' zoph 2>/dev/null || echo present), mariadb $(dpkg-query -W -f='${Version}' mariadb-server 2>/dev/null || echo present)"
}
install_zoph() {
	if zoph_ok; then
		log zoph "$(zoph_version) present"
		return
	fi
	log zoph "installing Debian's zoph $ZOPH_VERSION, mariadb-server, mariadb-client and PHP's extensions"
	apt_install zoph "zoph=$ZOPH_VERSION" dbconfig-no-thanks mariadb-server mariadb-client \
		php-cli php-mysql php-gd php-xml php-zip
	zoph_ok || { echo "zoph did not install" >&2; exit 1; }
	# Debian's packages enable and start Apache and MariaDB as services of their own; no
	# test uses them.
	local sudo="" svc
	if [[ $(id -u) -ne 0 ]]; then sudo="sudo"; fi
	for svc in apache2 mariadb; do
		if [[ -d /run/systemd/system ]] && systemctl is-enabled --quiet "$svc" 2>/dev/null; then
			log zoph "stopping and disabling Debian's $svc service: the tests run their own"
			$sudo systemctl disable --now "$svc" >/dev/null 2>&1 || log zoph "could not disable the $svc service"
		elif [[ -x /etc/init.d/$svc ]] && $sudo service "$svc" status >/dev/null 2>&1; then
			log zoph "stopping Debian's $svc service: the tests run their own"
			$sudo service "$svc" stop >/dev/null 2>&1 || log zoph "could not stop the $svc service"
		fi
	done
	log zoph "$(zoph_version)"
}

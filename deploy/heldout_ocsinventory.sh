# heldout_ocsinventory.sh installs OCS Inventory NG's console, one of the held-out
# applications (setup.sh heldout). Sourced by heldout.sh, which provides apt_install() (and
# setup.sh log()).

# install_ocsinventory installs Debian's ocsinventory-reports (a held-out application: the
# web console in PHP of an IT inventory, for the computers its agents report, their TAG
# and other administrative data, static groups of computers, the console's users and
# profiles and the server's settings, all kept in a MySQL database), Debian's MariaDB
# server and client, php-cgi (which meets the package's need of a PHP web runtime without
# Apache) and the PHP extensions the console needs. Recommends are left out (Apache, the
# communication server, nmap). Each test runs a private MariaDB server in a temporary
# folder (a socket of its own, no network), loads the schema the package ships
# (ocsbase.sql), serves a copy of the console with php -S on a free loopback port with a
# dbconfig.inc.php of its own, runs the console's own update page, and the judges read
# that database with the mariadb CLI. /etc/ocsinventory is not used.
: "${OCSINVENTORY_VERSION:=2.8.1+dfsg1+~2.11.1-1}"
ocsinventory_ok() {
	[[ -f /usr/share/ocsinventory-reports/index.php && -f /usr/share/ocsinventory-reports/files/ocsbase.sql ]] &&
		[[ -f /usr/share/php/libphp-phpmailer/autoload.php && -f /usr/share/javascript/jquery-datatables/jquery.dataTables.min.js ]] &&
		command -v php >/dev/null && command -v mariadbd >/dev/null && command -v mariadb >/dev/null &&
		command -v mariadb-install-db >/dev/null &&
		php -r 'foreach (["mysqli", "gd", "mbstring", "xml", "simplexml", "zip", "soap", "session"] as $e) if (!extension_loaded($e)) exit(1);' 2>/dev/null
}
ocsinventory_version() {
	echo "$(dpkg-query -W -f='${Version}' ocsinventory-reports 2>/dev/null || echo present), mariadb $(dpkg-query -W -f='${Version}' mariadb-server 2>/dev/null || echo present)"
}
install_ocsinventory() {
	if ocsinventory_ok; then
		log ocsinventory "$(ocsinventory_version) present"
		return
	fi
	log ocsinventory "installing Debian's ocsinventory-reports $OCSINVENTORY_VERSION, mariadb-server, mariadb-client and PHP's extensions"
	apt_install ocsinventory "ocsinventory-reports=$OCSINVENTORY_VERSION" mariadb-server mariadb-client \
		php-cli php-cgi php-mysql php-gd php-mbstring php-xml php-zip php-soap
	ocsinventory_ok || { echo "ocsinventory did not install" >&2; exit 1; }
	log ocsinventory "$(ocsinventory_version)"
}

# heldout_ttrss.sh installs Tiny Tiny RSS, one of the held-out applications (setup.sh heldout).
# Sourced by heldout.sh, which provides apt_install() (and setup.sh log()).

# install_ttrss installs Debian's Tiny Tiny RSS (a held-out application: a web feed reader in
# PHP and Dojo), Debian's MariaDB server and client, and the PHP extensions it needs (its
# MySQL drivers; curl, through which its proxy setting works). dbconfig-no-thanks and a
# preseeded "no" answer the package's question about a database of its own, recommends are
# left out, and php-cgi is named so that the package's need of a PHP web runtime
# (libapache2-mod-php | php-cgi | php) is met without Apache: no web server is set up and no
# database is made. Where systemd runs, the feed updater the package enables (for
# /etc/tt-rss's database, which there is none of) is stopped. Each test copies the package's
# code into a temporary folder with a config.php of its own, runs a private MariaDB server
# there (a temporary datadir, a socket of its own) and serves the feeds itself; the judges
# read that database with the mariadb CLI. /etc/tt-rss is not used.
: "${TTRSS_VERSION:=21~git20210204.b4cbc79+dfsg-1.2}"
ttrss_ok() {
	[[ -f /usr/share/tt-rss/www/index.php && -f /usr/share/tt-rss/schema/ttrss_schema_mysql.sql ]] && command -v php >/dev/null &&
		command -v mariadbd >/dev/null && command -v mariadb >/dev/null && command -v mariadb-install-db >/dev/null &&
		php -r 'foreach (["mysqli", "pdo_mysql", "curl", "intl", "mbstring", "dom"] as $e) if (!extension_loaded($e)) exit(1);' 2>/dev/null
}
ttrss_version() {
	echo "$(dpkg-query -W -f='${Version}' tt-rss 2>/dev/null || echo present), mariadb $(dpkg-query -W -f='${Version}' mariadb-server 2>/dev/null || echo present)"
}
install_ttrss() {
	local sudo=""
	if ttrss_ok; then
		log ttrss "$(ttrss_version) present"
		return
	fi
	if [[ $(id -u) -ne 0 ]]; then sudo="sudo"; fi
	log ttrss "installing Debian's tt-rss $TTRSS_VERSION, mariadb-server, mariadb-client and PHP's MySQL and curl extensions"
	echo "tt-rss tt-rss/dbconfig-install boolean false" | $sudo debconf-set-selections
	apt_install ttrss "tt-rss=$TTRSS_VERSION" dbconfig-no-thanks mariadb-server mariadb-client \
		php-cli php-cgi php-mysql php-curl php-intl php-mbstring php-xml
	if [[ -d /run/systemd/system ]]; then
		$sudo systemctl disable --now tt-rss.service >/dev/null 2>&1 || true
	fi
	ttrss_ok || { echo "tt-rss did not install" >&2; exit 1; }
	log ttrss "$(ttrss_version)"
}

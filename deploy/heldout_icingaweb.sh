# heldout_icingaweb.sh installs Icinga Web 2, one of the held-out applications (setup.sh heldout).
# Sourced by heldout.sh, which provides apt_install() (and setup.sh log()).

# install_icingaweb installs Debian's Icinga Web 2 (a held-out application: the web front
# end of the Icinga monitoring stack, used here for what it keeps itself, with no Icinga 2
# core: its users, user groups and their members in a database, its roles, dashboards,
# shared navigation items, announcements and each user's preferences in ini files of its
# configuration folder), PostgreSQL 15's server and client, and PHP's command line with the
# PostgreSQL, XML, intl, mbstring and gd extensions. Recommends are left out (they would
# bring Apache and the monitoring module), and php-cgi is named so that the package's need
# of a PHP web runtime is met without Apache. Each test makes a PostgreSQL cluster of its
# own in a temporary folder (initdb, its own port and socket folder, no systemd), loads the
# package's schema there, writes a configuration folder of its own (ICINGAWEB_CONFIGDIR,
# the setup wizard skipped) and serves the package's public folder with php -S; the judges
# read that database with psql and that folder's ini files. /etc/icingaweb2 is not used.
: "${ICINGAWEB_VERSION:=2.11.4-2+deb12u1}"
icingaweb_ok() {
	[[ -f /usr/share/icingaweb2/public/index.php && -f /usr/share/icingaweb2/schema/pgsql.schema.sql ]] &&
		[[ -x /usr/lib/postgresql/15/bin/initdb && -x /usr/lib/postgresql/15/bin/postgres ]] &&
		command -v php >/dev/null && command -v psql >/dev/null &&
		php -r 'exit(extension_loaded("pdo_pgsql") && extension_loaded("dom") && extension_loaded("intl") && extension_loaded("mbstring") ? 0 : 1);' 2>/dev/null
}
icingaweb_version() { dpkg-query -W -f='${Version}' icingaweb2 2>/dev/null || echo present; }
install_icingaweb() {
	if icingaweb_ok; then
		log icingaweb "$(icingaweb_version) present, $(php -r 'echo "PHP ", PHP_VERSION;'), $(psql --version | cut -d' ' -f3) PostgreSQL client"
		return
	fi
	log icingaweb "installing Debian's icingaweb2 $ICINGAWEB_VERSION, postgresql-15 and PHP's PostgreSQL, XML, intl, mbstring and gd extensions"
	apt_install icingaweb "icingaweb2=$ICINGAWEB_VERSION" "icingaweb2-common=$ICINGAWEB_VERSION" "php-icinga=$ICINGAWEB_VERSION" \
		postgresql-15 postgresql-client-15 php-cli php-cgi php-pgsql php-xml php-intl php-mbstring php-gd php-curl
	icingaweb_ok || { echo "icingaweb did not install" >&2; exit 1; }
	log icingaweb "$(icingaweb_version), $(php -r 'echo "PHP ", PHP_VERSION;'), $(psql --version | cut -d' ' -f3) PostgreSQL client"
}

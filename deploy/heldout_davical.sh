# heldout_davical.sh installs DAViCal, one of the held-out applications (setup.sh heldout).
# Sourced by heldout.sh, which provides apt_install() (and setup.sh log()).

# install_davical installs Debian's DAViCal (a held-out application: a CalDAV and CardDAV
# server whose web pages are an admin panel for its users, resources and groups, their
# calendars, group members and grants, all kept in a PostgreSQL database), PostgreSQL 15's
# server and client, and PHP's command line with its PostgreSQL and XML extensions.
# Recommends are left out, and php-cgi is named so that the package's need of a PHP web
# runtime is met without Apache (the site the package ships for Apache is never enabled).
# Each test makes a PostgreSQL cluster of its own in a temporary folder (initdb, its own
# port and socket folder, no systemd), makes DAViCal's database there with the package's
# create-database.sh and serves a copy of its pages with php -S; the judges read that
# database with psql. /etc/davical's configuration and any cluster the postgresql package
# made are not used.
: "${DAVICAL_VERSION:=1.1.12-2}"
davical_ok() {
	[[ -f /usr/share/davical/htdocs/admin.php && -f /usr/share/davical/dba/create-database.sh ]] &&
		[[ -x /usr/lib/postgresql/15/bin/initdb && -x /usr/lib/postgresql/15/bin/postgres ]] &&
		command -v php >/dev/null && command -v psql >/dev/null &&
		php -r 'exit(extension_loaded("pgsql") && extension_loaded("pdo_pgsql") && extension_loaded("xml") ? 0 : 1);' 2>/dev/null
}
davical_version() { dpkg-query -W -f='${Version}' davical 2>/dev/null || echo present; }
install_davical() {
	if davical_ok; then
		log davical "$(davical_version) present, $(psql --version | cut -d' ' -f3) PostgreSQL client"
		return
	fi
	log davical "installing Debian's davical $DAVICAL_VERSION, postgresql-15 and PHP's PostgreSQL and XML extensions"
	apt_install davical "davical=$DAVICAL_VERSION" postgresql-15 postgresql-client-15 php-cli php-cgi php-pgsql php-xml
	davical_ok || { echo "davical did not install" >&2; exit 1; }
	log davical "$(davical_version), $(psql --version | cut -d' ' -f3) PostgreSQL client"
}

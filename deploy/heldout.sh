# heldout.sh installs the held-out applications (setup.sh heldout): real open-source web
# apps the agent is run on blind, once, at the end of a change (go test -tags heldout), each
# judged by its own storage. make test needs none of them. Sourced by setup.sh, which
# provides log().

# apt_install NAME PACKAGE...: install Debian's packages, three tries, waiting for the
# package lock another install may hold.
apt_install() {
	local name=$1 sudo="" try
	shift
	if [[ $(id -u) -ne 0 ]]; then sudo="sudo"; fi
	for try in 1 2 3; do
		if $sudo apt-get -o DPkg::Lock::Timeout=300 update -qq &&
			DEBIAN_FRONTEND=noninteractive $sudo apt-get -o DPkg::Lock::Timeout=300 install -y -qq --no-install-recommends "$@" >/dev/null; then
			return
		fi
		log "$name" "apt-get failed (try $try of 3), retrying"
		sleep 3
	done
}

# install_fossil installs Debian's Fossil (a held-out application: a wiki, tickets,
# technotes and a forum in one binary, kept in one SQLite file) and the sqlite3 CLI the
# tests read that file with. Each test serves a fresh repository of its own.
: "${FOSSIL_VERSION:=1:2.21-1+deb12u1}"
install_fossil() {
	if command -v fossil >/dev/null && command -v sqlite3 >/dev/null; then
		log fossil "$(dpkg-query -W -f='${Version}' fossil 2>/dev/null || echo present) present, $(sqlite3 --version | cut -d' ' -f1) sqlite3"
		return
	fi
	log fossil "installing Debian's fossil $FOSSIL_VERSION and sqlite3"
	apt_install fossil "fossil=$FOSSIL_VERSION" sqlite3
	command -v fossil >/dev/null && command -v sqlite3 >/dev/null || { echo "fossil did not install" >&2; exit 1; }
	log fossil "$(dpkg-query -W -f='${Version}' fossil), $(sqlite3 --version | cut -d' ' -f1) sqlite3"
}

# install_adminer installs Debian's Adminer (a database admin panel in one PHP app), PHP's
# SQLite driver and the sqlite3 CLI: a held-out application (e2e/heldout_adminer_test.go),
# each test serving a private copy with php -S over a fresh SQLite file the CLI reads back.
: "${ADMINER_VERSION:=4.8.1}"
adminer_ok() {
	[[ -f /usr/share/adminer/adminer/index.php ]] && command -v php >/dev/null && command -v sqlite3 >/dev/null &&
		php -r 'exit(class_exists("SQLite3") ? 0 : 1);' 2>/dev/null
}
install_adminer() {
	if adminer_ok; then
		log adminer "$(dpkg-query -W -f='${Version}' adminer 2>/dev/null || echo present), $(php -r 'echo "PHP ", PHP_VERSION;'), sqlite3 $(sqlite3 --version | cut -d' ' -f1)"
		return
	fi
	log adminer "installing Debian's adminer $ADMINER_VERSION, php-sqlite3 and sqlite3"
	apt_install adminer "adminer=$ADMINER_VERSION*" php-cli php-sqlite3 sqlite3
	adminer_ok || { echo "adminer did not install" >&2; exit 1; }
	log adminer "$(dpkg-query -W -f='${Version}' adminer), $(php -r 'echo "PHP ", PHP_VERSION;'), sqlite3 $(sqlite3 --version | cut -d' ' -f1)"
}

# install_mediawiki installs Debian's MediaWiki (pinned by MEDIAWIKI_VERSION's series), PHP's
# SQLite driver and the sqlite3 CLI: a held-out application the end-to-end tests drive
# (each test installs a private wiki into a temporary folder and serves it with php -S, and
# the judge reads the wiki's own SQLite database). Recommends are left out: they would
# bring a database server the tests do not use.
: "${MEDIAWIKI_VERSION:=1.39}"
mediawiki_present() {
	[[ -f /usr/share/mediawiki/maintenance/install.php ]] && command -v php >/dev/null && command -v sqlite3 >/dev/null &&
		php -r 'exit(extension_loaded("pdo_sqlite") && extension_loaded("mbstring") && extension_loaded("intl") ? 0 : 1);'
}
mediawiki_version() { dpkg-query -W -f='${Version}' mediawiki 2>/dev/null || echo present; }
install_mediawiki() {
	if mediawiki_present; then
		log mediawiki "$(mediawiki_version) present, $(php -r 'echo "PHP ", PHP_VERSION;')"
		return
	fi
	log mediawiki "installing Debian's mediawiki $MEDIAWIKI_VERSION, PHP's SQLite driver and sqlite3"
	apt_install mediawiki "mediawiki=1:$MEDIAWIKI_VERSION.*" php-cli php-sqlite3 php-intl php-mbstring php-xml sqlite3
	mediawiki_present || { echo "mediawiki did not install" >&2; exit 1; }
	log mediawiki "$(mediawiki_version), $(php -r 'echo "PHP ", PHP_VERSION;')"
}

# PocketBase, a held-out application (deploy/setup.sh heldout; `make test` does not need it):
# a backend with an admin dashboard, built from the Go module proxy (its example binary, the
# dashboard shipped inside the module) into a cached folder of its own version, and Debian's
# sqlite3, with which the tests read its data.db.
: "${POCKETBASE_VERSION:=v0.36.8}"
: "${POCKETBASE_DIR:=$WEBAGENT_TOOLS/pocketbase-$POCKETBASE_VERSION}"

install_pocketbase() {
	if ! command -v sqlite3 >/dev/null; then
		log pocketbase "installing Debian's sqlite3"
		apt_install pocketbase sqlite3
		command -v sqlite3 >/dev/null || { echo "sqlite3 did not install" >&2; exit 1; }
	fi
	local dir="$POCKETBASE_DIR"
	if [[ -x "$dir/pocketbase" ]]; then
		log pocketbase "$POCKETBASE_VERSION cached, sqlite3 $(sqlite3 --version | cut -d' ' -f1)"
		return
	fi
	log pocketbase "$POCKETBASE_VERSION building from the Go module proxy (a few minutes, once)"
	rm -rf "$dir.tmp" && mkdir -p "$dir.tmp"
	GOBIN="$dir.tmp" GOFLAGS=-buildvcs=false CGO_ENABLED=0 go install "github.com/pocketbase/pocketbase/examples/base@$POCKETBASE_VERSION" 2>&1 | grep -v "^go: downloading" || true
	[[ -x "$dir.tmp/base" ]] || { echo "pocketbase: build failed" >&2; exit 1; }
	mv "$dir.tmp/base" "$dir.tmp/pocketbase"
	rm -rf "$dir" && mv "$dir.tmp" "$dir"
	log pocketbase "$POCKETBASE_VERSION built, sqlite3 $(sqlite3 --version | cut -d' ' -f1)"
}

# install_ikiwiki installs Debian's ikiwiki (a held-out application: a wiki compiler whose
# web editing, sign-in, comments, renames and removals run as a CGI program), the Perl
# modules its CGI needs (its recommends are left out, so they are named), git, which keeps
# its page history, and a C compiler, with which ikiwiki builds its CGI wrapper. Each test
# compiles a fresh wiki of its own in a temporary folder and serves it through Go's
# net/http/cgi; the judge reads the wiki's own .mdwn source files.
: "${IKIWIKI_VERSION:=3.20200202.3-1}"
ikiwiki_present() {
	command -v ikiwiki >/dev/null && command -v git >/dev/null && command -v cc >/dev/null &&
		perl -MCGI -MCGI::FormBuilder -MCGI::Session -MDate::Parse -e1 2>/dev/null
}
install_ikiwiki() {
	if ikiwiki_present; then
		log ikiwiki "$(dpkg-query -W -f='${Version}' ikiwiki 2>/dev/null || echo present) present"
		return
	fi
	log ikiwiki "installing Debian's ikiwiki $IKIWIKI_VERSION, its CGI's Perl modules, git and gcc"
	apt_install ikiwiki "ikiwiki=$IKIWIKI_VERSION" libcgi-pm-perl libcgi-formbuilder-perl \
		libcgi-session-perl libtimedate-perl git gcc libc6-dev
	ikiwiki_present || { echo "ikiwiki did not install" >&2; exit 1; }
	log ikiwiki "$(dpkg-query -W -f='${Version}' ikiwiki)"
}

# install_wordpress installs Debian's WordPress (a held-out application: a blog and CMS
# in PHP), Debian's MariaDB server and client, and PHP's MySQL driver. Each test copies
# the package's code into a temporary folder with a wp-config.php of its own and runs a
# private MariaDB server there (a temporary datadir, a socket of its own); the judges read
# that database with the mariadb CLI. /etc/wordpress is not used.
: "${WORDPRESS_VERSION:=6.1}"
wordpress_ok() {
	[[ -f /usr/share/wordpress/wp-admin/install.php && -d /usr/share/wordpress/wp-content/themes/twentytwentythree ]] && command -v php >/dev/null &&
		command -v mariadbd >/dev/null && command -v mariadb >/dev/null && command -v mariadb-install-db >/dev/null &&
		php -r 'exit(extension_loaded("mysqli") ? 0 : 1);'
}
wordpress_version() { echo "$(dpkg-query -W -f='${Version}' wordpress 2>/dev/null || echo present), mariadb $(dpkg-query -W -f='${Version}' mariadb-server 2>/dev/null || echo present)"; }
install_wordpress() {
	if wordpress_ok; then
		log wordpress "$(wordpress_version) present"
		return
	fi
	log wordpress "installing Debian's wordpress $WORDPRESS_VERSION (its default theme), mariadb-server, mariadb-client and php-mysql"
	apt_install wordpress "wordpress=$WORDPRESS_VERSION.*" wordpress-theme-twentytwentythree mariadb-server mariadb-client php-cli php-mysql
	wordpress_ok || { echo "wordpress did not install" >&2; exit 1; }
	log wordpress "$(wordpress_version)"
}

# install_roundcube installs Debian's Roundcube (a held-out application: webmail in PHP,
# which keeps contacts, identities and preferences in an SQL database and the mail itself
# on an IMAP server) with its SQLite backend, Debian's Dovecot as that IMAP server, and
# the sqlite3 CLI the tests read Roundcube's database with. Each test serves a private
# copy of Roundcube with php -S in front of a private Dovecot, both in a temporary folder;
# the system's own Dovecot and Roundcube configuration are never used.
: "${ROUNDCUBE_VERSION:=1.6.5}"
roundcube_ok() {
	[[ -f /usr/share/roundcube/index.php && -f /usr/share/roundcube/SQL/sqlite.initial.sql && -x /usr/sbin/dovecot ]] &&
		command -v php >/dev/null && command -v sqlite3 >/dev/null &&
		php -r 'exit(extension_loaded("pdo_sqlite") && extension_loaded("mbstring") && extension_loaded("intl") ? 0 : 1);' 2>/dev/null
}
roundcube_version() {
	echo "$(dpkg-query -W -f='${Version}' roundcube-core 2>/dev/null || echo present), dovecot $(dpkg-query -W -f='${Version}' dovecot-imapd 2>/dev/null || echo present)"
}
install_roundcube() {
	if roundcube_ok; then
		log roundcube "$(roundcube_version) present"
		return
	fi
	log roundcube "installing Debian's roundcube $ROUNDCUBE_VERSION (SQLite), dovecot-imapd and sqlite3"
	apt_install roundcube "roundcube-core=$ROUNDCUBE_VERSION*" "roundcube-sqlite3=$ROUNDCUBE_VERSION*" \
		dovecot-core dovecot-imapd php-cli php-sqlite3 php-intl php-mbstring sqlite3
	roundcube_ok || { echo "roundcube did not install" >&2; exit 1; }
	log roundcube "$(roundcube_version)"
}

# install_syncthing installs Debian's Syncthing (a held-out application: a file-sync daemon
# with a web admin panel: folders, remote devices and their settings, all kept in its
# config.xml, which the tests read back). Each test runs a private instance from a fresh
# home folder, cut off from the network (no discovery, relays, NAT or usage reporting).
: "${SYNCTHING_VERSION:=1.19.2~ds1-1+b4}"
install_syncthing() {
	if command -v syncthing >/dev/null; then
		log syncthing "$(dpkg-query -W -f='${Version}' syncthing 2>/dev/null || echo present) present"
		return
	fi
	log syncthing "installing Debian's syncthing $SYNCTHING_VERSION"
	apt_install syncthing "syncthing=$SYNCTHING_VERSION"
	command -v syncthing >/dev/null || { echo "syncthing did not install" >&2; exit 1; }
	log syncthing "$(dpkg-query -W -f='${Version}' syncthing)"
}

# The third pool: each app's install in a file of its own.
# shellcheck source=deploy/heldout_shaarli.sh
source "$(dirname "${BASH_SOURCE[0]}")/heldout_shaarli.sh"
# shellcheck source=deploy/heldout_radicale.sh
source "$(dirname "${BASH_SOURCE[0]}")/heldout_radicale.sh"
# shellcheck source=deploy/heldout_phpmyadmin.sh
source "$(dirname "${BASH_SOURCE[0]}")/heldout_phpmyadmin.sh"
# shellcheck source=deploy/heldout_ttrss.sh
source "$(dirname "${BASH_SOURCE[0]}")/heldout_ttrss.sh"
# shellcheck source=deploy/heldout_transmission.sh
source "$(dirname "${BASH_SOURCE[0]}")/heldout_transmission.sh"
# shellcheck source=deploy/heldout_phpldapadmin.sh
source "$(dirname "${BASH_SOURCE[0]}")/heldout_phpldapadmin.sh"
# shellcheck source=deploy/heldout_nagios.sh
source "$(dirname "${BASH_SOURCE[0]}")/heldout_nagios.sh"
# shellcheck source=deploy/heldout_deluge.sh
source "$(dirname "${BASH_SOURCE[0]}")/heldout_deluge.sh"
# shellcheck source=deploy/heldout_znc.sh
source "$(dirname "${BASH_SOURCE[0]}")/heldout_znc.sh"
# shellcheck source=deploy/heldout_postfixadmin.sh
source "$(dirname "${BASH_SOURCE[0]}")/heldout_postfixadmin.sh"
# shellcheck source=deploy/heldout_rabbitmq.sh
source "$(dirname "${BASH_SOURCE[0]}")/heldout_rabbitmq.sh"
# shellcheck source=deploy/heldout_rt.sh
source "$(dirname "${BASH_SOURCE[0]}")/heldout_rt.sh"
# shellcheck source=deploy/heldout_cacti.sh
source "$(dirname "${BASH_SOURCE[0]}")/heldout_cacti.sh"
# shellcheck source=deploy/heldout_alertmanager.sh
source "$(dirname "${BASH_SOURCE[0]}")/heldout_alertmanager.sh"
# shellcheck source=deploy/heldout_lam.sh
source "$(dirname "${BASH_SOURCE[0]}")/heldout_lam.sh"
# shellcheck source=deploy/heldout_thelounge.sh
source "$(dirname "${BASH_SOURCE[0]}")/heldout_thelounge.sh"
# shellcheck source=deploy/heldout_rediscommander.sh
source "$(dirname "${BASH_SOURCE[0]}")/heldout_rediscommander.sh"
# shellcheck source=deploy/heldout_davical.sh
source "$(dirname "${BASH_SOURCE[0]}")/heldout_davical.sh"
# shellcheck source=deploy/heldout_zabbix.sh
source "$(dirname "${BASH_SOURCE[0]}")/heldout_zabbix.sh"
# shellcheck source=deploy/heldout_qbittorrent.sh
source "$(dirname "${BASH_SOURCE[0]}")/heldout_qbittorrent.sh"
# shellcheck source=deploy/heldout_miniflux.sh
source "$(dirname "${BASH_SOURCE[0]}")/heldout_miniflux.sh"
# shellcheck source=deploy/heldout_jupyter.sh
source "$(dirname "${BASH_SOURCE[0]}")/heldout_jupyter.sh"
# shellcheck source=deploy/heldout_icingaweb.sh
source "$(dirname "${BASH_SOURCE[0]}")/heldout_icingaweb.sh"
# shellcheck source=deploy/heldout_directus.sh
source "$(dirname "${BASH_SOURCE[0]}")/heldout_directus.sh"
# shellcheck source=deploy/heldout_tomcat.sh
source "$(dirname "${BASH_SOURCE[0]}")/heldout_tomcat.sh"
# shellcheck source=deploy/heldout_ejabberd.sh
source "$(dirname "${BASH_SOURCE[0]}")/heldout_ejabberd.sh"
# shellcheck source=deploy/heldout_etherpad.sh
source "$(dirname "${BASH_SOURCE[0]}")/heldout_etherpad.sh"
# shellcheck source=deploy/heldout_ghost.sh
source "$(dirname "${BASH_SOURCE[0]}")/heldout_ghost.sh"
# shellcheck source=deploy/heldout_mailman.sh
source "$(dirname "${BASH_SOURCE[0]}")/heldout_mailman.sh"
# shellcheck source=deploy/heldout_meshcentral.sh
source "$(dirname "${BASH_SOURCE[0]}")/heldout_meshcentral.sh"
# shellcheck source=deploy/heldout_homebridge.sh
source "$(dirname "${BASH_SOURCE[0]}")/heldout_homebridge.sh"
# shellcheck source=deploy/heldout_calibre.sh
source "$(dirname "${BASH_SOURCE[0]}")/heldout_calibre.sh"
# shellcheck source=deploy/heldout_signalk.sh
source "$(dirname "${BASH_SOURCE[0]}")/heldout_signalk.sh"
# shellcheck source=deploy/heldout_tryton.sh
source "$(dirname "${BASH_SOURCE[0]}")/heldout_tryton.sh"
# shellcheck source=deploy/heldout_n8n.sh
source "$(dirname "${BASH_SOURCE[0]}")/heldout_n8n.sh"
# shellcheck source=deploy/heldout_ledgersmb.sh
source "$(dirname "${BASH_SOURCE[0]}")/heldout_ledgersmb.sh"
# shellcheck source=deploy/heldout_gitit.sh
source "$(dirname "${BASH_SOURCE[0]}")/heldout_gitit.sh"
# shellcheck source=deploy/heldout_sympa.sh
source "$(dirname "${BASH_SOURCE[0]}")/heldout_sympa.sh"
# shellcheck source=deploy/heldout_actual.sh
source "$(dirname "${BASH_SOURCE[0]}")/heldout_actual.sh"
# shellcheck source=deploy/heldout_zoneminder.sh
source "$(dirname "${BASH_SOURCE[0]}")/heldout_zoneminder.sh"
# shellcheck source=deploy/heldout_cups.sh
source "$(dirname "${BASH_SOURCE[0]}")/heldout_cups.sh"
# shellcheck source=deploy/heldout_nzbget.sh
source "$(dirname "${BASH_SOURCE[0]}")/heldout_nzbget.sh"
# shellcheck source=deploy/heldout_nocodb.sh
source "$(dirname "${BASH_SOURCE[0]}")/heldout_nocodb.sh"
# shellcheck source=deploy/heldout_glewlwyd.sh
source "$(dirname "${BASH_SOURCE[0]}")/heldout_glewlwyd.sh"
# shellcheck source=deploy/heldout_phpliteadmin.sh
source "$(dirname "${BASH_SOURCE[0]}")/heldout_phpliteadmin.sh"
# shellcheck source=deploy/heldout_supervisor.sh
source "$(dirname "${BASH_SOURCE[0]}")/heldout_supervisor.sh"
# shellcheck source=deploy/heldout_flood.sh
source "$(dirname "${BASH_SOURCE[0]}")/heldout_flood.sh"
# shellcheck source=deploy/heldout_decap.sh
source "$(dirname "${BASH_SOURCE[0]}")/heldout_decap.sh"
# shellcheck source=deploy/heldout_ocsinventory.sh
source "$(dirname "${BASH_SOURCE[0]}")/heldout_ocsinventory.sh"
# shellcheck source=deploy/heldout_fedwiki.sh
source "$(dirname "${BASH_SOURCE[0]}")/heldout_fedwiki.sh"
# shellcheck source=deploy/heldout_cloudcmd.sh
source "$(dirname "${BASH_SOURCE[0]}")/heldout_cloudcmd.sh"
# shellcheck source=deploy/heldout_temporalui.sh
source "$(dirname "${BASH_SOURCE[0]}")/heldout_temporalui.sh"
# shellcheck source=deploy/heldout_maildev.sh
source "$(dirname "${BASH_SOURCE[0]}")/heldout_maildev.sh"
# shellcheck source=deploy/heldout_monit.sh
source "$(dirname "${BASH_SOURCE[0]}")/heldout_monit.sh"
# shellcheck source=deploy/heldout_ethercalc.sh
source "$(dirname "${BASH_SOURCE[0]}")/heldout_ethercalc.sh"
# shellcheck source=deploy/heldout_backuppc.sh
source "$(dirname "${BASH_SOURCE[0]}")/heldout_backuppc.sh"
# shellcheck source=deploy/heldout_zoph.sh
source "$(dirname "${BASH_SOURCE[0]}")/heldout_zoph.sh"
# shellcheck source=deploy/heldout_orthanc.sh
source "$(dirname "${BASH_SOURCE[0]}")/heldout_orthanc.sh"
# shellcheck source=deploy/heldout_pouchdb.sh
source "$(dirname "${BASH_SOURCE[0]}")/heldout_pouchdb.sh"
# shellcheck source=deploy/heldout_hledger.sh
source "$(dirname "${BASH_SOURCE[0]}")/heldout_hledger.sh"

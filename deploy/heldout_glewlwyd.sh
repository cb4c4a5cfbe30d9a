# heldout_glewlwyd.sh installs Glewlwyd, one of the held-out applications (setup.sh heldout).
# Sourced by heldout.sh, which provides apt_install() (and setup.sh log()).

# install_glewlwyd installs Debian's Glewlwyd (a held-out application: a single sign-on
# server, OAuth2 and OpenID Connect, with an administration web app for its users, clients
# and scopes, all kept in a database) and the sqlite3 CLI. A preseeded answer to the
# package's question ("No configuration") and dbconfig-no-thanks keep the install from
# making a database of its own; recommends are left out. Each test runs glewlwyd in the
# foreground with a configuration file of its own in a temporary folder: a SQLite database
# made there from the schema the package ships (its init.sqlite3.sql), a free loopback
# port, the package's modules, and a private copy of the package's web app folder (its
# config.json its own) served by glewlwyd itself; the judges read that database with
# sqlite3. /etc/glewlwyd and the package's service are not used.
: "${GLEWLWYD_VERSION:=2.7.5-3+deb12u1}"
glewlwyd_ok() {
	[[ -x /usr/bin/glewlwyd && -f /usr/share/glewlwyd/webapp/index.html && -f /usr/share/doc/glewlwyd/database/init.sqlite3.sql.gz ]] &&
		[[ -f /usr/lib/glewlwyd/user/libusermoddatabase.so && -f /usr/lib/glewlwyd/scheme/libschememodpassword.so ]] &&
		command -v sqlite3 >/dev/null
}
glewlwyd_version() {
	echo "$(dpkg-query -W -f='${Version}' glewlwyd 2>/dev/null || echo present), sqlite3 $(sqlite3 --version | cut -d' ' -f1)"
}
install_glewlwyd() {
	local sudo=""
	if glewlwyd_ok; then
		log glewlwyd "$(glewlwyd_version) present"
		return
	fi
	if [[ $(id -u) -ne 0 ]]; then sudo="sudo"; fi
	log glewlwyd "installing Debian's glewlwyd $GLEWLWYD_VERSION and sqlite3"
	echo "glewlwyd glewlwyd/config_type select No configuration" | $sudo debconf-set-selections
	apt_install glewlwyd "glewlwyd=$GLEWLWYD_VERSION" "glewlwyd-common=$GLEWLWYD_VERSION" dbconfig-no-thanks sqlite3
	glewlwyd_ok || { echo "glewlwyd did not install" >&2; exit 1; }
	log glewlwyd "$(glewlwyd_version)"
}

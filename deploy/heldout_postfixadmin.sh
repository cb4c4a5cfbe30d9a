# heldout_postfixadmin.sh installs Postfix Admin, one of the held-out applications (setup.sh
# heldout). Sourced by heldout.sh, which provides apt_install() (and setup.sh log()).

# install_postfixadmin installs Debian's Postfix Admin (a held-out application: a web admin
# in PHP for a mail server's virtual domains, mailboxes, aliases and domain admins, kept in
# an SQL database), PHP's SQLite, mbstring and IMAP extensions and the sqlite3 CLI. A
# preseeded "no" and dbconfig-no-thanks answer the package's question about a database of
# its own, recommends are left out (no mail server, no database server), and php-cgi is
# named so that the package's need of a PHP web runtime is met without Apache; where Apache
# is already there, the configuration the package enables for it is disabled again. Each
# test copies the package's code into a temporary folder with a configuration of its own
# (an SQLite database there, no mail sent but to a sink of the test's own), serves it with
# php -S and makes its tables through its setup page; the judges read that database with
# sqlite3. /etc/postfixadmin's configuration is only copied, never used.
: "${POSTFIXADMIN_VERSION:=3.3.13-1+deb12u1}"
postfixadmin_ok() {
	[[ -f /usr/share/postfixadmin/public/setup.php && -f /usr/share/postfixadmin/public/upgrade.php && -f /etc/postfixadmin/config.inc.php ]] &&
		command -v php >/dev/null && command -v sqlite3 >/dev/null &&
		php -r 'exit(extension_loaded("pdo_sqlite") && extension_loaded("mbstring") && extension_loaded("imap") ? 0 : 1);' 2>/dev/null
}
postfixadmin_version() { dpkg-query -W -f='${Version}' postfixadmin 2>/dev/null || echo present; }
install_postfixadmin() {
	local sudo=""
	if postfixadmin_ok; then
		log postfixadmin "$(postfixadmin_version) present, $(php -r 'echo "PHP ", PHP_VERSION;')"
		return
	fi
	if [[ $(id -u) -ne 0 ]]; then sudo="sudo"; fi
	log postfixadmin "installing Debian's postfixadmin $POSTFIXADMIN_VERSION, PHP's SQLite, mbstring and IMAP extensions and sqlite3"
	echo "postfixadmin postfixadmin/dbconfig-install boolean false" | $sudo debconf-set-selections
	apt_install postfixadmin "postfixadmin=$POSTFIXADMIN_VERSION" dbconfig-no-thanks \
		php-cli php-cgi php-sqlite3 php-mbstring php-imap sqlite3
	if command -v a2disconf >/dev/null && [[ -e /etc/apache2/conf-enabled/postfixadmin.conf ]]; then
		$sudo a2disconf -q postfixadmin >/dev/null 2>&1 || true
	fi
	postfixadmin_ok || { echo "postfixadmin did not install" >&2; exit 1; }
	log postfixadmin "$(postfixadmin_version), $(php -r 'echo "PHP ", PHP_VERSION;')"
}

# heldout_mailman.sh installs GNU Mailman 3, one of the held-out applications (setup.sh heldout).
# Sourced by heldout.sh, which provides apt_install() (and setup.sh log()).

# install_mailman installs Debian's GNU Mailman 3 (a held-out application: the mailing list
# manager's core, which keeps domains, lists and their settings, members, moderators and
# bans in an SQLite database behind its REST API, and mailman3-web, the Django project of
# its web UI, Postorius, with HyperKitty's archives beside it) and the sqlite3 CLI the tests
# read the core's database with. Recommends are left out (they would bring a mail server and
# a web server). The packages enable and start the system's own core and web UI; where
# systemd runs they are stopped and disabled: no test uses them. Each test writes a core
# configuration of its own in a temporary folder (its var folder and SQLite database, the
# null MTA, no archivers) and runs the core's REST runner alone on a free loopback port, and
# the Django project with settings and an SQLite database of its own, served by Django's
# server on another; /etc/mailman3 and /var/lib/mailman3 are not used.
: "${MAILMAN_VERSION:=3.3.8-2~deb12u2}"
: "${MAILMAN_WEB_VERSION:=0+20200530-2.1}"
: "${MAILMAN_POSTORIUS_VERSION:=1.3.8-3+deb12u1}"
: "${MAILMAN_HYPERKITTY_VERSION:=1.3.7-1}"
mailman_ok() {
	[[ -x /usr/lib/mailman3/bin/runner && -f /usr/share/mailman3-web/manage.py && -f /usr/share/mailman3-web/urls.py ]] &&
		[[ -f /usr/lib/python3/dist-packages/postorius/__init__.py && -f /usr/lib/python3/dist-packages/hyperkitty/__init__.py ]] &&
		command -v sqlite3 >/dev/null
}
mailman_version() {
	echo "mailman3 $(dpkg-query -W -f='${Version}' mailman3 2>/dev/null || echo present)," \
		"postorius $(dpkg-query -W -f='${Version}' python3-django-postorius 2>/dev/null || echo present)," \
		"sqlite3 $(sqlite3 --version | cut -d' ' -f1)"
}
install_mailman() {
	if mailman_ok; then
		log mailman "$(mailman_version) present"
		return
	fi
	log mailman "installing Debian's mailman3 $MAILMAN_VERSION, mailman3-web $MAILMAN_WEB_VERSION (Postorius, HyperKitty) and sqlite3"
	apt_install mailman "mailman3=$MAILMAN_VERSION" "mailman3-web=$MAILMAN_WEB_VERSION" \
		"python3-django-postorius=$MAILMAN_POSTORIUS_VERSION" "python3-django-hyperkitty=$MAILMAN_HYPERKITTY_VERSION" sqlite3
	mailman_ok || { echo "mailman did not install" >&2; exit 1; }
	local sudo=""
	if [[ $(id -u) -ne 0 ]]; then sudo="sudo"; fi
	if [[ -d /run/systemd/system ]] && systemctl is-enabled --quiet mailman3 2>/dev/null; then
		log mailman "stopping and disabling Debian's mailman3 and mailman3-web services: the tests run instances of their own"
		$sudo systemctl disable --now mailman3 mailman3-web >/dev/null 2>&1 || log mailman "could not disable the mailman3 services"
	fi
	log mailman "$(mailman_version)"
}

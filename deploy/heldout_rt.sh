# heldout_rt.sh installs Request Tracker 5, one of the held-out applications (setup.sh
# heldout). Sourced by heldout.sh, which provides apt_install() (and setup.sh log()).

# install_rt installs Debian's Request Tracker 5 (a held-out application: a ticketing
# system in Perl and Mason: tickets in queues, their comments, replies, owners and
# statuses, and an admin area for queues, users and groups) with its SQLite backend and
# its standalone server (rt-server under Starlet), the sqlite3 CLI the tests read its
# database with, msmtp-mta as the mail transport agent the package asks for (a sendmail
# without a daemon; RT's mail never leaves a test: its mailer writes to a file) and
# dbconfig-no-thanks, so that installing the package sets no database up. Each test writes
# an RT_SiteConfig.pm of its own into a temporary folder (RT_SITE_CONFIG), initialises a
# fresh SQLite database there with rt-setup-database, seeds it from an initialdata file and
# serves it with rt-server on a free loopback port; the judges read that database.
# /etc/request-tracker5 is not used.
: "${RT_VERSION:=5.0.3+dfsg-3~deb12u6}"
rt_ok() {
	[[ -x /usr/share/request-tracker5/libexec/rt-server && -x /usr/sbin/rt-setup-database-5 ]] &&
		command -v sqlite3 >/dev/null && perl -MDBD::SQLite -MStarlet -e1 2>/dev/null
}
rt_version() { dpkg-query -W -f='${Version}' request-tracker5 2>/dev/null || echo present; }
install_rt() {
	if rt_ok; then
		log rt "$(rt_version) present, sqlite3 $(sqlite3 --version | cut -d' ' -f1)"
		return
	fi
	log rt "installing Debian's request-tracker5 $RT_VERSION (SQLite, standalone server), sqlite3 and msmtp-mta"
	apt_install rt dbconfig-no-thanks "request-tracker5=$RT_VERSION" "rt5-db-sqlite=$RT_VERSION" \
		"rt5-standalone=$RT_VERSION" "rt5-clients=$RT_VERSION" msmtp-mta sqlite3
	rt_ok || { echo "request-tracker5 did not install" >&2; exit 1; }
	log rt "$(rt_version), sqlite3 $(sqlite3 --version | cut -d' ' -f1)"
}

# heldout_hledger.sh installs hledger-web, one of the held-out applications (setup.sh
# heldout). Sourced by heldout.sh, which provides apt_install() (and setup.sh log()).

# install_hledger installs Debian's hledger-web 1.25 (a held-out application: the web
# interface of hledger, a plain-text double-entry accounting tool, whose pages list a
# journal's accounts with their balances, an account's register, a search over the
# transactions and an "Add transaction" form that appends a transaction to the journal
# file) and Debian's hledger, the command line tool the judges read that journal with
# (hledger print -O json). Both are single programs; nothing else is needed. Recommends are
# left out. The package installs no service: each test runs its own hledger-web on a free
# loopback port over a journal of its own in a temporary folder, with
# --capabilities=view,add (--allow in later releases): the app has no accounts and no
# sign-in, and what a visitor may do is that option alone.
: "${HLEDGER_VERSION:=1.25}"
hledger_ok() {
	command -v hledger-web >/dev/null && command -v hledger >/dev/null &&
		hledger-web --version 2>/dev/null | grep -q "^hledger-web $HLEDGER_VERSION"
}
hledger_versions() {
	echo "$(dpkg-query -W -f='${Version}' hledger-web 2>/dev/null || echo present), hledger $(dpkg-query -W -f='${Version}' hledger 2>/dev/null || echo present)"
}
install_hledger() {
	if hledger_ok; then
		log hledger "$(hledger_versions) present"
		return
	fi
	log hledger "installing Debian's hledger-web $HLEDGER_VERSION and hledger"
	apt_install hledger "hledger-web=$HLEDGER_VERSION*" "hledger=$HLEDGER_VERSION*"
	hledger_ok || { echo "hledger did not install" >&2; exit 1; }
	log hledger "$(hledger_versions)"
}

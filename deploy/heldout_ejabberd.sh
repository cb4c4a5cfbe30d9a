# heldout_ejabberd.sh installs ejabberd for the held-out pool; it is sourced by heldout.sh,
# whose apt_install and setup.sh's log() it uses.

# install_ejabberd installs Debian's ejabberd (a held-out application: an XMPP server whose
# web admin registers and removes users, changes their passwords, edits their rosters and
# offline message queues and manages shared roster groups), with the Erlang runtime it
# brings. Each test runs a private node as its own process: its own node name and cookie,
# its configuration, Mnesia spool and log in a temporary folder, free loopback ports for
# XMPP clients, the web admin and Erlang distribution (no epmd). The judges read the node's
# state with ejabberdctl's commands. Debian's service (which this disables when the package
# starts it), /etc/ejabberd and /var/lib/ejabberd are never used.
: "${EJABBERD_VERSION:=23.01-1}"
ejabberd_ok() {
	[[ -x /usr/bin/erl && -x /usr/sbin/ejabberdctl ]] &&
		compgen -G "/usr/lib/*/ejabberd-*/ebin/ejabberd.beam" >/dev/null
}
ejabberd_version() { dpkg-query -W -f='${Version}' ejabberd 2>/dev/null || echo present; }
install_ejabberd() {
	if ejabberd_ok; then
		log ejabberd "$(ejabberd_version) present"
		return
	fi
	log ejabberd "installing Debian's ejabberd $EJABBERD_VERSION"
	apt_install ejabberd "ejabberd=$EJABBERD_VERSION"
	ejabberd_ok || { echo "ejabberd did not install" >&2; exit 1; }
	# Debian's package enables and starts a node of its own (XMPP on every interface, its
	# own epmd); no test uses it.
	local sudo=""
	if [[ $(id -u) -ne 0 ]]; then sudo="sudo"; fi
	if [[ -d /run/systemd/system ]] && systemctl is-enabled --quiet ejabberd 2>/dev/null; then
		log ejabberd "stopping and disabling Debian's ejabberd service: the tests run nodes of their own"
		$sudo systemctl disable --now ejabberd >/dev/null 2>&1 || log ejabberd "could not disable the ejabberd service"
	elif pgrep -u ejabberd -x beam.smp >/dev/null 2>&1; then
		log ejabberd "stopping Debian's ejabberd: the tests run nodes of their own"
		$sudo service ejabberd stop >/dev/null 2>&1 || log ejabberd "could not stop the ejabberd service"
	fi
	log ejabberd "$(ejabberd_version)"
}

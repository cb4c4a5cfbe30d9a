# heldout_supervisor.sh installs Supervisor for the held-out pool; it is sourced by
# heldout.sh, whose apt_install and setup.sh's log() it uses.

# install_supervisor installs Debian's Supervisor (a held-out application: a process
# control system whose web interface lists the programs it runs, with their state, and
# starts, stops and restarts each one, clears its log and stops or restarts them all).
# Each test runs a supervisord of its own in the foreground: a private supervisord.conf
# in a temporary folder, its web interface on a free loopback port, its logs and its
# programs (small shell loops with similar names) in that folder. The judges read the
# state with the package's supervisorctl against that configuration, and the programs'
# log files. The system's service (stopped and disabled when this installs the package),
# /etc/supervisor and /var/log/supervisor are never used.
: "${SUPERVISOR_VERSION:=4.2.5-1}"
supervisor_ok() {
	[[ -x /usr/bin/supervisord && -x /usr/bin/supervisorctl ]] &&
		[[ -f /usr/lib/python3/dist-packages/supervisor/ui/status.html ]]
}
supervisor_version() { dpkg-query -W -f='${Version}' supervisor 2>/dev/null || echo present; }
install_supervisor() {
	if supervisor_ok; then
		log supervisor "$(supervisor_version) present"
		return
	fi
	log supervisor "installing Debian's supervisor $SUPERVISOR_VERSION"
	apt_install supervisor "supervisor=$SUPERVISOR_VERSION"
	supervisor_ok || { echo "supervisor did not install" >&2; exit 1; }
	# Debian's package enables and starts a supervisord of its own (its socket in /run,
	# its programs in /etc/supervisor/conf.d); no test uses it.
	local sudo=""
	if [[ $(id -u) -ne 0 ]]; then sudo="sudo"; fi
	if [[ -d /run/systemd/system ]] && systemctl is-enabled --quiet supervisor 2>/dev/null; then
		log supervisor "stopping and disabling Debian's supervisor service: the tests run supervisords of their own"
		$sudo systemctl disable --now supervisor >/dev/null 2>&1 || log supervisor "could not disable the supervisor service"
	elif [[ -S /var/run/supervisor.sock ]]; then
		log supervisor "stopping Debian's supervisor service: the tests run supervisords of their own"
		$sudo service supervisor stop >/dev/null 2>&1 || log supervisor "could not stop the supervisor service"
	fi
	log supervisor "$(supervisor_version)"
}

# heldout_monit.sh installs Monit, one of the held-out applications (setup.sh heldout).
# Sourced by heldout.sh, which provides apt_install() (and setup.sh log()).

# install_monit installs Debian's Monit (a held-out application: a process and service
# monitor whose own web interface lists the services it checks, processes, files,
# directories and programs, with their status, and stops, starts, restarts each one and
# disables or enables its monitoring). Each test runs a monit daemon of its own in the
# foreground: a private monitrc (mode 0600) in a temporary folder with its id, state, pid
# and log files there, a short cycle, its web interface on a free loopback port open to
# localhost without accounts (so without HTTP Basic), and a small web shop's services:
# processes the test itself starts (shell loops), files, folders and check programs. The
# judges read the daemon's state through its own status report (its /_status?format=xml,
# which monit -c monitrc status reads too) and the processes themselves. The system's service (stopped and disabled when this installs the package)
# and /etc/monit are never used.
: "${MONIT_VERSION:=1:5.33.0-1}"
monit_ok() { [[ -x /usr/bin/monit ]] && /usr/bin/monit -V >/dev/null 2>&1; }
monit_version() { dpkg-query -W -f='${Version}' monit 2>/dev/null || echo present; }
install_monit() {
	if monit_ok; then
		log monit "$(monit_version) present"
		return
	fi
	log monit "installing Debian's monit $MONIT_VERSION"
	apt_install monit "monit=$MONIT_VERSION"
	monit_ok || { echo "monit did not install" >&2; exit 1; }
	# Debian's package enables and starts a monit daemon of its own (/etc/monit/monitrc);
	# no test uses it.
	local sudo=""
	if [[ $(id -u) -ne 0 ]]; then sudo="sudo"; fi
	if [[ -d /run/systemd/system ]] && systemctl is-enabled --quiet monit 2>/dev/null; then
		log monit "stopping and disabling Debian's monit service: the tests run monit daemons of their own"
		$sudo systemctl disable --now monit >/dev/null 2>&1 || log monit "could not disable the monit service"
	elif [[ -s /run/monit.pid ]]; then
		log monit "stopping Debian's monit service: the tests run monit daemons of their own"
		$sudo service monit stop >/dev/null 2>&1 || log monit "could not stop the monit service"
	fi
	log monit "$(monit_version)"
}

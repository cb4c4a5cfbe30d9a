# heldout_backuppc.sh installs BackupPC, one of the held-out applications (setup.sh
# heldout). Sourced by heldout.sh, which provides apt_install() (and setup.sh log()).

# install_backuppc installs Debian's BackupPC 4.4 (a held-out application: a backup server
# whose web interface, the Perl CGI BackupPC_Admin, lists the hosts it backs up, starts and
# stops their backups, and edits the main configuration and the host list), Debian's
# lighttpd to serve that CGI, and dma, a mail agent that runs no daemon, for the mail
# transport the package asks for (rather than the exim4 daemon apt would choose).
# Recommends are left out. Installing starts no daemon that stays running (BackupPC's and
# lighttpd's services, when the system starts services at all, are stopped and disabled
# here): each test runs a private instance as the current user, its own TopDir, config
# folder (config.pl, hosts, the hosts' own configs), log folder and BackupPC server in a
# temporary folder, with a copy of the package's code pointed at those folders, and its
# own lighttpd on a free loopback port serving BackupPC_Admin; the judges read the config
# files, the pc/ folders' backups files and the server's status (BackupPC_serverMesg).
# /etc/backuppc and /var/lib/backuppc are never used.
: "${BACKUPPC_VERSION:=4.4.0-8}"
backuppc_ok() {
	[[ -f /usr/share/backuppc/lib/BackupPC/Lib.pm && -x /usr/share/backuppc/bin/BackupPC && -f /usr/share/backuppc/cgi-bin/index.cgi ]] &&
		[[ -x /usr/sbin/lighttpd && -f /usr/lib/lighttpd/mod_cgi.so ]] &&
		perl -MBackupPC::XS -MCGI -e1 2>/dev/null
}
backuppc_version() {
	echo "$(dpkg-query -W -f='${Version}' backuppc 2>/dev/null || echo present), lighttpd $(dpkg-query -W -f='${Version}' lighttpd 2>/dev/null || echo present)"
}
install_backuppc() {
	if backuppc_ok; then
		log backuppc "$(backuppc_version) present"
		return
	fi
	log backuppc "installing Debian's backuppc $BACKUPPC_VERSION, lighttpd and dma"
	apt_install backuppc "backuppc=$BACKUPPC_VERSION" lighttpd dma
	backuppc_ok || { echo "backuppc did not install" >&2; exit 1; }
	# Debian's packages enable and start BackupPC's server and lighttpd as services of
	# their own; no test uses them.
	local sudo="" svc
	if [[ $(id -u) -ne 0 ]]; then sudo="sudo"; fi
	for svc in backuppc lighttpd; do
		if [[ -d /run/systemd/system ]] && systemctl is-enabled --quiet "$svc" 2>/dev/null; then
			log backuppc "stopping and disabling Debian's $svc service: the tests run their own"
			$sudo systemctl disable --now "$svc" >/dev/null 2>&1 || log backuppc "could not disable the $svc service"
		elif [[ -x /etc/init.d/$svc ]] && $sudo service "$svc" status >/dev/null 2>&1; then
			log backuppc "stopping Debian's $svc service: the tests run their own"
			$sudo service "$svc" stop >/dev/null 2>&1 || log backuppc "could not stop the $svc service"
		fi
	done
	log backuppc "$(backuppc_version)"
}

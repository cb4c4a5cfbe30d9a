# heldout_znc.sh installs ZNC, one of the held-out applications (setup.sh heldout).
# Sourced by heldout.sh, which provides apt_install() (and setup.sh log()).

# install_znc installs Debian's ZNC (a held-out application: an IRC bouncer whose webadmin
# module is a web admin panel for its users, their IRC networks and channels, the modules
# each loads and the bouncer's global settings, all kept in its znc.conf). Recommends are
# left out (the Perl, Python and Tcl module hosts no test uses). The package ships a znc
# service it does not enable; where systemd runs and something enabled it, it is stopped
# and disabled. Each test runs a private ZNC in the foreground from a data folder of its
# own in a temporary folder (a znc.conf written before it starts, one listener on a free
# loopback port, networks that never connect), and the judges read the znc.conf ZNC
# rewrites. /var/lib/znc is not used.
: "${ZNC_VERSION:=1.8.2-3.1}"
znc_ok() { command -v znc >/dev/null && [[ -f /usr/lib/znc/webadmin.so && -d /usr/share/znc/modules/webadmin ]]; }
znc_version() { dpkg-query -W -f='${Version}' znc 2>/dev/null || echo present; }
install_znc() {
	local sudo=""
	if znc_ok; then
		log znc "$(znc_version) present"
		return
	fi
	if [[ $(id -u) -ne 0 ]]; then sudo="sudo"; fi
	log znc "installing Debian's znc $ZNC_VERSION"
	apt_install znc "znc=$ZNC_VERSION*"
	znc_ok || { echo "znc did not install" >&2; exit 1; }
	if [[ -d /run/systemd/system ]] && systemctl is-enabled --quiet znc 2>/dev/null; then
		log znc "stopping and disabling Debian's znc service: the tests run instances of their own"
		$sudo systemctl disable --now znc >/dev/null 2>&1 || log znc "could not disable the znc service"
	fi
	log znc "$(znc_version)"
}

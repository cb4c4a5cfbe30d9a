# heldout_ledgersmb.sh installs LedgerSMB 1.6, one of the held-out applications (setup.sh
# heldout). Sourced by heldout.sh, which provides apt_install() (and setup.sh log()).

# install_ledgersmb installs Debian's LedgerSMB (a held-out application: double-entry
# accounting in Perl on PostgreSQL: customers and vendors, parts and services, invoices,
# the general ledger, the chart of accounts, company defaults and users with their
# permissions), PostgreSQL 15's server and client and Starman. Recommends are left out
# (they would bring a web server and LaTeX). Each test makes a PostgreSQL cluster of its
# own in a temporary folder (initdb, its own port and socket folder, no systemd), creates
# a company database there with the package's own setup code, writes a ledgersmb.conf of
# its own (LSMB_CONFIG_FILE) and serves the package's PSGI app with Starman on a free
# loopback port; the judges read that company database with psql. /etc/ledgersmb and the
# package's service are not used.
#
# The package's configure step creates its database administrator in a PostgreSQL server
# it expects on the default socket; the tests have no use for that role, so when no server
# answers there a throwaway cluster stands in for that step and is removed after it.
: "${LEDGERSMB_VERSION:=1.6.33+ds-2.1}"
ledgersmb_ok() {
	[[ -f /usr/share/ledgersmb/bin/ledgersmb-server.psgi && -d /usr/share/ledgersmb/sql/modules ]] &&
		[[ -x /usr/lib/postgresql/15/bin/initdb && -x /usr/lib/postgresql/15/bin/postgres ]] &&
		[[ $(dpkg-query -W -f='${Status}' ledgersmb 2>/dev/null) == "install ok installed" ]] &&
		command -v psql >/dev/null && command -v starman >/dev/null &&
		perl -MDBD::Pg -MPlack -MTemplate -e1 2>/dev/null
}
ledgersmb_version() { dpkg-query -W -f='${Version}' ledgersmb 2>/dev/null || echo present; }

# ledgersmb_with_server runs a command while a PostgreSQL server answers on the default
# socket: when none does, a throwaway cluster (the postgres user's, in a temporary folder)
# is started for it and stopped and removed after.
ledgersmb_with_server() {
	local sudo="" as_pg="runuser -u postgres --" tmp rc=0
	if [[ $(id -u) -ne 0 ]]; then sudo="sudo" as_pg="sudo -u postgres"; fi
	if [[ -S /var/run/postgresql/.s.PGSQL.5432 ]]; then
		"$@"
		return
	fi
	tmp=$($sudo mktemp -d)
	$sudo chown postgres:postgres "$tmp"
	$sudo mkdir -p /var/run/postgresql
	$sudo chown postgres:postgres /var/run/postgresql
	$as_pg /usr/lib/postgresql/15/bin/initdb -D "$tmp/data" -U postgres --auth=trust >/dev/null &&
		$as_pg /usr/lib/postgresql/15/bin/pg_ctl -D "$tmp/data" -w -l "$tmp/log" \
			-o "-c listen_addresses= -k /var/run/postgresql -p 5432" start >/dev/null || rc=1
	if [[ $rc -eq 0 ]]; then "$@" || rc=$?; fi
	$as_pg /usr/lib/postgresql/15/bin/pg_ctl -D "$tmp/data" -w stop >/dev/null 2>&1 || true
	$sudo rm -rf "$tmp"
	return $rc
}

install_ledgersmb() {
	if ledgersmb_ok; then
		log ledgersmb "$(ledgersmb_version) present, $(psql --version | cut -d' ' -f3) PostgreSQL client"
		return
	fi
	log ledgersmb "installing Debian's ledgersmb $LEDGERSMB_VERSION, postgresql-15 and starman"
	apt_install ledgersmb postgresql-15 postgresql-client-15 starman
	ledgersmb_with_server apt_install ledgersmb "ledgersmb=$LEDGERSMB_VERSION" || true
	ledgersmb_ok || { echo "ledgersmb did not install" >&2; exit 1; }
	# The package enables and starts a Starman of its own on port 5762; no test uses it.
	local sudo=""
	if [[ $(id -u) -ne 0 ]]; then sudo="sudo"; fi
	if [[ -d /run/systemd/system ]] && systemctl is-enabled --quiet ledgersmb 2>/dev/null; then
		log ledgersmb "stopping and disabling Debian's ledgersmb service: the tests run servers of their own"
		$sudo systemctl disable --now ledgersmb >/dev/null 2>&1 || log ledgersmb "could not disable the ledgersmb service"
	elif pgrep -u ledgersmb starman >/dev/null 2>&1; then
		log ledgersmb "stopping Debian's ledgersmb service: the tests run servers of their own"
		$sudo service ledgersmb stop >/dev/null 2>&1 || log ledgersmb "could not stop the ledgersmb service"
	fi
	log ledgersmb "$(ledgersmb_version), $(psql --version | cut -d' ' -f3) PostgreSQL client"
}

# heldout_ethercalc.sh installs EtherCalc and Redis, one of the held-out applications
# (setup.sh heldout). Sourced by heldout.sh, which provides apt_install() (and setup.sh log()).

# install_ethercalc installs EtherCalc (a held-out application: a multi-user web spreadsheet
# whose page sets, clears and formats cells, inserts rows and sorts ranges, each edit a
# SocialCalc command the server applies to the sheet it keeps in Redis) from the npm
# registry, run by Node.js (Debian's, when none is here: EtherCalc 0.20200127.0 runs on
# Node.js 20), and Debian's redis-server and redis-tools (the release Redis Commander pins).
# Its socket.io 1.0 names three packages by archive addresses outside the npm registry
# (xmlhttprequest, global, emitter): npm's overrides give it the registry's forks of the
# same code instead. It is installed nested (each package's own dependencies under it),
# since EtherCalc reads SocialCalc from its own node_modules folder; its optional threads
# module and every install script (ws's native build) are left out, so nothing is compiled
# or downloaded besides the packages, and EtherCalc runs its sheets in Node.js's vm instead.
# redis-server's service is stopped and disabled where systemd runs it. Each test runs a
# private redis-server in the foreground on a free loopback port with its folder in a
# temporary folder and no persistence, and EtherCalc beside it on another.
: "${ETHERCALC_VERSION:=0.20200127.0}"
: "${REDIS_VERSION:=5:7.0.15-1~deb12u10}" # Redis Commander's too
: "${ETHERCALC_DIR:=$WEBAGENT_TOOLS/ethercalc-$ETHERCALC_VERSION}"
ethercalc_ok() {
	local e="$ETHERCALC_DIR/node_modules/ethercalc"
	[[ -f "$e/app.js" && -f "$e/node_modules/socialcalc/dist/SocialCalc.js" && -f "$e/node_modules/zappajs/package.json" ]] &&
		command -v node >/dev/null && command -v redis-server >/dev/null && command -v redis-cli >/dev/null
}
ethercalc_versions() {
	echo "$ETHERCALC_VERSION, node $(node --version), redis-server $(dpkg-query -W -f='${Version}' redis-server 2>/dev/null || echo present)"
}
install_ethercalc() {
	local sudo=""
	if [[ $(id -u) -ne 0 ]]; then sudo="sudo"; fi
	if ! command -v redis-server >/dev/null || ! command -v redis-cli >/dev/null; then
		log ethercalc "installing Debian's redis-server $REDIS_VERSION"
		apt_install ethercalc "redis-server=$REDIS_VERSION" "redis-tools=$REDIS_VERSION"
		command -v redis-server >/dev/null || { echo "redis-server did not install" >&2; exit 1; }
	fi
	if [[ -d /run/systemd/system ]] && systemctl is-enabled --quiet redis-server 2>/dev/null; then
		log ethercalc "stopping and disabling Debian's redis-server service: the tests run servers of their own"
		$sudo systemctl disable --now redis-server >/dev/null 2>&1 || log ethercalc "could not disable the redis-server service"
	fi
	install_node
	if ethercalc_ok; then
		log ethercalc "$(ethercalc_versions) cached"
		return
	fi
	log ethercalc "$ETHERCALC_VERSION installing from the npm registry"
	local dir="$ETHERCALC_DIR.tmp" try
	rm -rf "$dir" && mkdir -p "$dir"
	printf '{"private": true, "dependencies": {"ethercalc": "%s"}, "overrides": {%s}}\n' "$ETHERCALC_VERSION" \
		'"xmlhttprequest": "npm:xmlhttprequest-ssl@1.5.5", "global": "2.0.1", "emitter": "npm:component-emitter@1.1.2"' >"$dir/package.json"
	for try in 1 2 3; do
		if (cd "$dir" && npm install --install-strategy=nested --omit=optional --ignore-scripts --no-audit --no-fund \
			--fetch-retries=1 --loglevel=error >/dev/null); then
			break
		fi
		log ethercalc "npm install failed (try $try of 3), retrying"
		sleep 3
	done
	ETHERCALC_DIR="$dir" ethercalc_ok || { echo "ethercalc did not install" >&2; exit 1; }
	rm -rf "$ETHERCALC_DIR" && mv "$dir" "$ETHERCALC_DIR"
	log ethercalc "$(ethercalc_versions) installed"
}

# heldout_rediscommander.sh installs Redis Commander and Redis, one of the held-out
# applications (setup.sh heldout). Sourced by heldout.sh, which provides apt_install() (and
# setup.sh log()).

# install_rediscommander installs Redis Commander (a held-out application: a web UI to
# browse a Redis server's keys in a tree, and to add, edit, rename and delete them: strings,
# hashes, lists, sets and sorted sets, kept in Redis itself) from the npm registry, run by
# Node.js (Debian's, when none is here), and Debian's redis-server and redis-tools, the
# Redis each test runs privately for it. Recommends are left out. redis-server's package
# starts and enables a service; where systemd runs and it is enabled, it is stopped and
# disabled. Each test runs a private redis-server in the foreground on a free loopback port
# with its folder in a temporary folder and no persistence, and Redis Commander beside it on
# another, with a configuration folder of its own there and its sign-in turned on.
: "${REDISCOMMANDER_VERSION:=0.9.0}"
: "${REDIS_VERSION:=5:7.0.15-1~deb12u10}"
: "${REDISCOMMANDER_DIR:=$WEBAGENT_TOOLS/redis-commander-$REDISCOMMANDER_VERSION}"
rediscommander_ok() { [[ -f "$REDISCOMMANDER_DIR/node_modules/redis-commander/bin/redis-commander.js" ]]; }
redis_ok() { command -v redis-server >/dev/null && command -v redis-cli >/dev/null; }
redis_version() { dpkg-query -W -f='${Version}' redis-server 2>/dev/null || echo present; }
install_rediscommander() {
	local sudo="" try
	if [[ $(id -u) -ne 0 ]]; then sudo="sudo"; fi
	if ! redis_ok; then
		log rediscommander "installing Debian's redis-server $REDIS_VERSION"
		apt_install rediscommander "redis-server=$REDIS_VERSION" "redis-tools=$REDIS_VERSION"
		redis_ok || { echo "redis-server did not install" >&2; exit 1; }
	fi
	if [[ -d /run/systemd/system ]] && systemctl is-enabled --quiet redis-server 2>/dev/null; then
		log rediscommander "stopping and disabling Debian's redis-server service: the tests run servers of their own"
		$sudo systemctl disable --now redis-server >/dev/null 2>&1 || log rediscommander "could not disable the redis-server service"
	fi
	if rediscommander_ok; then
		log rediscommander "$REDISCOMMANDER_VERSION cached, redis-server $(redis_version)"
		return
	fi
	install_node
	log rediscommander "$REDISCOMMANDER_VERSION installing from the npm registry"
	rm -rf "$REDISCOMMANDER_DIR.tmp" && mkdir -p "$REDISCOMMANDER_DIR.tmp"
	printf '{"private": true, "dependencies": {"redis-commander": "%s"}}\n' "$REDISCOMMANDER_VERSION" >"$REDISCOMMANDER_DIR.tmp/package.json"
	for try in 1 2 3; do
		if (cd "$REDISCOMMANDER_DIR.tmp" && npm install --no-audit --no-fund --loglevel=error >/dev/null); then
			break
		fi
		log rediscommander "npm install failed (try $try of 3), retrying"
		sleep 3
	done
	REDISCOMMANDER_DIR="$REDISCOMMANDER_DIR.tmp" rediscommander_ok || { echo "redis-commander did not install" >&2; exit 1; }
	rm -rf "$REDISCOMMANDER_DIR" && mv "$REDISCOMMANDER_DIR.tmp" "$REDISCOMMANDER_DIR"
	log rediscommander "$REDISCOMMANDER_VERSION installed, node $(node --version), redis-server $(redis_version)"
}

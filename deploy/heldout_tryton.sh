# heldout_tryton.sh installs Tryton, one of the held-out applications (setup.sh heldout).
# Sourced by heldout.sh, which provides apt_install() (and setup.sh log()).

# install_tryton installs Debian's Tryton 6.0 (a held-out application: the server of the
# Tryton business suite, trytond, with its web client, sao, and its party and product
# modules, which bring country, currency and company with them; parties with their
# addresses, contact mechanisms and categories, products with their list prices, and users
# with their groups and preferences, all kept in an SQL database, here one SQLite file) and
# the sqlite3 CLI the judges read that file with. Recommends are left out. The package's
# own service and configuration are not used: each test writes a trytond.conf of its own in
# a temporary folder (the SQLite database there, the web server on a free loopback port
# with sao's files as its root), makes the database with trytond-admin (the admin's
# password read from a file, TRYTONPASSFILE) and seeds it through the JSON-RPC sao sends.
: "${TRYTON_VERSION:=6.0.29-2+deb12u4}"
: "${TRYTON_SAO_VERSION:=6.0.28+ds1-2+deb12u2}"
tryton_ok() {
	command -v trytond >/dev/null && command -v trytond-admin >/dev/null && command -v sqlite3 >/dev/null &&
		[[ -f /usr/share/tryton-sao/www/index.html && -f /usr/share/tryton-sao/www/dist/tryton-sao.min.js ]] &&
		[[ -f /usr/lib/python3/dist-packages/trytond/modules/party/tryton.cfg && -f /usr/lib/python3/dist-packages/trytond/modules/product/tryton.cfg ]]
}
tryton_version() { dpkg-query -W -f='${Version}' tryton-server 2>/dev/null || echo present; }
install_tryton() {
	if tryton_ok; then
		log tryton "$(tryton_version) present, sao $(dpkg-query -W -f='${Version}' tryton-sao 2>/dev/null || echo present), sqlite3 $(sqlite3 --version | cut -d' ' -f1)"
		return
	fi
	log tryton "installing Debian's tryton-server $TRYTON_VERSION, tryton-sao $TRYTON_SAO_VERSION, its party, product and company modules and sqlite3"
	apt_install tryton "tryton-server=$TRYTON_VERSION" "tryton-sao=$TRYTON_SAO_VERSION" \
		tryton-modules-party tryton-modules-product tryton-modules-company sqlite3
	tryton_ok || { echo "tryton did not install" >&2; exit 1; }
	log tryton "$(tryton_version), sao $(dpkg-query -W -f='${Version}' tryton-sao), sqlite3 $(sqlite3 --version | cut -d' ' -f1)"
}

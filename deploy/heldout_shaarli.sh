# heldout_shaarli.sh installs Shaarli, one of the held-out applications (setup.sh heldout).
# Sourced by heldout.sh, which provides apt_install() (and setup.sh log()).

# install_shaarli installs Debian's Shaarli (a held-out application: a personal bookmarks
# manager in PHP that keeps its bookmarks and settings in flat files, no database), PHP's
# command line and the PHP extensions the package depends on. php-cgi is named so that the
# package's need of a PHP web runtime (libapache2-mod-php | php-cgi | php-fpm | php) is met
# without Apache: the tests serve each private copy with php -S. Each test copies Shaarli's
# code into a temporary folder with a data folder of its own, installs it through its
# first-run form, and the judge reads what it stored there: datastore.php (decoded by the
# php CLI with Shaarli's own classes) and config.json.php.
: "${SHAARLI_VERSION:=0.12.1+dfsg-8+deb12u2}"
shaarli_ok() {
	[[ -f /usr/share/shaarli/index.php && -f /usr/share/shaarli/autoload.php ]] && command -v php >/dev/null &&
		php -r 'exit(extension_loaded("mbstring") && extension_loaded("intl") && extension_loaded("gd") && extension_loaded("curl") ? 0 : 1);' 2>/dev/null
}
install_shaarli() {
	if shaarli_ok; then
		log shaarli "$(dpkg-query -W -f='${Version}' shaarli 2>/dev/null || echo present) present, $(php -r 'echo "PHP ", PHP_VERSION;')"
		return
	fi
	log shaarli "installing Debian's shaarli $SHAARLI_VERSION and the PHP extensions it needs"
	apt_install shaarli "shaarli=$SHAARLI_VERSION" php-cli php-cgi php-curl php-gd php-intl php-ldap php-mbstring
	shaarli_ok || { echo "shaarli did not install" >&2; exit 1; }
	log shaarli "$(dpkg-query -W -f='${Version}' shaarli), $(php -r 'echo "PHP ", PHP_VERSION;')"
}

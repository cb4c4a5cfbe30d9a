# heldout_calibre.sh installs calibre, one of the held-out applications (setup.sh heldout).
# Sourced by heldout.sh, which provides apt_install() (and setup.sh log()).

# install_calibre installs Debian's calibre (a held-out application: an e-book library
# manager whose content server, calibre-server, serves a web interface that browses,
# searches, edits the metadata of and deletes the books of a library, each library a
# folder with its metadata in an SQLite file, metadata.db) and the sqlite3 CLI the judges
# read that file with. Recommends are left out. No service is used: each test makes a
# library of its own in a temporary folder (seeded through calibre's own library code,
# calibre-debug), with its own configuration and cache folders, and runs a private
# calibre-server on a free loopback port, writable from 127.0.0.1 alone (its HTTP auth
# is a browser prompt rather than a page, so it is not turned on).
: "${CALIBRE_VERSION:=6.13.0+repack-2+deb12u10}"
calibre_ok() {
	command -v calibre-server >/dev/null && command -v calibre-debug >/dev/null && command -v calibredb >/dev/null &&
		command -v sqlite3 >/dev/null && [[ -f /usr/share/calibre/content-server/index-generated.html ]]
}
install_calibre() {
	if calibre_ok; then
		log calibre "$(dpkg-query -W -f='${Version}' calibre 2>/dev/null || echo present) present, sqlite3 $(sqlite3 --version | cut -d' ' -f1)"
		return
	fi
	log calibre "installing Debian's calibre $CALIBRE_VERSION and sqlite3"
	apt_install calibre "calibre=$CALIBRE_VERSION" "calibre-bin=$CALIBRE_VERSION" sqlite3
	calibre_ok || { echo "calibre did not install" >&2; exit 1; }
	log calibre "$(dpkg-query -W -f='${Version}' calibre), sqlite3 $(sqlite3 --version | cut -d' ' -f1)"
}

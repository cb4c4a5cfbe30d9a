# heldout_tomcat.sh installs Apache Tomcat, one of the held-out applications (setup.sh heldout).
# Sourced by heldout.sh, which provides apt_install() (and setup.sh log()).

# install_tomcat installs Debian's Tomcat 10.1 (a held-out application: the servlet
# container's own web apps, the Manager, which lists the applications of a host and starts,
# stops, undeploys and deploys them and expires their sessions, and the Host Manager, which
# adds, stops and removes virtual hosts) and the Java runtime it depends on. tomcat10 itself
# is named for its packaged configuration and service account; its systemd service is not
# used. Recommends are left out (the native connector library). Each test makes a private
# CATALINA_BASE of its own in a temporary folder (its own server.xml with a free loopback
# port, its own tomcat-users.xml, its own webapps folder with the seed's small applications)
# and runs the package's bootstrap.jar with Java in the foreground; the judges read the
# Manager's and Host Manager's text interfaces and that folder's files. /var/lib/tomcat10
# and /etc/tomcat10 are not used.
: "${TOMCAT_VERSION:=10.1.60-1~deb12u1}"
tomcat_ok() {
	[[ -f /usr/share/tomcat10/bin/bootstrap.jar && -f /usr/share/tomcat10/etc/web.xml ]] &&
		[[ -f /usr/share/tomcat10-admin/manager/WEB-INF/web.xml && -f /usr/share/tomcat10-admin/host-manager/WEB-INF/web.xml ]] &&
		command -v java >/dev/null
}
tomcat_version() { dpkg-query -W -f='${Version}' tomcat10-admin 2>/dev/null || echo present; }
tomcat_java() { java -version 2>&1 | head -1 | cut -d'"' -f2; }
install_tomcat() {
	if tomcat_ok; then
		log tomcat "$(tomcat_version) present, Java $(tomcat_java)"
		return
	fi
	log tomcat "installing Debian's tomcat10 and tomcat10-admin $TOMCAT_VERSION"
	apt_install tomcat "tomcat10=$TOMCAT_VERSION" "tomcat10-admin=$TOMCAT_VERSION" "tomcat10-common=$TOMCAT_VERSION" \
		"libtomcat10-java=$TOMCAT_VERSION" default-jre-headless
	tomcat_ok || { echo "tomcat did not install" >&2; exit 1; }
	log tomcat "$(tomcat_version), Java $(tomcat_java)"
}

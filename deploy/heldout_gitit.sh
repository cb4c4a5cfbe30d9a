# heldout_gitit.sh installs Gitit, one of the held-out applications (setup.sh heldout).
# Sourced by heldout.sh, which provides apt_install() (and setup.sh log()).

# install_gitit installs Debian's Gitit 0.15 (a held-out application: a wiki written in
# Haskell whose pages and uploaded files live in a git repository, one commit per change,
# with its accounts in a users file of its own), its data package (templates, static files
# and the jQuery it serves) and git. Recommends are left out. The package starts no
# service: each test writes a configuration file of its own from `gitit
# --print-default-config` (a free loopback port, a repository, users file, static,
# templates and cache folders in a temporary folder, editing only after signing in, no
# access question, no reCAPTCHA, no mail) and runs gitit as an ordinary process; the
# judges read that repository with git and that users file.
: "${GITIT_VERSION:=0.15.1.0+dfsg-2+b6}"
gitit_ok() {
	command -v gitit >/dev/null && command -v git >/dev/null &&
		[[ -f /usr/share/gitit/data/default.conf && -f /usr/share/gitit/data/templates/page.st && -s /usr/share/gitit/data/static/js/jquery.min.js ]]
}
gitit_version() { dpkg-query -W -f='${Version}' gitit 2>/dev/null || echo present; }
install_gitit() {
	if gitit_ok; then
		log gitit "$(gitit_version) present, $(git --version)"
		return
	fi
	log gitit "installing Debian's gitit $GITIT_VERSION and git"
	apt_install gitit "gitit=$GITIT_VERSION" libghc-gitit-data git
	gitit_ok || { echo "gitit did not install" >&2; exit 1; }
	log gitit "$(gitit_version), $(git --version)"
}

# heldout_jupyter.sh installs Jupyter Notebook, one of the held-out applications (setup.sh
# heldout). Sourced by heldout.sh, which provides apt_install() (and setup.sh log()).

# install_jupyter installs Debian's Jupyter Notebook 6 (a held-out application: the classic
# notebook server, whose pages are a file browser over a folder, an editor of notebooks
# and one of text files, and a list of the notebooks running, all kept as files on disk)
# and Debian's IPython kernel, which a notebook opened in its editor starts. Recommends are
# left out. The package starts no service: each test runs `jupyter notebook` itself as an
# ordinary process on a free loopback port over a temporary folder, with its configuration,
# data and runtime folders (and a home) of its own there and a password in its
# configuration; the judges read the folder's files and the server's REST API.
: "${JUPYTER_VERSION:=6.4.12-2.2}"
: "${IPYKERNEL_VERSION:=6.17.0-1}"
jupyter_ok() {
	[[ -x /usr/bin/jupyter-notebook && -x /usr/bin/python3 ]] &&
		/usr/bin/python3 -c 'import notebook, ipykernel, nbformat' 2>/dev/null
}
jupyter_version() { dpkg-query -W -f='${Version}' python3-notebook 2>/dev/null || echo present; }
install_jupyter() {
	if jupyter_ok; then
		log jupyter "$(jupyter_version) present, ipykernel $(dpkg-query -W -f='${Version}' python3-ipykernel 2>/dev/null || echo present)"
		return
	fi
	log jupyter "installing Debian's jupyter-notebook $JUPYTER_VERSION and python3-ipykernel $IPYKERNEL_VERSION"
	apt_install jupyter "jupyter-notebook=$JUPYTER_VERSION" "python3-notebook=$JUPYTER_VERSION" "python3-ipykernel=$IPYKERNEL_VERSION"
	jupyter_ok || { echo "jupyter did not install" >&2; exit 1; }
	log jupyter "$(jupyter_version), ipykernel $(dpkg-query -W -f='${Version}' python3-ipykernel)"
}

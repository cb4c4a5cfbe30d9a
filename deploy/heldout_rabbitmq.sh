# heldout_rabbitmq.sh installs RabbitMQ for the held-out pool; it is sourced by heldout.sh,
# whose apt_install and setup.sh's log() it uses.

# install_rabbitmq installs Debian's RabbitMQ server (a held-out application: a message
# broker whose bundled management plugin serves a web UI that adds and removes virtual
# hosts, users, permissions, queues, exchanges, bindings and policies, publishes
# messages and purges queues, all through the plugin's own HTTP API), with the Erlang
# runtime it brings. Each test runs a private node as its own process: its own node
# name, its own database, log and configuration folders in a temporary folder, an
# enabled_plugins file naming rabbitmq_management, and free loopback ports for AMQP,
# Erlang distribution and the management UI (the nodes share the one epmd). The judges
# read the node's state through the management HTTP API. The system's service (stopped
# and disabled when this installs the package), /etc/rabbitmq and /var/lib/rabbitmq are
# never used.
: "${RABBITMQ_VERSION:=3.10.8-1.1+deb12u1}"
rabbitmq_ok() {
	[[ -x /usr/lib/rabbitmq/bin/rabbitmq-server && -x /usr/lib/rabbitmq/bin/rabbitmqctl ]] &&
		compgen -G "/usr/lib/rabbitmq/lib/rabbitmq_server-*/plugins/rabbitmq_management-*" >/dev/null
}
rabbitmq_version() { dpkg-query -W -f='${Version}' rabbitmq-server 2>/dev/null || echo present; }
install_rabbitmq() {
	if rabbitmq_ok; then
		log rabbitmq "$(rabbitmq_version) present"
		return
	fi
	log rabbitmq "installing Debian's rabbitmq-server $RABBITMQ_VERSION"
	apt_install rabbitmq "rabbitmq-server=$RABBITMQ_VERSION"
	rabbitmq_ok || { echo "rabbitmq did not install" >&2; exit 1; }
	# Debian's package enables and starts a node of its own (AMQP on every interface, its
	# own epmd); no test uses it.
	local sudo=""
	if [[ $(id -u) -ne 0 ]]; then sudo="sudo"; fi
	if [[ -d /run/systemd/system ]] && systemctl is-enabled --quiet rabbitmq-server 2>/dev/null; then
		log rabbitmq "stopping and disabling Debian's rabbitmq-server service: the tests run nodes of their own"
		$sudo systemctl disable --now rabbitmq-server >/dev/null 2>&1 || log rabbitmq "could not disable the rabbitmq-server service"
	elif pgrep -u rabbitmq -x beam.smp >/dev/null 2>&1; then
		log rabbitmq "stopping Debian's rabbitmq-server: the tests run nodes of their own"
		$sudo service rabbitmq-server stop >/dev/null 2>&1 || log rabbitmq "could not stop the rabbitmq-server service"
	fi
	log rabbitmq "$(rabbitmq_version)"
}

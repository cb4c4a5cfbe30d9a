# heldout_temporalui.sh installs the Temporal Web UI, one of the held-out applications (setup.sh
# heldout). Sourced by heldout.sh (and setup.sh's go_tool() and log()).

# install_temporalui makes sure of the Temporal Web UI (a held-out application: the web
# front end of a Temporal cluster, where a Temporal user lists and filters workflows,
# terminates, cancels, signals and starts them, and pauses, triggers and deletes
# schedules). It is the UI compiled into the temporal CLI the stack already pins
# (TEMPORAL_CLI_VERSION, whose dev server serves UI 2.42.1): the CLI is built from the Go
# module proxy when it is not cached yet, as `setup.sh temporal` builds it. Each test runs
# `temporal server start-dev` of its own on free loopback ports (its gRPC frontend, HTTP API
# and Web UI), with its own SQLite file in a temporary folder and its own namespace, and a
# small worker in the test's process; the judges read that server back through its API.
temporalui_ok() { [[ -x "$TEMPORAL_BIN" ]] && "$TEMPORAL_BIN" --version 2>/dev/null | grep -q 'UI '; }
temporalui_version() { "$TEMPORAL_BIN" --version 2>/dev/null | sed -n 's/.*(\(.*\)).*/\1/p'; }
install_temporalui() {
	if temporalui_ok; then
		log temporalui "temporal CLI $TEMPORAL_CLI_VERSION present ($(temporalui_version))"
		return
	fi
	log temporalui "building the temporal CLI $TEMPORAL_CLI_VERSION, whose dev server serves the Web UI"
	go_tool temporal github.com/temporalio/cli/cmd/temporal "$TEMPORAL_CLI_VERSION" temporal
	temporalui_ok || { echo "temporalui: the temporal CLI at $TEMPORAL_BIN has no Web UI" >&2; exit 1; }
	log temporalui "temporal CLI $TEMPORAL_CLI_VERSION ($(temporalui_version))"
}

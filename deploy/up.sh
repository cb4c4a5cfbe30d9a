#!/usr/bin/env bash
# up.sh starts the local stack in the background — the Temporal dev server with its Web
# UI, MinIO, Weaviate, the demo app and one worker — and waits until each is healthy. It starts
# only what is not already running, so running it again restarts a worker that died.
# Each process writes .run/<name>.pid and .run/<name>.log.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=deploy/versions.sh
source "$repo/deploy/versions.sh"
# shellcheck source=deploy/stack.sh
source "$repo/deploy/stack.sh"

mkdir -p "$RUN_DIR/bin" "$RUN_DIR/minio" "$RUN_DIR/weaviate"

for tool in "$TEMPORAL_BIN" "$MINIO_BIN" "$WEAVIATE_BIN"; do
	[[ -x "$tool" ]] || { echo "missing $tool: run \`make setup\` first" >&2; exit 1; }
done

# Build what runs from this checkout, so the stack runs the code in front of you.
(cd "$repo" && go build -o "$RUN_DIR/bin/worker" ./workers && go build -o "$RUN_DIR/bin/demoapp" ./demoapp/cmd/demoapp)

start temporal "$TEMPORAL_BIN" server start-dev --ip 127.0.0.1 --port "$TEMPORAL_PORT" \
	--ui-port "$TEMPORAL_UI_PORT" --db-filename "$RUN_DIR/temporal.db" --log-level warn \
	--search-attribute WebagentStatus=Keyword --search-attribute WebagentSite=Keyword \
	--search-attribute WebagentPlanner=Keyword --search-attribute WebagentSkill=Keyword \
	--search-attribute WebagentCacheHit=Bool --search-attribute WebagentSchedule=Keyword
wait_for temporal "tcp 127.0.0.1 $TEMPORAL_PORT" 60
wait_for temporal-ui "http http://127.0.0.1:$TEMPORAL_UI_PORT/" 60

MINIO_ROOT_USER="$MINIO_ACCESS_KEY" MINIO_ROOT_PASSWORD="$MINIO_SECRET_KEY" MINIO_BROWSER=off \
	start minio "$MINIO_BIN" server "$RUN_DIR/minio" --address "127.0.0.1:$MINIO_PORT" --quiet
wait_for minio "http http://127.0.0.1:$MINIO_PORT/minio/health/ready" 60

PERSISTENCE_DATA_PATH="$RUN_DIR/weaviate" AUTHENTICATION_ANONYMOUS_ACCESS_ENABLED=true \
	DEFAULT_VECTORIZER_MODULE=none DISABLE_TELEMETRY=true LOG_LEVEL=warning \
	CLUSTER_HOSTNAME=node1 CLUSTER_ADVERTISE_ADDR=127.0.0.1 CLUSTER_GOSSIP_BIND_PORT=7946 \
	CLUSTER_DATA_BIND_PORT=7947 RAFT_JOIN=node1 RAFT_BOOTSTRAP_EXPECT=1 GRPC_PORT="$WEAVIATE_GRPC_PORT" \
	start weaviate "$WEAVIATE_BIN" --host 127.0.0.1 --port "$WEAVIATE_PORT" --scheme http
wait_for weaviate "http http://127.0.0.1:$WEAVIATE_PORT/v1/.well-known/ready" 120

DEMOAPP_ADDR="127.0.0.1:$DEMOAPP_PORT" start demoapp "$RUN_DIR/bin/demoapp"
wait_for demoapp "http http://127.0.0.1:$DEMOAPP_PORT/healthz" 30

# The demo app is on loopback, which a worker's browsers reach only when granted: this
# local stack grants the demo app's address and port, and nothing else internal (not the
# Temporal Web UI, MinIO or Weaviate on the same address), unless told otherwise.
WEBAGENT_INTERNAL_ADDRESSES="${WEBAGENT_INTERNAL_ADDRESSES:-127.0.0.1:$DEMOAPP_PORT}"
TEMPORAL_ADDRESS="127.0.0.1:$TEMPORAL_PORT" MINIO_ENDPOINT="127.0.0.1:$MINIO_PORT" \
	WEAVIATE_URL="127.0.0.1:$WEAVIATE_PORT" WEBAGENT_INTERNAL_ADDRESSES="$WEBAGENT_INTERNAL_ADDRESSES" \
	start worker "$RUN_DIR/bin/worker"
wait_for worker "log worker ready" 60

echo
echo "stack up:"
echo "  Temporal      127.0.0.1:$TEMPORAL_PORT   Web UI http://127.0.0.1:$TEMPORAL_UI_PORT"
echo "  MinIO         http://127.0.0.1:$MINIO_PORT   (bucket ${MINIO_BUCKET:-webagent})"
echo "  Weaviate      http://127.0.0.1:$WEAVIATE_PORT   (skills)"
echo "  demo app      http://127.0.0.1:$DEMOAPP_PORT/projects"
echo "  worker        log $RUN_DIR/worker.log   (internal addresses granted: $WEBAGENT_INTERNAL_ADDRESSES; secrets: ${WEBAGENT_SECRETS:-none})"

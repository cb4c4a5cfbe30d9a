# versions.sh holds the pinned tool versions and where they are cached. Sourced by the
# deploy scripts and the Makefile's test target; every value can be overridden from the
# environment.
: "${WEBAGENT_CACHE:=${XDG_CACHE_HOME:-$HOME/.cache}/webagent}"
: "${WEBAGENT_TOOLS:=$WEBAGENT_CACHE/tools}"
: "${TEMPORAL_CLI_VERSION:=v1.5.1}"
: "${MINIO_VERSION:=v0.0.0-20260212201848-7aac2a2c5b7c}"
: "${PLAYWRIGHT_CORE_VERSION:=1.52.0}"
: "${WEAVIATE_VERSION:=v1.35.2}"
: "${STATICCHECK_VERSION:=v0.8.2}"
: "${WORKFLOWCHECK_VERSION:=v0.6.0}"
# Debian's headless shell: a page opened in it costs a sixth of the CPU it costs in the full
# browser's headless mode. A headed worker (WEBAGENT_HEADLESS=false) needs the full browser:
# CHROMIUM_PATH=/usr/lib/chromium/chromium.
: "${CHROMIUM_PATH:=/usr/lib/chromium/chromium-headless-shell}"
: "${TEMPORAL_BIN:=$WEBAGENT_TOOLS/temporal-$TEMPORAL_CLI_VERSION/temporal}"
: "${MINIO_BIN:=$WEBAGENT_TOOLS/minio-$MINIO_VERSION/minio}"
: "${PLAYWRIGHT_DRIVER_DIR:=$WEBAGENT_TOOLS/playwright-driver-$PLAYWRIGHT_CORE_VERSION}"
: "${WEAVIATE_BIN:=$WEBAGENT_TOOLS/weaviate-$WEAVIATE_VERSION/weaviate-server}"
: "${STATICCHECK_BIN:=$WEBAGENT_TOOLS/staticcheck-$STATICCHECK_VERSION/staticcheck}"
: "${WORKFLOWCHECK_BIN:=$WEBAGENT_TOOLS/workflowcheck-$WORKFLOWCHECK_VERSION/workflowcheck}"
export WEBAGENT_CACHE WEBAGENT_TOOLS TEMPORAL_CLI_VERSION MINIO_VERSION PLAYWRIGHT_CORE_VERSION \
	CHROMIUM_PATH TEMPORAL_BIN MINIO_BIN PLAYWRIGHT_DRIVER_DIR WEAVIATE_VERSION WEAVIATE_BIN \
	STATICCHECK_VERSION WORKFLOWCHECK_VERSION STATICCHECK_BIN WORKFLOWCHECK_BIN

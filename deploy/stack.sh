# stack.sh holds the local stack's settings and the helpers up.sh and down.sh share.
# Every setting can be overridden from the environment.
: "${RUN_DIR:=$repo/.run}"
: "${TEMPORAL_PORT:=7233}"
: "${TEMPORAL_UI_PORT:=8233}"
: "${MINIO_PORT:=9000}"
: "${DEMOAPP_PORT:=8090}"
: "${WEAVIATE_PORT:=8080}"
: "${WEAVIATE_GRPC_PORT:=50051}"
: "${MINIO_ACCESS_KEY:=minioadmin}"
: "${MINIO_SECRET_KEY:=minioadmin}"
export RUN_DIR TEMPORAL_PORT TEMPORAL_UI_PORT MINIO_PORT DEMOAPP_PORT WEAVIATE_PORT WEAVIATE_GRPC_PORT MINIO_ACCESS_KEY MINIO_SECRET_KEY

# The processes of the stack, in the order they start.
STACK=(temporal minio weaviate demoapp worker)

# running NAME: the process in .run/NAME.pid is alive (a zombie, killed but not yet
# reaped, is not).
running() {
	local pidfile="$RUN_DIR/$1.pid" pid state
	[[ -f "$pidfile" ]] || return 1
	pid=$(cat "$pidfile")
	kill -0 "$pid" 2>/dev/null || return 1
	state=$(ps -o stat= -p "$pid" 2>/dev/null || true)
	[[ -n "$state" && "$state" != Z* ]]
}

# start NAME CMD...: start CMD in the background unless NAME is already running.
start() {
	local name=$1
	shift
	if running "$name"; then
		printf '%-11s already running (pid %s)\n' "$name" "$(cat "$RUN_DIR/$name.pid")"
		return
	fi
	: >"$RUN_DIR/$name.log"
	setsid nohup "$@" >>"$RUN_DIR/$name.log" 2>&1 </dev/null &
	echo $! >"$RUN_DIR/$name.pid"
	printf '%-11s started (pid %s)\n' "$name" "$!"
}

# wait_for NAME "tcp HOST PORT" | "http URL" | "log TEXT" SECONDS: wait until healthy.
wait_for() {
	local name=$1 check=$2 secs=$3 proc=${1%-ui}
	local kind=${check%% *} arg=${check#* }
	local i
	for ((i = 0; i < secs * 4; i++)); do
		case $kind in
		tcp) (echo >"/dev/tcp/${arg% *}/${arg#* }") 2>/dev/null && break ;;
		http) curl -fsS -o /dev/null --max-time 2 "$arg" 2>/dev/null && break ;;
		log) grep -q "$arg" "$RUN_DIR/$proc.log" 2>/dev/null && break ;;
		esac
		if ! running "$proc"; then
			echo "$proc exited; the end of $RUN_DIR/$proc.log:" >&2
			tail -20 "$RUN_DIR/$proc.log" >&2
			exit 1
		fi
		sleep 0.25
	done
	if ((i >= secs * 4)); then
		echo "$name is not healthy after ${secs}s; see $RUN_DIR/$proc.log" >&2
		exit 1
	fi
	printf '%-11s healthy\n' "$name"
}

# stop NAME: stop the process, politely first.
stop() {
	local name=$1 pidfile="$RUN_DIR/$1.pid"
	if ! running "$name"; then
		rm -f "$pidfile"
		return
	fi
	local pid
	pid=$(cat "$pidfile")
	kill -TERM "$pid" 2>/dev/null || true
	for _ in $(seq 40); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.25
	done
	kill -KILL "$pid" 2>/dev/null || true
	rm -f "$pidfile"
	printf '%-11s stopped\n' "$name"
}

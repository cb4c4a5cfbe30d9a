#!/usr/bin/env bash
# down.sh stops exactly the processes up.sh started, newest first.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=deploy/stack.sh
source "$repo/deploy/stack.sh"
for ((i = ${#STACK[@]} - 1; i >= 0; i--)); do
	stop "${STACK[i]}"
done

#!/usr/bin/env bash
# Starts the whole stack as a newcomer would (`npm start`), waits for GET /api/agent/v1/time, sends SIGTERM and
# checks that every process the stack started is gone. Ports are offset so a developer's running stack is untouched.
set -euo pipefail
cd "$(dirname "$0")/.."
export PORT=18080 CHAIN_PORT=18545 PONDER_PORT=42169
export DATA_DIR="$(mktemp -d)/data"
log="$(mktemp)"
descendants() { # all descendants of $1, by walking the parent links
  local all=() frontier=("$1") next
  while [ ${#frontier[@]} -gt 0 ]; do
    next=()
    for p in "${frontier[@]}"; do
      for c in $(ps -o pid= --ppid "$p" 2>/dev/null); do all+=("$c"); next+=("$c"); done
    done
    frontier=("${next[@]}")
  done
  echo "${all[@]}"
}
setsid npm start -- --fresh >"$log" 2>&1 &
pid=$!
deadline=$(( $(date +%s) + 180 ))
until curl -fsS "http://127.0.0.1:$PORT/api/agent/v1/time" >/dev/null 2>&1; do
  if ! kill -0 "$pid" 2>/dev/null || [ "$(date +%s)" -ge "$deadline" ]; then
    echo "npm start did not answer /time within 180 s"; tail -50 "$log"; exit 1
  fi
  sleep 1
done
echo "answered /time: $(curl -fsS "http://127.0.0.1:$PORT/api/agent/v1/time")"
# Let the rest (the indexer) come up fully before stopping, so the stop covers the whole stack.
until grep -q "service is up" "$log"; do
  if ! kill -0 "$pid" 2>/dev/null || [ "$(date +%s)" -ge "$deadline" ]; then
    echo "npm start did not finish starting within 180 s"; tail -50 "$log"; exit 1
  fi
  sleep 1
done
# Record the whole tree (children lead their own process groups, so walk parent links).
tree="$pid $(descendants "$pid")"
echo "process tree: $tree"
kill -TERM "$pid"
for _ in $(seq 1 30); do kill -0 "$pid" 2>/dev/null || break; sleep 1; done
sleep 1
left=""
# A zombie (state Z) has exited and only waits to be reaped by PID 1; it is not left running.
for p in $tree; do
  state=$(ps -o stat= -p "$p" 2>/dev/null || true)
  if [ -n "$state" ] && [ "${state:0:1}" != "Z" ]; then left="$left $p"; fi
done
if [ -n "$left" ]; then
  echo "processes left after SIGTERM:$left"; ps -o pid,ppid,pgid,cmd -p "$(echo $left | tr ' ' ',')" || true
  kill -KILL $left 2>/dev/null || true
  tail -30 "$log"; exit 1
fi
grep -E "API base URL|MCP URL|data" "$log" || true
echo "smoke: npm start answered /time and SIGTERM left no process behind"

# Shared by the scripts: print what runs, wait for readiness.
step() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }
run()  { printf '  $ %s\n' "$*" >&2; "$@"; }
# unlocked COMMAND...: runs COMMAND with no descriptor above 2 inherited. A daemon started here outlives this script;
# an inherited lock descriptor (bench-lock's fd 9) would keep the lock held as long as the daemon runs, and every
# exclusive bench-lock after it would wait forever.
close_inherited() { local fd; for fd in /proc/$BASHPID/fd/*; do fd=${fd##*/}; [ "$fd" -gt 2 ] && eval "exec $fd>&-"; done; }
unlocked() {
  # In the background (`unlocked CMD &`) this already is the child: exec in place, so $! is COMMAND's PID.
  if [ "$BASHPID" != "$$" ]; then close_inherited; exec "$@"; fi
  ( close_inherited; exec "$@" )
}
# wait_for NAME SECONDS COMMAND...: retries COMMAND once a second until it succeeds or time runs out.
wait_for() {
  local name=$1 secs=$2; shift 2
  for ((i = 0; i < secs; i++)); do
    if "$@" >/dev/null 2>&1; then return 0; fi
    sleep 1
  done
  echo "error: $name was not ready after ${secs}s" >&2
  return 1
}

# stack_settled STACK: every service of the swarm stack STACK at its replica count, and none of its containers
# "health: starting" or "unhealthy" (scripts/swarm-smoke, scripts/swarm-power-cut).
stack_settled() {
  docker service ls --filter "label=com.docker.stack.namespace=$1" --format '{{.Replicas}}' | tr '/' ' ' | awk '$1 != $2 { bad = 1 } END { exit bad }' &&
  ! docker ps --filter "label=com.docker.stack.namespace=$1" --format '{{.Status}}' | grep -qE 'health: starting|unhealthy'
}

# consumer_delivery_mode STACK MODE: the stack's consumers' Consumer:DeliveryMode (AtLeastOnce, the default, or AtMostOnce), by a
# rolling update (scripts/swarm-broker-kill, scripts/swarm-gateway-kill).
consumer_delivery_mode() {
  step "consumers: Consumer__DeliveryMode=$2 (docker service update, rolling)"
  if [ "$2" = AtLeastOnce ]; then
    run timeout 300 docker service update --quiet --env-rm Consumer__DeliveryMode "$1_consumer" >/dev/null
  else
    run timeout 300 docker service update --quiet --env-add "Consumer__DeliveryMode=$2" "$1_consumer" >/dev/null
  fi
}

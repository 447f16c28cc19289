# Sourced by scripts/setup: what setup started, recorded by PID so that `scripts/setup status` and
# `scripts/setup stop` act on exactly those processes (never on a process found by its name).
# Each record .run/setup/NAME.pid holds: PID, the process's start time (field 22 of /proc/PID/stat, so a
# recycled PID is not mistaken for it), the endpoint, and a description.
SETUP_RUN=${SETUP_RUN:-$(pwd)/.run/setup}

proc_start() { awk '{ print $22 }' "/proc/$1/stat" 2>/dev/null; }

# record NAME PID ENDPOINT DESCRIPTION
record_started() {
  mkdir -p "$SETUP_RUN"
  printf '%s %s %s %s\n' "$2" "$(proc_start "$2")" "$3" "$4" > "$SETUP_RUN/$1.pid"
}

# recorded_pid NAME: the recorded PID if that very process still runs, else nothing.
recorded_pid() {
  local pid start rest
  read -r pid start rest 2>/dev/null < "$SETUP_RUN/$1.pid" || return 0
  [ -n "$pid" ] && [ "$(proc_start "$pid")" = "$start" ] && echo "$pid"
  return 0
}

SETUP_SERVICES=(rabbitmq postgresql smtp-sink)
endpoint_of() {
  case "$1" in
    rabbitmq) echo "127.0.0.1:5672" ;;
    postgresql) echo "127.0.0.1:5432" ;;
    smtp-sink) echo "127.0.0.1:${SMTP_PORT:-2525}" ;;
  esac
}
answers() { local hp; hp=$(endpoint_of "$1"); (exec 3<>"/dev/tcp/${hp%:*}/${hp#*:}") 2>/dev/null; }

setup_status() {
  printf '%-11s %-16s %-9s %s\n' service endpoint state "started by scripts/setup"
  local s pid
  for s in "${SETUP_SERVICES[@]}"; do
    pid=$(recorded_pid "$s")
    printf '%-11s %-16s %-9s %s\n' "$s" "$(endpoint_of "$s")" "$(answers "$s" && echo up || echo down)" \
      "$([ -n "$pid" ] && echo "yes, PID $pid" || echo "no (not running, or started otherwise)")"
  done
  echo "prometheus  (installed, not started: each metrics test runs its own on a free port)"
}

# stop_recorded NAME SIGNAL: signal the recorded process and wait up to 60 s for it to exit.
stop_recorded() {
  local name=$1 sig=$2 pid
  pid=$(recorded_pid "$name")
  if [ -z "$pid" ]; then
    echo "  $name: nothing recorded as started by scripts/setup is running; left alone"
    rm -f "$SETUP_RUN/$name.pid"; return 0
  fi
  echo "  $name: kill -$sig $pid"
  kill "-$sig" "$pid"
  for ((i = 0; i < 60; i++)); do [ "$(proc_start "$pid")" = "" ] && break; sleep 1; done
  if [ -n "$(proc_start "$pid")" ]; then echo "error: $name (PID $pid) still runs after 60 s" >&2; return 1; fi
  rm -f "$SETUP_RUN/$name.pid"
}

setup_stop() {
  step "stopping what scripts/setup started (by recorded PID; see scripts/setup status)"
  stop_recorded smtp-sink TERM
  stop_recorded rabbitmq TERM      # the Erlang VM shuts RabbitMQ down cleanly on SIGTERM
  stop_recorded postgresql INT     # the postmaster's "fast" shutdown
}

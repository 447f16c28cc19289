# Sourced by scripts/images and scripts/swarm: a Docker engine on this machine, started without systemd.
# ensure_docker_engine installs Debian's docker.io when no dockerd exists, starts dockerd in the
# background when none answers, and records its PID in .run/docker/dockerd.pid; stop_docker_engine
# stops only a dockerd whose PID that file recorded (an engine started by someone else is left alone).
DOCKER_RUN_DIR=${DOCKER_RUN_DIR:-$(pwd)/.run/docker}

docker_engine_answers() { docker info >/dev/null 2>&1; }

# docker_engine_why_not: one line saying why an engine cannot start here ("" when it can try).
docker_engine_why_not() {
  if [ "$(id -u)" != 0 ]; then echo "not root (dockerd needs root)"; return; fi
  if ! command -v dockerd >/dev/null && ! command -v apt-get >/dev/null; then echo "no dockerd and no apt-get to install docker.io"; return; fi
  echo ""
}

ensure_docker_engine() {
  if docker_engine_answers; then return 0; fi
  local why; why=$(docker_engine_why_not)
  if [ -n "$why" ]; then echo "error: no Docker engine answers and none can be started: $why" >&2; return 1; fi
  if ! command -v dockerd >/dev/null; then
    step "installing Debian's docker.io (apt-get)"
    export DEBIAN_FRONTEND=noninteractive
    # No init system: keep the package's postinst from trying to start the service.
    printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d
    run apt-get update -qq
    run apt-get install -y -qq --no-install-recommends docker.io >/dev/null
  fi
  mkdir -p "$DOCKER_RUN_DIR"
  step "starting dockerd in the background (log $DOCKER_RUN_DIR/dockerd.log, PID in $DOCKER_RUN_DIR/dockerd.pid)"
  unlocked nohup dockerd --pidfile "$DOCKER_RUN_DIR/dockerd.daemon.pid" > "$DOCKER_RUN_DIR/dockerd.log" 2>&1 &
  echo $! > "$DOCKER_RUN_DIR/dockerd.pid"
  if ! wait_for "dockerd" 60 docker info; then
    tail -n 20 "$DOCKER_RUN_DIR/dockerd.log" >&2
    return 1
  fi
}

# The PID recorded by ensure_docker_engine, if that process still runs ("" otherwise).
docker_engine_own_pid() {
  local pid
  pid=$(cat "$DOCKER_RUN_DIR/dockerd.pid" 2>/dev/null) || return 0
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then echo "$pid"; fi
}

stop_docker_engine() {
  local pid; pid=$(docker_engine_own_pid)
  if [ -z "$pid" ]; then
    echo "dockerd: not started by these scripts (no live PID in $DOCKER_RUN_DIR/dockerd.pid); left alone" >&2
    return 0
  fi
  step "stopping dockerd (PID $pid, SIGTERM; its containers stop with it)"
  kill -TERM "$pid"
  for ((i = 0; i < 60; i++)); do kill -0 "$pid" 2>/dev/null || break; sleep 1; done
  if kill -0 "$pid" 2>/dev/null; then echo "error: dockerd $pid still runs after 60 s" >&2; return 1; fi
  rm -f "$DOCKER_RUN_DIR/dockerd.pid"
}

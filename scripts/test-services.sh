# Sourced by scripts/test: where the integration tests get RabbitMQ and PostgreSQL, and whether the SQL
# Server store suite can run. Docker is optional; nothing here starts or stops a Docker engine.

# A Docker engine answers on the default endpoint (DOCKER_HOST or /var/run/docker.sock).
docker_reachable() {
  command -v docker >/dev/null && timeout 20 docker version --format '{{.Server.APIVersion}}' >/dev/null 2>&1
}

# Testcontainers 4.16 asks for Docker API 1.44 unless DOCKER_API_VERSION says otherwise; Debian 12's
# docker.io (20.10) answers at most 1.41 ("client version 1.44 is too new"). Use the engine's own version then.
docker_api_for_testcontainers() {
  local api
  api=$(docker version --format '{{.Server.APIVersion}}')
  if [ -z "${DOCKER_API_VERSION:-}" ] && [ "$(printf '%s\n' "$api" 1.44 | sort -V | head -n1)" != 1.44 ]; then
    export DOCKER_API_VERSION=$api
    echo "Docker engine's API is $api (< 1.44): DOCKER_API_VERSION=$api for Testcontainers"
  fi
}

# NOTIFICATIONS_TEST_SERVICES=containers: no scripts/setup; the tests start the broker and the database with
# Testcontainers. Needs a Docker engine, and smtp-sink (postfix) and prometheus on this machine.
prepare_containers() {
  if ! docker_reachable; then
    echo "error: NOTIFICATIONS_TEST_SERVICES=containers needs a Docker engine, and none answers ('docker version' failed)." >&2
    echo "       Start one, or run with NOTIFICATIONS_TEST_SERVICES=setup (the default: local services from scripts/setup)." >&2
    exit 1
  fi
  docker_api_for_testcontainers
  local missing=()
  [ -x "${NOTIFICATIONS_TEST_SMTP_SINK:-/usr/sbin/smtp-sink}" ] || missing+=("smtp-sink (apt-get install postfix)")
  [ -x "${NOTIFICATIONS_TEST_PROMETHEUS:-/usr/bin/prometheus}" ] || missing+=("prometheus (apt-get install prometheus)")
  if [ ${#missing[@]} -gt 0 ]; then
    echo "error: the integration tests run these on this machine, also with containers: ${missing[*]}" >&2
    exit 1
  fi
  # Images built here from Debian's packages, when the official ones are not here and no registry may be.
  if [ -z "${NOTIFICATIONS_TEST_IMAGES:-}" ] \
    && ! docker image inspect rabbitmq:3.10-management postgres:15 >/dev/null 2>&1 \
    && docker image inspect notifications/rabbitmq:local notifications/postgres:local >/dev/null 2>&1; then
    export NOTIFICATIONS_TEST_IMAGES=local
    echo "official images not here, local builds are: NOTIFICATIONS_TEST_IMAGES=local"
  fi
  # Ryuk (Testcontainers' reaper) comes from Docker Hub; without it the fixtures still remove their containers at exit.
  if [ -z "${TESTCONTAINERS_RYUK_DISABLED:-}" ] && [ -z "$(docker images -q 'testcontainers/ryuk')" ] && [ "${NOTIFICATIONS_TEST_IMAGES:-}" = local ]; then
    export TESTCONTAINERS_RYUK_DISABLED=true
    echo "no testcontainers/ryuk image here: TESTCONTAINERS_RYUK_DISABLED=true"
  fi
  local variable
  for variable in NOTIFICATIONS_TEST_RABBITMQ NOTIFICATIONS_TEST_POSTGRES; do
    if [ -n "${!variable:-}" ]; then echo "$variable is set: it wins over a container"; fi
  done
}

# Sets sqlserver_note, and filter=(--filter "Category!=SqlServer") when the suite cannot run.
# Runs with NOTIFICATIONS_TEST_SQLSERVER, else with Testcontainers.MsSql when its image is here or can be pulled.
decide_sqlserver() {
  filter=()
  local image=${NOTIFICATIONS_TEST_SQLSERVER_IMAGE:-mcr.microsoft.com/mssql/server:2022-latest} reason
  if [ -n "${NOTIFICATIONS_TEST_SQLSERVER:-}" ]; then
    sqlserver_note="SQL Server store suite: RUN against NOTIFICATIONS_TEST_SQLSERVER"
    return
  fi
  if ! docker_reachable; then
    sqlserver_note="SQL Server store suite: NOT RUN — NOTIFICATIONS_TEST_SQLSERVER is not set and no Docker engine answers for Testcontainers.MsSql"
  elif docker image inspect "$image" >/dev/null 2>&1 || reason=$(timeout 600 docker pull -q "$image" 2>&1); then
    docker_api_for_testcontainers
    sqlserver_note="SQL Server store suite: RUN with Testcontainers.MsSql ($image)"
    return
  else
    sqlserver_note="SQL Server store suite: NOT RUN — NOTIFICATIONS_TEST_SQLSERVER is not set and $image cannot be pulled here: $(tail -n1 <<<"$reason")"
  fi
  filter=(--filter "Category!=SqlServer")
}

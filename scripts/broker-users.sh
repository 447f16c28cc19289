# Broker users per role (docs/broker-users.md), sourced by scripts/setup, scripts/cluster and scripts/swarm.
# The permissions are Shared/Messaging/BrokerPermissions.cs's, written here for the names EXCHANGE and QUEUE
# (RabbitMq:Exchange / RabbitMq:Queue; default both "notifications"); a test checks the two agree.
BROKER_ROLES=(producer consumer admin gateway)

# broker_user ROLE: the broker user name of a role.
broker_user() { echo "notifications-$1"; }

# broker_permissions ROLE [EXCHANGE [QUEUE]]: three lines, the configure, write and read regexes.
broker_permissions() {
  local e=${2:-notifications} q=${3:-notifications}
  e=${e//./\\.} q=${q//./\\.}
  local readable="$e|$q(\\.urgent)?(\\.retry\\.[0-9]+)?|$q\\.limit\\..+|$q\\.dead\\.inbox"
  case "$1" in
    producer) printf '%s\n' '^$' "^$e\$" '^$' ;;
    consumer) printf '%s\n' "^($readable|$q\\.dead|$e\\.live)\$" "^($readable|$q\\.dead|$e\\.live)\$" "^($readable)\$" ;;
    admin) printf '%s\n' '^$' "^$e\$" "^$q\\.dead\$" ;;
    gateway) printf '%s\n' "^($e\\.live|$q\\.live\\.node\\..+)\$" "^$q\\.live\\.node\\..+\$" "^($e\\.live|$q\\.live\\.node\\..+)\$" ;;
    *) echo "error: no broker role '$1' (producer, consumer, admin, gateway)" >&2; return 2 ;;
  esac
}

# broker_password DIR ROLE: the role's password, generated once and kept in DIR/<user>.password (mode 600).
broker_password() {
  local f; f="$1/$(broker_user "$2").password"
  if [ ! -s "$f" ]; then mkdir -p "$(dirname "$1")"; (umask 077; mkdir -p "$1"; head -c 24 /dev/urandom | base64 | tr -d '/+=' > "$f"); fi
  cat "$f"
}

# broker_password_hash PASSWORD: RabbitMQ's rabbit_password_hashing_sha256 (base64 of salt + sha256(salt + password)),
# so the password itself never reaches a command line or a definitions file.
broker_password_hash() {
  local tmp; tmp=$(mktemp -d)
  head -c 4 /dev/urandom > "$tmp/salt"
  { cat "$tmp/salt"; printf '%s' "$1"; } | openssl dgst -sha256 -binary > "$tmp/hash"
  cat "$tmp/salt" "$tmp/hash" | base64 -w0
  rm -rf "$tmp"
}

# broker_definitions DIR [VHOST...]: RabbitMQ definitions (JSON) of the four role users (passwords from DIR, see
# broker_password) with their permissions on each VHOST (default /), for `rabbitmqctl import_definitions -` or
# load_definitions. EXTRA_USERS / EXTRA_PERMISSIONS / EXTRA_VHOSTS: JSON objects to add (comma-separated), e.g. the
# stack's administrator, whose definitions replace the default user at the first boot.
broker_definitions() {
  local dir=$1; shift
  local vhosts=("$@"); [ ${#vhosts[@]} -gt 0 ] || vhosts=(/)
  local role v sep="" psep="" users="" perms="" p
  for role in "${BROKER_ROLES[@]}"; do
    users+="$sep{\"name\":\"$(broker_user "$role")\",\"password_hash\":\"$(broker_password_hash "$(broker_password "$dir" "$role")")\",\"hashing_algorithm\":\"rabbit_password_hashing_sha256\",\"tags\":\"\"}"
    sep=,
    mapfile -t p < <(broker_permissions "$role" "${BROKER_EXCHANGE:-notifications}" "${BROKER_QUEUE:-notifications}")
    for v in "${vhosts[@]}"; do
      perms+="$psep{\"user\":\"$(broker_user "$role")\",\"vhost\":\"$v\",\"configure\":\"$(json_regex "${p[0]}")\",\"write\":\"$(json_regex "${p[1]}")\",\"read\":\"$(json_regex "${p[2]}")\"}"
      psep=,
    done
  done
  local vh="" vsep=""
  for v in "${vhosts[@]}"; do vh+="$vsep{\"name\":\"$v\"}"; vsep=,; done
  printf '{"vhosts":[%s%s],"users":[%s%s],"permissions":[%s%s]}\n' \
    "$vh" "${EXTRA_VHOSTS:+,$EXTRA_VHOSTS}" "$users" "${EXTRA_USERS:+,$EXTRA_USERS}" "$perms" "${EXTRA_PERMISSIONS:+,$EXTRA_PERMISSIONS}"
}
json_regex() { local s=${1//\\/\\\\}; printf '%s' "$s"; }

# broker_uri DIR ROLE HOSTPORT [VHOST]: the role's AMQP URI (the password is generated base64 without / + =: no escaping).
broker_uri() { echo "${BROKER_SCHEME:-amqp}://$(broker_user "$2"):$(broker_password "$1" "$2")@$3/${4:-}"; }

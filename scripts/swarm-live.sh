# The stack's live clients (docs/live.md, "In the stacks"), sourced by scripts/swarm-gateway-kill and scripts/swarm-smoke:
# tests/Notifications.LiveSwarm's WebSocket clients in a container on the stack's network (the gateway image brings the .NET
# runtime; the tool's build output is mounted), each its own subscriber (swarm-0, swarm-1, ...), over wss:// to the service
# name gateway (its replicas' addresses, dnsrr), trusting the stack's CA only, minting their tokens with the stack's
# gateway_token_key. Every event is a line of one file: "connected I ADDRESS", "disconnected I ADDRESS REASON", "received I ID".
# Needs STACK and scripts/lib.sh.
LIVE_TOOL=tests/Notifications.LiveSwarm/bin/Release/net10.0

# live_clients_start NAME CLIENTS LOG: the container NAME with CLIENTS clients writing LOG (a path under .run/swarm); returns once
# every client is connected (at most 120 s).
live_clients_start() {
  local name=$1 clients=$2 log=$3 dir
  if [ "${LIVE_TOOL_BUILD:-0}" = 1 ] || [ ! -e "$LIVE_TOOL/Notifications.LiveSwarm.dll" ]; then
    run dotnet build tests/Notifications.LiveSwarm -c Release -v quiet -nologo >/dev/null
  fi
  dir=$(cd "$(dirname "$log")" && pwd); chmod 777 "$dir"; rm -f "$log"
  docker rm -f "$name" >/dev/null 2>&1 || true
  run docker run -d --name "$name" --network "${STACK}_backend" --user 0 \
    -v "$(pwd)/$LIVE_TOOL:/tool:ro" -v "$dir:/out" -v "$(pwd)/.run/swarm/tls/ca.crt:/ca.crt:ro" \
    -v "$(pwd)/.run/swarm/secrets/gateway_token_key:/token.key:ro" --entrypoint dotnet notifications/gateway:local \
    /tool/Notifications.LiveSwarm.dll --uri wss://gateway:8090/live --ca /ca.crt --key-file /token.key \
    --clients "$clients" --out "/out/$(basename "$log")" >/dev/null
  wait_for "$clients live clients connected" 120 bash -c \
    "[ \$(awk '\$1 == \"connected\" && !c[\$2]++ { n++ } END { print n + 0 }' '$log' 2>/dev/null || echo 0) -ge $clients ]"
}

# live_clients_stop NAME: SIGTERM, then the container goes (its log file stays).
live_clients_stop() { docker stop -t 10 "$1" >/dev/null 2>&1 || true; docker rm -f "$1" >/dev/null 2>&1 || true; }

# live_insert CLIENTS K: K live rows in the outbox as the business app's login, each to one of the clients' subscribers (at
# random); prints "MIN_ID MAX_ID COUNT".
live_insert() {
  docker exec -i "$(docker ps -q -f "label=com.docker.swarm.service.name=${STACK}_postgres" | head -n1)" \
    psql -qtAX -v ON_ERROR_STOP=1 -U notifications_app_login -d notifications -c "WITH ins AS (
      INSERT INTO notifications.outbox (channel, recipient, subject, body)
      SELECT 'live', 'swarm-' || floor(random() * $1)::int, 'Live #' || g, 'Hello ' || g FROM generate_series(1, $2) g
      RETURNING id) SELECT min(id) || ' ' || max(id) || ' ' || count(*) FROM ins"
}

# live_verdict LOG FROM TO: the oracle's line for the live ids FROM..TO as the clients received them (every frame counted:
# a client shows each id once, the wire may carry it twice), "inserted N  delivered M frames  distinct D  lost L  duplicated X".
live_verdict() {
  awk -v f="$2" -v t="$3" '$1 == "received" && $3 >= f && $3 <= t { n[$3]++ }
    END { for (id in n) { d++; m += n[id] }
          printf "inserted %d  delivered %d frames  distinct %d  lost %d  duplicated %d\n", t - f + 1, m, d, (t - f + 1) - d, m - d }' "$1"
}

#!/bin/bash
# RABBITMQ_DEFAULT_USER / RABBITMQ_DEFAULT_PASS (or *_FILE) become a conf.d fragment, read at the first boot
# of an empty node, like the official image; the stack mounts its own fragment as a secret instead.
set -euo pipefail
user=${RABBITMQ_DEFAULT_USER:-}
pass=${RABBITMQ_DEFAULT_PASS:-}
[ -n "${RABBITMQ_DEFAULT_PASS_FILE:-}" ] && pass=$(cat "$RABBITMQ_DEFAULT_PASS_FILE")
if [ -n "$user" ] || [ -n "$pass" ]; then
  printf 'default_user = %s\ndefault_pass = %s\nloopback_users = none\n' "${user:-guest}" "${pass:-guest}" \
    > /etc/rabbitmq/conf.d/10-default-user.conf
fi

# RABBITMQ_FIRST_BOOT_AFTER="host:port ..." (the stack's rabbitmq-2 and rabbitmq-3: the other nodes' AMQPS listeners): on a
# first boot (no data directory yet), wait until one of them accepts, i.e. a node of the cluster serves, before starting,
# for at most RABBITMQ_FIRST_BOOT_WAIT seconds (240). RabbitMQ 3.10's classic-config discovery holds its cluster-wide lock
# while a node retries to join (deploy/rabbitmq/join.conf: 120 x 2 s): a joining node that took the lock first kept the
# seed, rabbitmq-1, from starting the cluster it waited for, and the three sat for 4 minutes (docs/cluster.md).
if [ -n "${RABBITMQ_FIRST_BOOT_AFTER:-}" ] && [ -z "$(ls -A /var/lib/rabbitmq/mnesia 2>/dev/null)" ]; then
  wait_s=${RABBITMQ_FIRST_BOOT_WAIT:-240} start=$SECONDS serving=
  echo "first boot: waiting for a serving node of the cluster ($RABBITMQ_FIRST_BOOT_AFTER), at most ${wait_s} s, before joining it"
  while [ -z "$serving" ] && [ $((SECONDS - start)) -lt "$wait_s" ]; do
    for peer in $RABBITMQ_FIRST_BOOT_AFTER; do
      if timeout 5 bash -c ": 3<>/dev/tcp/${peer%:*}/${peer##*:}" 2>/dev/null; then serving=$peer; break; fi
    done
    [ -n "$serving" ] || sleep 2
  done
  echo "first boot: ${serving:-no node} serving after $((SECONDS - start)) s; starting"
fi

# A restart from data (a power cut, the engine restarted): RabbitMQ 3.10 tries to reach the nodes it last ran with once, as
# it boots, then waits for them (10 x 30 s) without trying again; swarm gives a task its name on the network only once its
# healthcheck passes. Three nodes restarted together each tried before the others had names, and none came back
# (scripts/swarm power-cut, docs/cluster.md). So, first, wait until every node named by classic_config resolves, for at
# most RABBITMQ_PEER_NAMES_WAIT seconds (120; a node that has not served yet is healthy, so each gets its name at its first
# healthcheck): then the last node to boot reaches the others, and they find each other.
if [ -n "$(ls -A /var/lib/rabbitmq/mnesia 2>/dev/null)" ]; then
  peers=$(sed -n 's/^cluster_formation\.classic_config\.nodes\.[0-9]* *= *[^@]*@\([^ ]*\).*/\1/p' /etc/rabbitmq/conf.d/*.conf 2>/dev/null | sort -u | xargs || true)
  if [ -n "$peers" ]; then
    wait_s=${RABBITMQ_PEER_NAMES_WAIT:-120} start=$SECONDS
    until getent hosts $peers >/dev/null || [ $((SECONDS - start)) -ge "$wait_s" ]; do sleep 1; done
    if getent hosts $peers >/dev/null; then
      echo "restart: the cluster's nodes ($peers) resolve after $((SECONDS - start)) s; starting"
    else
      echo "restart: not every node of the cluster ($peers) resolves after ${wait_s} s; starting anyway"
    fi
  fi
fi
exec "$@"

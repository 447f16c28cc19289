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
exec "$@"

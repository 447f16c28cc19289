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
exec "$@"

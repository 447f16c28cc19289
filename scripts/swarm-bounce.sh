# Sourced by scripts/swarm-smoke: one DSN to the stack's bounce receiver over SMTP (docs/bounces.md), for a notification
# the smoke test sent. The return path is signed here as the consumer signs it (Shared/Bounces/ReturnPath: the first 80 bits
# of HMAC-SHA256(key, "return-path\n" + id) in lowercase base32) with the stack's bounces_key; the DSN is the corpus's
# Postfix "user unknown" (tests/Notifications.UnitTests/Bounces/Corpus), sent with bash's /dev/tcp from the database's
# container to bounces:2525 on the stack's network (nothing is published). Needs: STACK, out, svc.

# return_path ID KEY_FILE: bounces+ID.k1<mac>@bounces.example.test (the stack's Bounces__Domain and key id).
return_path() {
  local mac
  # perl reads the key from its file: no secret on a command line (the secret scan looks at every process's).
  mac=$(perl -MDigest::SHA=hmac_sha256 -MMIME::Base64 -e 'local $/; print hmac_sha256("return-path\n$ARGV[0]", decode_base64(<STDIN>))' "$1" < "$2" |
    head -c 10 | base32 | tr 'A-Z' 'a-z')
  echo "bounces+$1.k1$mac@bounces.example.test"
}

# bounce_send ID: the DSN over SMTP; prints the session (each reply), exit 0 when DATA was answered 250.
bounce_send() {
  local rcpt ctr
  rcpt=$(return_path "$1" .run/swarm/secrets/bounces_key)
  ctr=$(docker ps -q -f "label=com.docker.swarm.service.name=$(svc postgres)" | head -n1)
  sed "s/{{RETURN_PATH}}/$rcpt/g; s/\$/\r/" tests/Notifications.UnitTests/Bounces/Corpus/postfix-user-unknown.eml |
    docker exec -i "$ctr" bash -c '
      exec 3<>/dev/tcp/bounces/2525 || exit 1
      reply() { local l; while read -r -t 30 l <&3; do echo "  < ${l%$'"'\r'"'}"; [[ $l == [0-9][0-9][0-9]" "* ]] && { [[ $l == $1* ]]; return; }; done; return 1; }
      say() { echo "  > $1"; printf "%s\r\n" "$1" >&3; }
      reply 220 && say "EHLO smoke.example.test" && reply 250 && say "MAIL FROM:<>" && reply 250 &&
        say "RCPT TO:<$1>" && reply 250 && say DATA && reply 354 && { cat; printf ".\r\n"; } >&3 && reply 250 && say QUIT && reply 221' _ "$rcpt"
}

# bounce_check ID: the DSN sent, then the notification's state bounced and nobody@example.net suppressed (hard_bounce).
bounce_check() {
  local id=$1 state suppressed
  bounce_send "$id" > "$out/bounce-smtp.txt" 2>&1 || { cat "$out/bounce-smtp.txt"; return 1; }
  state=$(bash scripts/swarm psql -tAc "SELECT state FROM notifications.notification_status($id)" 2>&1)
  suppressed=$(bash scripts/swarm psql -tAc "SELECT reason || ' ' || scope FROM notifications.suppression WHERE address = 'nobody@example.net' AND removed_at IS NULL" 2>&1)
  echo "  notification $id: $state; nobody@example.net suppressed: ${suppressed:-no}"
  [ "$state" = bounced ] && [ "$suppressed" = "hard_bounce all" ]
}

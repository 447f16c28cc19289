# Sourced by scripts/setup: the database roles of db/postgres/repeatable/90_roles.sql and one login per role (docs/security.md).
# The seven NOLOGIN group roles are cluster-wide: created here once, as the superuser, so the migrator needs no
# CREATEROLE. Each login (notifications_<role>_login, LOGIN, IN ROLE notifications_<role>) gets a generated password,
# kept in .run/secrets/postgres_<role> (mode 600) and in .run/secrets/pgpass (the psql password file, mode 600).
# No password is ever on a command line: SQL with a password goes to psql on standard input.
PG_ROLES=(app producer consumer admin unsubscribe gateway bounces)
SECRETS_DIR=${SECRETS_DIR:-$(pwd)/.run/secrets}

# new_secret: 48 hex characters (192 bits) from openssl, or /dev/urandom without it; hex needs no quoting anywhere.
new_secret() {
  if command -v openssl >/dev/null; then openssl rand -hex 24; else head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n'; fi
}

# secret_file NAME: the file holding secret NAME, made (generated) if missing.
secret_file() {
  local f=$SECRETS_DIR/$1
  mkdir -p "$(dirname "$SECRETS_DIR")"; (umask 077; mkdir -p "$SECRETS_DIR")   # only the secrets directory is private
  [ -s "$f" ] || (umask 077; new_secret > "$f")
  chmod 600 "$f"
  echo "$f"
}

as_pg_stdin() { su postgres -c "psql -v ON_ERROR_STOP=1 -qAt" >/dev/null; }

# pg_role_logins: the group roles, the logins with their passwords, and the password file (owner included).
pg_role_logins() {
  local role login pass
  for role in "${PG_ROLES[@]}"; do
    as_pg_stdin <<SQL
DO \$\$ BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'notifications_$role') THEN CREATE ROLE notifications_$role NOLOGIN; END IF;
END \$\$;
SQL
  done
  mkdir -p "$(dirname "$SECRETS_DIR")"; (umask 077; mkdir -p "$SECRETS_DIR" && : > "$SECRETS_DIR/pgpass.new")
  printf '127.0.0.1:5432:*:%s:%s\n' "$PG_USER" "$PG_PASSWORD" >> "$SECRETS_DIR/pgpass.new"
  for role in "${PG_ROLES[@]}"; do
    login=notifications_${role}_login
    pass=$(cat "$(secret_file "postgres_$role")")
    printf '127.0.0.1:5432:*:%s:%s\n' "$login" "$pass" >> "$SECRETS_DIR/pgpass.new"
    # Set the password only when the login is new or its kept password no longer logs in (another checkout's setup
    # on the same cluster), so a second run changes nothing.
    if PGPASSFILE=$SECRETS_DIR/pgpass.new psql -qAt -w -h 127.0.0.1 -U "$login" -d postgres -c 'SELECT 1' >/dev/null 2>&1; then continue; fi
    step "login $login (member of notifications_$role; password in $SECRETS_DIR/postgres_$role)"
    as_pg_stdin <<SQL
DO \$\$ BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '$login') THEN CREATE ROLE $login LOGIN; END IF;
END \$\$;
GRANT notifications_$role TO $login;
ALTER ROLE $login PASSWORD '$pass';
SQL
  done
  mv "$SECRETS_DIR/pgpass.new" "$SECRETS_DIR/pgpass"
}

# pg_role_env PREFIX DB: export lines PREFIX_APP=... for each role's connection string to DB.
pg_role_env() {
  local role upper
  for role in "${PG_ROLES[@]}"; do
    upper=$(echo "$role" | tr '[:lower:]' '[:upper:]')
    printf 'export %s_%s="Host=127.0.0.1;Port=5432;Database=%s;Username=notifications_%s_login;Password=%s"\n' \
      "$1" "$upper" "$2" "$role" "$(cat "$SECRETS_DIR/postgres_$role")"
  done
}

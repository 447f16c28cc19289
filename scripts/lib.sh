# Shared by the scripts: print what runs, wait for readiness.
step() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }
run()  { printf '  $ %s\n' "$*" >&2; "$@"; }
# wait_for NAME SECONDS COMMAND...: retries COMMAND once a second until it succeeds or time runs out.
wait_for() {
  local name=$1 secs=$2; shift 2
  for ((i = 0; i < secs; i++)); do
    if "$@" >/dev/null 2>&1; then return 0; fi
    sleep 1
  done
  echo "error: $name was not ready after ${secs}s" >&2
  return 1
}

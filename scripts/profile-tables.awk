# Reads `perf script -F pid,ip,sym,dso` (one block per sample: "PID", then the call chain leaf first) and writes
# processes.md, top-<process>.md and <process>.folded into `out`. Called by scripts/profile.
function role(pid,   a) {
  a = args[pid]
  if (a ~ /Notifications\.Consumer\.dll/) return "consumer"
  if (a ~ /Notifications\.Producer\.dll/) return "producer"
  if (a ~ /Notifications\.Harness\.dll/) return "harness"
  if (a ~ /beam\.smp/) return "broker"
  if (a ~ /^postgres|bin\/postgres/) return "database"
  if (a ~ /smtp-sink|Receivers/) return "sink"
  if (pid == 0) return "idle"
  return "other"
}
function frame(line,   m) {
  # "\t    7fe9d0971258 void [Notifications.Consumer] Notifications...::Method()[OptimizedTier1] (/tmp/perf-1.map)"
  sub(/^[ \t]*[0-9a-f]+ /, "", line)
  dso = line; sub(/.* \(/, "", dso); sub(/\)$/, "", dso); n = split(dso, parts, "/"); dso = parts[n]
  sub(/ \([^()]*\)$/, "", line)
  sub(/\[(Optimized|OptimizedTier1|OptimizedTier1OSR|Tier0|Tier1|QuickJitted|PreJIT|Instrumented|InstrumentedTier1)\]$/, "", line)
  if (line == "[unknown]") line = "[unknown in " dso "]"
  return line
}
function flush(   i, r, leaf, seen, stack, sc) {
  if (npid == "") return
  r = role(npid); total[r]++; all++
  if (depth == 0) { npid = ""; return }
  leaf = f[1]; self[r, leaf]++; selfkeys[r] = selfkeys[r]
  sc = "(none: user space)"
  for (i = 1; i <= depth; i++) {
    if (f[i] ~ /^(__x64_sys_|__do_sys_)/) { sc = f[i]; sub(/^(__x64_sys_|__do_sys_)/, "", sc); break }
  }
  if (sc == "(none: user space)" && leaf ~ /^\[unknown in kernel/) sc = "(kernel, no syscall)"
  sys[r, sc]++
  delete seen
  for (i = 1; i <= depth; i++) {
    if (f[i] ~ /::/ && !(f[i] in seen)) { seen[f[i]] = 1; incl[r, f[i]]++ }
  }
  stack = ""
  for (i = depth; i >= 1; i--) { g = f[i]; gsub(/;/, ",", g); stack = stack (stack == "" ? "" : ";") g }
  folded[r, stack]++
  npid = ""
}
function top(arr, r, n, title, file,   k, key, cnt, keys, i, j, tmp, m) {
  m = 0
  for (k in arr) { split(k, key, SUBSEP); if (key[1] == r) { m++; keys[m] = key[2]; cnt[m] = arr[k] } }
  for (i = 2; i <= m; i++) { for (j = i; j > 1 && cnt[j] > cnt[j-1]; j--) { tmp = cnt[j]; cnt[j] = cnt[j-1]; cnt[j-1] = tmp; tmp = keys[j]; keys[j] = keys[j-1]; keys[j-1] = tmp } }
  print "\n## " title "\n\n| % of the process | cores | frame |\n|---:|---:|---|" > file
  for (i = 1; i <= m && i <= n; i++) {
    g = keys[i]; gsub(/\|/, "\\|", g)
    printf "| %.1f | %.3f | `%s` |\n", 100 * cnt[i] / total[r], cnt[i] / (hz * seconds), g > file
  }
}
BEGIN {
  while ((getline l < pids) > 0) { split(l, w, " "); p = w[1]; sub(/^[ \t]*[0-9]+[ \t]+/, "", l); args[p] = l }
  npid = ""
}
/^[ \t]*[0-9]+[ \t]*$/ { flush(); npid = $1 + 0; depth = 0; next }
/^[ \t]+[0-9a-f]+ / { if (npid != "") f[++depth] = frame($0); next }
/^$/ { flush() }
END {
  flush()
  file = out "/processes.md"
  printf "# CPU by process\n\n%d samples in %d s at %d Hz on every CPU.\n\n| process | samples | %% of samples | cores |\n|---|---:|---:|---:|\n", all, seconds, hz > file
  split("consumer producer broker database sink harness other idle", order, " ")
  for (i = 1; i <= 8; i++) { r = order[i]; if (total[r] > 0) printf "| %s | %d | %.1f | %.2f |\n", r, total[r], 100 * total[r] / all, total[r] / (hz * seconds) > file }
  for (i = 1; i <= 7; i++) {
    r = order[i]; if (total[r] == 0) continue
    file = out "/top-" r ".md"
    printf "# %s: where its CPU goes\n\n%d samples (%.2f cores).\n", r, total[r], total[r] / (hz * seconds) > file
    top(self, r, 30, "On CPU (self)", file)
    top(incl, r, 40, "Managed frames on the stack (inclusive)", file)
    top(sys, r, 12, "System calls (the kernel time's cause; user space is one row)", file)
    for (k in folded) { split(k, key, SUBSEP); if (key[1] == r) print key[2] " " folded[k] > (out "/" r ".folded") }
  }
}

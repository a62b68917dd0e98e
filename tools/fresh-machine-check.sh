#!/bin/sh
# Proves the README's promise on this machine as if it were new: purges the Debian packages the
# project installs (tools/system-deps.sh), makes a clean clone of the committed tree with an empty
# npm cache and an empty ~/.cache/svc, runs `npm install`, checks every native addon loads, runs `npm start` until it
# serves, then `npm test`. Needs root and apt-get (it changes the system's packages). The clone
# and the cache are removed at the end; the packages stay installed by the run.
#
#   sh tools/fresh-machine-check.sh [--keep]     --keep leaves the clone for a look
set -u
repo=$(cd "$(dirname "$0")/.." && pwd)
keep=false
[ "${1:-}" = "--keep" ] && keep=true

say() { printf 'fresh-machine-check: %s\n' "$*" >&2; }
fail() { say "FAILED: $*"; exit 1; }

[ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1 || fail "needs root and apt-get"
export DEBIAN_FRONTEND=noninteractive

work=$(mktemp -d "${TMPDIR:-/tmp}/svc-fresh-XXXXXX")
cleanup() {
  [ -n "${server_pgid:-}" ] && kill -TERM "-$server_pgid" 2>/dev/null
  if $keep; then say "left the clone in $work/svc"; else rm -rf "$work"; fi
}
trap cleanup EXIT

# 1. Purge what the project installs. A package that cannot go without taking a package someone
# installed by hand outside the project's list (not a dependency pulled in automatically) was part
# of this machine before the project came, so it stays; so does one apt refuses to remove.
ours="$(sh "$repo/tools/system-deps.sh" list-runtime) $(sh "$repo/tools/system-deps.sh" list-test)"
in_ours() { case " $(echo $ours) " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }
autoremovable() { apt-get -s autoremove 2>/dev/null | awk '/^Remv/ {print $2}' | sort; }
autoremovable > "$work/autoremovable-before"
apt-mark showmanual | sort > "$work/manual"
purge=""
for p in $ours; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || continue
  if ! apt-get -s purge "$p" > "$work/simulated" 2>&1; then say "keeping $p: apt would not remove it alone"; continue; fi
  outside=""
  for q in $(awk '/^Purg/ {print $2}' "$work/simulated"); do
    in_ours "$q" || ! grep -qx "$q" "$work/manual" || outside="$outside $q"
  done
  if [ -n "$outside" ]; then say "keeping $p: this machine had it before (purging it would remove$outside)"; continue; fi
  purge="$purge $p"
done
if [ -n "$purge" ]; then
  say "purging:$purge"
  apt-get purge -y -qq $purge >/dev/null || fail "apt-get purge$purge"
  # The dependencies those packages pulled in, and nothing that was removable before.
  extra=$(autoremovable | comm -13 "$work/autoremovable-before" -)
  if [ -n "$extra" ]; then apt-get purge -y -qq $extra >/dev/null || fail "apt-get purge of their dependencies"; fi
fi
case " $purge " in
  *" network-manager "*)
    for unit in NetworkManager.service NetworkManager-wait-online.service NetworkManager-dispatcher.service; do
      [ "$(readlink "/etc/systemd/system/$unit" 2>/dev/null)" = /dev/null ] && rm -f "/etc/systemd/system/$unit"
    done
    ;;
esac
for p in $(sh "$repo/tools/system-deps.sh" list-runtime); do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" && say "note: $p is still installed"
done

# 2. A clean clone of what is committed, and an npm cache of its own.
git clone -q --no-hardlinks "$repo" "$work/svc" || fail "git clone"
cd "$work/svc" || fail "cd"
export npm_config_cache="$work/npm-cache"
# What the project fetches and builds outside the checkout (the arm64 Node.js and cross-built
# addons in ~/.cache/svc) starts empty too.
export XDG_CACHE_HOME="$work/cache"
say "clone of $(git rev-parse --short HEAD) in $work/svc"

# 3. The two commands.
say "npm install"
npm install --no-audit --no-fund > "$work/install.log" 2>&1 || { tail -40 "$work/install.log" >&2; fail "npm install"; }
node -e 'import("node-libgpiod").then((m) => { if (!m.default.Chip) process.exit(1); })' || fail "import('node-libgpiod') after the first install"
node tools/native-addons.mjs check || fail "a native addon does not load after the first install"
say "every native addon loads"

say "npm start"
# npm runs the build and then the server below it: a process group of its own stops them all.
setsid npm start > "$work/start.log" 2>&1 &
server_pgid=$!
served=false
for _ in $(seq 1 120); do
  grep -q "serving http" "$work/start.log" && { served=true; break; }
  kill -0 "$server_pgid" 2>/dev/null || break
  sleep 1
done
kill -TERM "-$server_pgid" 2>/dev/null
wait "$server_pgid" 2>/dev/null
server_pgid=""
$served || { tail -20 "$work/start.log" >&2; fail "npm start did not serve"; }
say "npm start serves the simulated machine"

say "npm test"
CI=true npm test > "$work/test.log" 2>&1
status=$?
grep -E "Tests +[0-9]+" "$work/test.log" | tail -1 >&2
[ "$status" -eq 0 ] || { tail -60 "$work/test.log" >&2; fail "npm test exited $status"; }
node tools/native-addons.mjs check || fail "a native addon does not load after npm test"
say "passed: npm install && npm start, npm install && npm test, on a clean clone with the packages purged"

#!/bin/sh
# Installs svc-agent on a Linux device:
#   curl -fsSL https://packages.svc.dev/install.sh | sudo sh
#   curl -fsSL https://packages.svc.dev/install.sh | sudo SVC_PART_ID=... SVC_API_KEY_ID=... SVC_API_KEY=... sh
# Downloads the stable agent for this machine's architecture from the release index, checks its
# sha256, unpacks it into /opt/svc/agent/versions/<version>, points /opt/svc/agent/current at it,
# fetches the machine's credentials file from svc-cloud into /etc/svc.json when the part's id and
# key are given, and runs `svc-agent --install` (the systemd service). Needs curl, tar, sha256sum
# and Node.js 20 or later.
# What comes over https is never redirected down to http, and no download is read without a bound
# (the index: 4 MiB; the artifact: the size its index entry gives, or 256 MiB).
#
# Environment:
#   SVC_PACKAGE_URL   where index.json and the artifacts are (default $SVC_CLOUD_URL/releases when that is
#                     given, https://packages.svc.dev otherwise)
#   SVC_PART_ID, SVC_API_KEY_ID, SVC_API_KEY   the machine's cloud credentials (all three, or none)
#   SVC_CLOUD_URL     the svc-cloud they are for, which answers the credentials file (default: SVC_PACKAGE_URL)
#   SVC_ROOT          install under this directory instead of / (for tests; root is then not needed,
#                     and svc-agent --install writes its files there but runs no systemctl)
set -eu

say() { echo "svc install: $*" >&2; }
fail() {
  say "$*"
  exit 1
}

# fetch URL MAX_BYTES FILE: downloads at most MAX_BYTES (curl refuses a larger announced size; head
# cuts off one that is not announced, which fails curl's write); from an https URL, redirects stay
# on https.
fetch() {
  redirects=""
  case "$1" in https://*) redirects="--proto-redir =https" ;; esac
  # shellcheck disable=SC2086 # $redirects is one option and its value, or nothing
  { curl -fsSL $redirects --max-filesize "$2" "$1" -o -; echo $? >"$3.status"; } | head -c "$(($2 + 1))" >"$3"
  [ "$(cat "$3.status")" = 0 ] && [ "$(wc -c <"$3")" -le "$2" ]
}

# fetch_credentials WORK FILE: the machine's credentials file, as svc-cloud answers it for the part
# and its key (GET /api/json1/config?client=true&id=PART with the key_id and key headers, read from
# a file so the key never shows in the process list), checked to be that part's, written to FILE
# readable by root only. A file already there is kept beside it.
fetch_credentials() {
  cloud_url="${SVC_CLOUD_URL:-$package_url}"
  cloud_url="${cloud_url%/}"
  given="$SVC_PART_ID$SVC_API_KEY_ID$SVC_API_KEY"
  [ "$(printf '%s' "$given" | tr -d '\r\n' | wc -c)" = "$(printf '%s' "$given" | wc -c)" ] ||
    fail "SVC_PART_ID, SVC_API_KEY_ID and SVC_API_KEY must not hold line breaks"
  (umask 077 && printf 'key_id: %s\nkey: %s\n' "$SVC_API_KEY_ID" "$SVC_API_KEY" >"$1/headers")
  case "$cloud_url" in https://*) proto="--proto =https" ;; *) proto="" ;; esac
  say "fetching the machine's credentials from $cloud_url"
  # shellcheck disable=SC2086 # $proto is one option and its value, or nothing
  if ! curl -fsS $proto --max-filesize 65536 -H @"$1/headers" -G --data-urlencode "client=true" --data-urlencode "id=$SVC_PART_ID" \
    "$cloud_url/api/json1/config" -o "$1/credentials.json" 2>"$1/curl.err"; then
    fail "svc-cloud at $cloud_url did not give the credentials for part $SVC_PART_ID ($(head -c 300 "$1/curl.err")); check SVC_CLOUD_URL and the key"
  fi
  rm -f "$1/headers"
  mkdir -p "$(dirname "$2")"
  if [ -f "$2" ]; then
    cp -p "$2" "$2.before-install"
    say "kept the previous $2 as $2.before-install"
  fi
  (umask 077 && node -e '
    const [answer, file] = process.argv.slice(1);
    const fs = require("fs");
    const { SVC_PART_ID: part, SVC_API_KEY_ID: keyId } = process.env;
    const credentials = JSON.parse(fs.readFileSync(answer, "utf8"));
    const cloud = credentials && credentials.cloud;
    if (!cloud || cloud.id !== part || !cloud.api_key || cloud.api_key.id !== keyId || typeof cloud.app_address !== "string")
      throw new Error("svc-cloud answered something other than this part'"'"'s credentials file");
    fs.writeFileSync(file + ".new", JSON.stringify(credentials, null, 2) + "\n", { mode: 0o600 });
    fs.chmodSync(file + ".new", 0o600);
    fs.renameSync(file + ".new", file);
  ' "$1/credentials.json" "$2" 2>"$1/write.err") || fail "cannot write $2: $(sed -n 's/^Error: //p' "$1/write.err" | head -n 1)"
  say "wrote the machine credentials to $2"
}

# All in one function, called on the last line: when piped into sh, nothing runs until the
# whole script has arrived, and nothing run reads the rest of the script from stdin.
main() {
  root="${SVC_ROOT:-}"
  # A self-hosted svc-cloud serves the releases under /releases.
  cloud_default="${SVC_CLOUD_URL:+${SVC_CLOUD_URL%/}/releases}"
  package_url="${SVC_PACKAGE_URL:-${cloud_default:-https://packages.svc.dev}}"
  package_url="${package_url%/}"
  agent_dir="$root/opt/svc/agent"
  config_file="$root/etc/svc.json"

  if [ -z "$root" ] && [ "$(id -u)" != 0 ]; then
    fail "must run as root (curl -fsSL $package_url/install.sh | sudo sh)"
  fi

  case "$(uname -m)" in
    x86_64 | amd64) arch=amd64 ;;
    aarch64 | arm64) arch=arm64 ;;
    *) fail "this machine's architecture, $(uname -m), is not supported (svc-agent runs on x86_64 and aarch64)" ;;
  esac

  for tool in curl tar sha256sum; do
    command -v "$tool" >/dev/null 2>&1 || fail "$tool is needed; install it first (apt-get install $tool)"
  done
  if ! command -v node >/dev/null 2>&1; then
    fail "Node.js 20 or later is needed and was not found; install it first (e.g. apt-get install nodejs)"
  fi
  if ! node -e 'process.exit(Number(process.versions.node.split(".")[0]) >= 20 ? 0 : 1)'; then
    fail "Node.js 20 or later is needed; this machine has $(node --version)"
  fi

  case "${SVC_PART_ID:-}${SVC_API_KEY_ID:-}${SVC_API_KEY:-}" in
    "") credentials=no ;;
    *)
      [ -n "${SVC_PART_ID:-}" ] && [ -n "${SVC_API_KEY_ID:-}" ] && [ -n "${SVC_API_KEY:-}" ] ||
        fail "give all three of SVC_PART_ID, SVC_API_KEY_ID and SVC_API_KEY, or none"
      credentials=yes
      ;;
  esac

  work=$(mktemp -d "${TMPDIR:-/tmp}/svc-install.XXXXXX")
  trap 'rm -rf "$work"' EXIT
    trap 'exit 130' INT TERM

  # The credentials first: a wrong key installs nothing.
  if [ "$credentials" = yes ]; then
    fetch_credentials "$work" "$config_file"
  fi

  index_url="$package_url/index.json"
  say "reading $index_url"
  fetch "$index_url" 4194304 "$work/index.json" || fail "cannot download $index_url (or it is larger than 4 MiB)"

  # version, artifact URL (resolved against the index's URL) and sha256, one a line.
  if ! node -e '
    const [file, indexUrl, platform] = process.argv.slice(1);
    const index = JSON.parse(require("fs").readFileSync(file, "utf8"));
    const agent = index.agent || {};
    const version = (agent.channels || {}).stable;
    if (!version) throw new Error("the index has no stable agent version");
    const artifact = ((agent.versions || {})[version] || {})[platform];
    if (!artifact || typeof artifact.url !== "string" || !/^[0-9a-fA-F]{64}$/.test(artifact.sha256 || ""))
      throw new Error(`the index has no ${platform} artifact for agent ${version}`);
    if (!/^[0-9A-Za-z.+-]+$/.test(version)) throw new Error(`the index names an odd version: ${version}`);
    const size = Number.isSafeInteger(artifact.size) && artifact.size > 0 ? artifact.size : 268435456;
    console.log([version, new URL(artifact.url, indexUrl).href, artifact.sha256.toLowerCase(), size].join("\n"));
  ' "$work/index.json" "$index_url" "linux/$arch" >"$work/choice" 2>"$work/choice.err"; then
    fail "$index_url: $(sed -n 's/^Error: //p' "$work/choice.err" | head -n 1)"
  fi
  version=$(sed -n 1p "$work/choice")
  artifact_url=$(sed -n 2p "$work/choice")
  sha256=$(sed -n 3p "$work/choice")
  size=$(sed -n 4p "$work/choice")

  say "downloading svc-agent $version for linux/$arch"
  fetch "$artifact_url" "$size" "$work/agent.tar.gz" || fail "cannot download $artifact_url (or it is larger than $size bytes)"
  (cd "$work" && echo "$sha256  agent.tar.gz" | sha256sum -c --status -) ||
    fail "$artifact_url does not match its sha256 in the index; nothing was installed"

  mkdir -p "$agent_dir/versions"
  unpack="$agent_dir/versions/.$version.new-$$"
  rm -rf "$unpack"
  mkdir -p "$unpack"
  tar -xzf "$work/agent.tar.gz" -C "$unpack" || fail "cannot unpack $artifact_url"
  [ -x "$unpack/svc-agent" ] || fail "$artifact_url holds no svc-agent executable"
  rm -rf "$agent_dir/versions/$version"
  mv "$unpack" "$agent_dir/versions/$version"

  # The version that ran before (if any) is kept as `previous`; symlinks swap by an atomic rename.
  if [ -L "$agent_dir/current" ]; then
    before=$(readlink "$agent_dir/current")
    if [ "$before" != "versions/$version" ]; then
      ln -sfn "$before" "$agent_dir/previous.new-$$" && mv -T "$agent_dir/previous.new-$$" "$agent_dir/previous"
    fi
  fi
  ln -sfn "versions/$version" "$agent_dir/current.new-$$"
  mv -T "$agent_dir/current.new-$$" "$agent_dir/current"
  say "installed $agent_dir/versions/$version"

  # The agent's own name for the root prefix (empty means /).
  SVC_AGENT_ROOT="${root:-/}" "$agent_dir/current/svc-agent" --install || fail "svc-agent --install failed"
  say "svc-agent $version is installed; its logs: journalctl -u svc-agent"
}

main "$@" </dev/null

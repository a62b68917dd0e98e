#!/bin/sh
# Installs svc-agent on a Linux device:
#   curl -fsSL https://packages.svc.dev/install.sh | sudo sh
#   curl -fsSL https://packages.svc.dev/install.sh | sudo SVC_PART_ID=... SVC_API_KEY_ID=... SVC_API_KEY=... sh
# Downloads the stable agent for this machine's architecture from the release index, checks its
# sha256, unpacks it into /opt/svc/agent/versions/<version>, points /opt/svc/agent/current at it,
# writes the machine credentials to /etc/svc.json when they are given, and runs
# `svc-agent --install` (the systemd service). Needs curl, tar, sha256sum and Node.js 20 or later.
# What comes over https is never redirected down to http, and no download is read without a bound
# (the index: 4 MiB; the artifact: the size its index entry gives, or 256 MiB).
#
# Environment:
#   SVC_PACKAGE_URL   where index.json and the artifacts are (default https://packages.svc.dev)
#   SVC_PART_ID, SVC_API_KEY_ID, SVC_API_KEY   the machine's cloud credentials (all three, or none)
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

# All in one function, called on the last line: when piped into sh, nothing runs until the
# whole script has arrived, and nothing run reads the rest of the script from stdin.
main() {
  root="${SVC_ROOT:-}"
  package_url="${SVC_PACKAGE_URL:-https://packages.svc.dev}"
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

  if [ "$credentials" = yes ]; then
    mkdir -p "$(dirname "$config_file")"
    if [ -f "$config_file" ]; then
      cp -p "$config_file" "$config_file.before-install"
      say "kept the previous $config_file as $config_file.before-install"
    fi
    # The machine's cloud credentials (cloud.id, cloud.secret), and the same key accepted from
    # local clients (auth handler api-key: key id -> key). Written by node: the values are escaped.
    (umask 077 && node -e '
      const [file] = process.argv.slice(1);
      const { SVC_PART_ID: part, SVC_API_KEY_ID: keyId, SVC_API_KEY: key } = process.env;
      const config = { cloud: { id: part, secret: key }, auth: { handlers: [{ type: "api-key", config: { [keyId]: key } }] } };
      const fs = require("fs");
      fs.writeFileSync(file + ".new", JSON.stringify(config, null, 2) + "\n", { mode: 0o600 });
      fs.chmodSync(file + ".new", 0o600);
      fs.renameSync(file + ".new", file);
    ' "$config_file") || fail "cannot write $config_file"
    say "wrote the machine credentials to $config_file"
  fi

  # The agent's own name for the root prefix (empty means /).
  SVC_AGENT_ROOT="${root:-/}" "$agent_dir/current/svc-agent" --install || fail "svc-agent --install failed"
  say "svc-agent $version is installed; its logs: journalctl -u svc-agent"
}

main "$@" </dev/null

// The self-update fallback, a POSIX sh script run by the unit before every start of svc-agent
// (ExecStartPre). Before exiting to let systemd start a new version of itself, the agent writes
// /var/lib/svc-agent/agent-update.json:
//   {"version":"<new>","previous":"<old>","attempts":0}
// Each start of the new version adds one to `attempts`; the new agent removes the file once it has
// run healthy. When `attempts` goes above 3, the new version failed to come up three times: the
// script points /opt/svc/agent/current back at versions/<previous> (a temporary symlink renamed
// over the old one: atomic) and adds "rolled_back": true, which the old agent, started again,
// reads to mark the new version bad. It needs only sh, sed, ln and mv, since the agent itself may
// be what is broken. SVC_ROOT prefixes every path (for tests).

export const FALLBACK_MAX_ATTEMPTS = 3;

export const FALLBACK_SCRIPT = `#!/bin/sh
# svc-agent self-update fallback; written by \`svc-agent --install\`.
root="\${SVC_ROOT:-}"
marker="$root/var/lib/svc-agent/agent-update.json"
agent_dir="$root/opt/svc/agent"
max_attempts=${FALLBACK_MAX_ATTEMPTS}

[ -f "$marker" ] || exit 0
content=$(tr -d '\\n' < "$marker")

# The value of one key of the marker (strings without quotes, numbers, true/false).
field() {
  printf '%s' "$content" | sed -n "s/.*\\"$1\\"[[:space:]]*:[[:space:]]*\\"\\{0,1\\}\\([^\\",}]*\\).*/\\1/p"
}

case "$(field rolled_back)" in true*) exit 0 ;; esac
version=$(field version)
previous=$(field previous)
attempts=$(field attempts | tr -dc '0-9')
attempts=$(( \${attempts:-0} + 1 ))

rolled_back=false
if [ "$attempts" -gt "$max_attempts" ]; then
  if [ -n "$previous" ] && [ -x "$agent_dir/versions/$previous/svc-agent" ]; then
    link="$agent_dir/current.fallback-$$"
    rm -f "$link"
    if ln -s "versions/$previous" "$link" && mv -T "$link" "$agent_dir/current"; then
      rolled_back=true
      echo "svc-agent fallback: version $version did not come up in $max_attempts starts; back to $previous" >&2
    else
      rm -f "$link"
      echo "svc-agent fallback: could not point current back at $previous" >&2
    fi
  else
    echo "svc-agent fallback: version $version did not come up, and there is no version $previous to go back to" >&2
  fi
fi

temporary="$marker.new-$$"
if [ "$rolled_back" = true ]; then
  printf '{"version":"%s","previous":"%s","attempts":%s,"rolled_back":true}\\n' "$version" "$previous" "$attempts" > "$temporary"
else
  printf '{"version":"%s","previous":"%s","attempts":%s}\\n' "$version" "$previous" "$attempts" > "$temporary"
fi
mv -f "$temporary" "$marker"
exit 0
`;

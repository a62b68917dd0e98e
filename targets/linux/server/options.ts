// The command-line options of svc-server: the contract's table plus -validate and -help.
import type { FlagSpec } from "../cli/flags.js";

export const serverFlags: readonly FlagSpec[] = [
  { name: "allow-insecure-creds", kind: "bool", help: "Allow credentials to be sent over plaintext" },
  { name: "config", kind: "string", arg: "<filename>", help: "Machine configuration file, or a credentials file (a cloud section) to run the configuration from svc-cloud (default: the built-in simulated machine)" },
  { name: "cpuprofile", kind: "string", arg: "<file>", help: "Write a CPU profile to a file" },
  { name: "debug", kind: "bool", help: "Enable debug-level logs" },
  { name: "disable-mdns", kind: "bool", help: "Disable server discovery through multicast DNS" },
  { name: "dump-resources", kind: "string", arg: "<filepath>", help: "Dump all resource registrations as JSON to that path and exit" },
  { name: "ftdc", kind: "bool", default: true, help: "Enable fulltime data capture for diagnostics" },
  { name: "ftdc-dir", kind: "string", arg: "<dir>", help: "Where -ftdc writes its files (default: ~/.svc/diagnostics.data/<part id, or local>)" },
  { name: "log-file", kind: "string", arg: "<filename>", help: "Write logs to a file with log rotation" },
  { name: "network-check", kind: "bool", help: "Only run normal network checks" },
  { name: "no-tls", kind: "bool", help: "Start an insecure HTTP server without TLS even if certificates exist" },
  { name: "output-telemetry", kind: "bool", help: "Print telemetry data (metrics and spans)" },
  { name: "reveal-sensitive-config-diffs", kind: "bool", help: "Show secrets in config diffs" },
  { name: "shareddir", kind: "string", arg: "<directory-name>", help: "Location of static web assets" },
  { name: "untrusted-env", kind: "bool", help: "Refuse configuration that would start processes or a shell" },
  { name: "validate", kind: "bool", help: "With -config: print each problem as `path: message`; exit 1 on errors, 0 otherwise" },
  { name: "version", kind: "bool", help: "Print version" },
  { name: "webprofile", kind: "bool", help: "Include profiler in the HTTP server" },
  { name: "webrtc", kind: "bool", default: true, help: "Force WebRTC connections instead of direct ones" },
  { name: "aix-install", kind: "bool", help: "Install this executable as a system service" },
  { name: "help", kind: "bool", aliases: ["h"], help: "Show this help" },
];

export const serverUsage = "Usage: svc-server [options]\n       svc-server ftdc FILE... [-charts DIR]\n\nRuns a machine from its JSON configuration and serves its API; `ftdc` prints FTDC files as CSV.";

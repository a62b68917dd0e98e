// The command-line options and environment variables of svc-agent.
import type { FlagSpec } from "../cli/flags.js";

export const agentFlags: readonly FlagSpec[] = [
  { name: "config", kind: "string", aliases: ["c"], arg: "<file>", default: "/etc/svc.json", help: "Path to the machine credentials file" },
  { name: "defaults", kind: "string", arg: "<file>", default: "/etc/svc-defaults.json", help: "Path to the manufacturer defaults file" },
  { name: "debug", kind: "bool", aliases: ["d"], env: "SVC_AGENT_DEBUG", help: "Debug logging for the agent only" },
  { name: "wait", kind: "bool", aliases: ["w"], env: "SVC_AGENT_WAIT_FOR_UPDATE", help: "Update versions before starting svc-server" },
  { name: "help", kind: "bool", aliases: ["h"], help: "Show this help" },
  { name: "install", kind: "bool", help: "Install the systemd service" },
  { name: "dev-mode", kind: "bool", env: "SVC_AGENT_DEVMODE", help: "Allow running as non-root and not as a service" },
  { name: "version", kind: "bool", help: "Print version" },
];

export const agentUsage = [
  "Usage: svc-agent [options]",
  "",
  "Installs, runs, watches and updates svc-server, and manages the device's network and settings.",
  "Environment:",
  "  SVC_AGENT_FAST_START=1       start svc-server at once, without waiting for an update check",
  "  SVC_AGENT_RELEASE_INDEX=URL  the release index (http, https or file)",
  "  SVC_AGENT_ROOT=DIR           root prefix of every file the agent reads or writes (default /)",
  "  SVC_AGENT_TIME_SCALE=F       run the agent's own durations F times as long (tests)",
].join("\n");

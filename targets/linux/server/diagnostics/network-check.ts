// -network-check: the checks a person runs when a machine cannot reach the cloud, in order:
// an interface is up with an address, the cloud's host name resolves, and its port accepts a TCP
// connection. One line per check with ok, failed or skipped and why; the exit code is 1 when any
// check failed. Without cloud credentials there is nothing to reach, so the last two are skipped.
import { lookup } from "node:dns/promises";
import { connect } from "node:net";
import { networkInterfaces, type NetworkInterfaceInfo } from "node:os";
import { errorMessage, type CloudConfig } from "../../../../core/index.js";

export type CheckOutcome = "ok" | "failed" | "skipped";

export interface NetworkCheck {
  name: "interfaces" | "dns" | "tcp";
  outcome: CheckOutcome;
  detail: string;
}

export interface NetworkCheckResult {
  checks: NetworkCheck[];
  exitCode: 0 | 1;
}

export interface NetworkCheckOptions {
  /** The machine's `cloud` section; undefined when it has none. */
  cloud?: CloudConfig;
  /** The address used when `cloud.app_address` is "". */
  defaultAppAddress?: string;
  /** Default 5000 for each of the DNS and TCP checks. */
  timeoutMs?: number;
  /** Default os.networkInterfaces. */
  interfaces?: () => NodeJS.Dict<NetworkInterfaceInfo[]>;
}

export async function runNetworkChecks(options: NetworkCheckOptions): Promise<NetworkCheckResult> {
  const timeoutMs = options.timeoutMs ?? 5000;
  const checks: NetworkCheck[] = [checkInterfaces((options.interfaces ?? networkInterfaces)())];
  const target = options.cloud ? parseAppAddress(options.cloud.app_address || options.defaultAppAddress || "") : undefined;
  if (!options.cloud) {
    const why = "no cloud configured (the configuration has no cloud section)";
    checks.push({ name: "dns", outcome: "skipped", detail: why }, { name: "tcp", outcome: "skipped", detail: why });
  } else if (typeof target === "string") {
    checks.push({ name: "dns", outcome: "failed", detail: target }, { name: "tcp", outcome: "skipped", detail: "no address to reach" });
  } else if (target) {
    const dns = await checkDns(target.host, timeoutMs);
    checks.push(dns);
    checks.push(
      dns.outcome === "ok"
        ? await checkTcp(target.host, target.port, timeoutMs)
        : { name: "tcp", outcome: "skipped", detail: `${target.host} did not resolve` },
    );
  }
  return { checks, exitCode: checks.some((check) => check.outcome === "failed") ? 1 : 0 };
}

/** The lines -network-check prints: `ok      dns: ...`. */
export function formatNetworkChecks(result: NetworkCheckResult): string[] {
  return result.checks.map((check) => `${check.outcome.padEnd(7)} ${check.name}: ${check.detail}`);
}

function checkInterfaces(all: NodeJS.Dict<NetworkInterfaceInfo[]>): NetworkCheck {
  const up: string[] = [];
  for (const [name, addresses] of Object.entries(all)) {
    const external = (addresses ?? []).filter((address) => !address.internal);
    if (external.length > 0) up.push(`${name} ${external.map((a) => a.cidr ?? a.address).join(" ")}`);
  }
  return up.length > 0
    ? { name: "interfaces", outcome: "ok", detail: up.join("; ") }
    : { name: "interfaces", outcome: "failed", detail: "no interface is up with an address other than loopback" };
}

/** host and port of an app address ("https://app.example.com", "app.example.com:8443"); a string says what is wrong. */
export function parseAppAddress(address: string): { host: string; port: number } | string {
  if (address.trim() === "") return "cloud.app_address is empty and no default cloud address is known";
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(address) ? address : `https://${address}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    return `cloud.app_address ${JSON.stringify(address)} is not an address`;
  }
  const port = url.port !== "" ? Number(url.port) : url.protocol === "http:" ? 80 : 443;
  const host = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
  return { host, port };
}

async function checkDns(host: string, timeoutMs: number): Promise<NetworkCheck> {
  try {
    const addresses = await withTimeout(lookup(host, { all: true }), timeoutMs, `no answer within ${timeoutMs} ms`);
    return { name: "dns", outcome: "ok", detail: `${host} resolves to ${addresses.map((a) => a.address).join(", ")}` };
  } catch (error) {
    return { name: "dns", outcome: "failed", detail: `${host}: ${describe(error)}` };
  }
}

function checkTcp(host: string, port: number, timeoutMs: number): Promise<NetworkCheck> {
  const where = `${host.includes(":") ? `[${host}]` : host}:${port}`;
  return new Promise((resolve) => {
    const started = performance.now();
    const socket = connect({ host, port, autoSelectFamily: true, timeout: timeoutMs });
    const finish = (check: NetworkCheck) => {
      socket.destroy();
      resolve(check);
    };
    socket.once("connect", () => {
      const ms = Math.round(performance.now() - started);
      finish({ name: "tcp", outcome: "ok", detail: `connected to ${where} (${socket.remoteAddress}) in ${ms} ms` });
    });
    socket.once("timeout", () => finish({ name: "tcp", outcome: "failed", detail: `${where}: no answer within ${timeoutMs} ms` }));
    socket.once("error", (error) => finish({ name: "tcp", outcome: "failed", detail: `${where}: ${describe(error)}` }));
  });
}

const errorMeanings: Record<string, string> = {
  ENOTFOUND: "the name does not resolve (ENOTFOUND)",
  EAI_AGAIN: "the name server did not answer (EAI_AGAIN)",
  ECONNREFUSED: "connection refused (ECONNREFUSED)",
  EHOSTUNREACH: "host unreachable (EHOSTUNREACH)",
  ENETUNREACH: "network unreachable (ENETUNREACH)",
  ETIMEDOUT: "timed out (ETIMEDOUT)",
  ECONNRESET: "connection reset (ECONNRESET)",
};

function describe(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  return (code && errorMeanings[code]) ?? (errorMessage(error));
}

function withTimeout<T>(promise: Promise<T>, ms: number, why: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(why)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

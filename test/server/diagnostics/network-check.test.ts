// -network-check on this machine's loopback: interfaces from the system (or given), DNS of the
// cloud host ("localhost"), a TCP connection to a listener the test starts, a refused port, and
// the cloud checks skipped without a cloud.
import net from "node:net";
import type { NetworkInterfaceInfo } from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CloudConfig } from "../../../core/index.js";
import { formatNetworkChecks, parseAppAddress, runNetworkChecks } from "../../../targets/linux/server/diagnostics/index.js";

const loopbackOnly = () => ({
  lo: [{ address: "127.0.0.1", netmask: "255.0.0.0", family: "IPv4", mac: "00:00:00:00:00:00", internal: true, cidr: "127.0.0.1/8" }] as NetworkInterfaceInfo[],
});
const withEthernet = () => ({
  ...loopbackOnly(),
  eth0: [{ address: "192.0.2.20", netmask: "255.255.255.0", family: "IPv4", mac: "02:00:00:00:00:01", internal: false, cidr: "192.0.2.20/24" }] as NetworkInterfaceInfo[],
});
const cloud = (app_address: string): CloudConfig => ({ id: "part", secret: "s", app_address, refresh_interval: "10s", refresh_interval_ms: 10_000 });

let listener: net.Server;
let port: number;
let refusedPort: number;

beforeAll(async () => {
  listener = net.createServer((socket) => socket.end());
  await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
  port = (listener.address() as net.AddressInfo).port;
  const closed = net.createServer();
  await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
  refusedPort = (closed.address() as net.AddressInfo).port;
  await new Promise((resolve) => closed.close(resolve));
});
afterAll(() => new Promise((resolve) => listener.close(resolve)));

describe("-network-check", () => {
  it("all ok: an interface with an address, localhost resolves, the port accepts", async () => {
    const result = await runNetworkChecks({ cloud: cloud(`http://localhost:${port}`), interfaces: withEthernet });
    expect(result.exitCode).toBe(0);
    expect(result.checks.map((c) => [c.name, c.outcome])).toEqual([["interfaces", "ok"], ["dns", "ok"], ["tcp", "ok"]]);
    const lines = formatNetworkChecks(result);
    expect(lines[0]).toBe("ok      interfaces: eth0 192.0.2.20/24");
    expect(lines[1]).toMatch(/^ok      dns: localhost resolves to .*(127\.0\.0\.1|::1)/);
    expect(lines[2]).toMatch(new RegExp(`^ok      tcp: connected to localhost:${port} \\(127\\.0\\.0\\.1\\) in \\d+ ms$`));
  });

  it("a refused port fails the TCP check and the run", async () => {
    const result = await runNetworkChecks({ cloud: cloud(`127.0.0.1:${refusedPort}`), interfaces: withEthernet });
    expect(result.exitCode).toBe(1);
    expect(result.checks[2]).toEqual({
      name: "tcp",
      outcome: "failed",
      detail: `127.0.0.1:${refusedPort}: connection refused (ECONNREFUSED)`,
    });
  });

  it("only loopback interfaces fail the interface check", async () => {
    const result = await runNetworkChecks({ cloud: cloud(`localhost:${port}`), interfaces: loopbackOnly });
    expect(result.exitCode).toBe(1);
    expect(formatNetworkChecks(result)[0]).toBe("failed  interfaces: no interface is up with an address other than loopback");
  });

  it("without a cloud, the DNS and TCP checks are skipped with the reason", async () => {
    const result = await runNetworkChecks({ interfaces: withEthernet });
    expect(result.exitCode).toBe(0);
    expect(formatNetworkChecks(result).slice(1)).toEqual([
      "skipped dns: no cloud configured (the configuration has no cloud section)",
      "skipped tcp: no cloud configured (the configuration has no cloud section)",
    ]);
  });

  it("an empty app address uses the default one, and without one says so", async () => {
    const withDefault = await runNetworkChecks({ cloud: cloud(""), defaultAppAddress: `localhost:${port}`, interfaces: withEthernet });
    expect(withDefault.checks.map((c) => c.outcome)).toEqual(["ok", "ok", "ok"]);
    const without = await runNetworkChecks({ cloud: cloud(""), interfaces: withEthernet });
    expect(without.exitCode).toBe(1);
    expect(without.checks[1]).toMatchObject({ outcome: "failed", detail: "cloud.app_address is empty and no default cloud address is known" });
  });

  it("reads this machine's own interfaces by default", async () => {
    const result = await runNetworkChecks({});
    expect(result.checks[0]!.name).toBe("interfaces");
    expect(["ok", "failed"]).toContain(result.checks[0]!.outcome);
  });

  it("parses app addresses with and without scheme and port", () => {
    expect(parseAppAddress("https://app.example.com")).toEqual({ host: "app.example.com", port: 443 });
    expect(parseAppAddress("http://app.example.com")).toEqual({ host: "app.example.com", port: 80 });
    expect(parseAppAddress("app.example.com:8443")).toEqual({ host: "app.example.com", port: 8443 });
    expect(parseAppAddress("[::1]:8080")).toEqual({ host: "::1", port: 8080 });
    expect(parseAppAddress("http://bad host")).toBe('cloud.app_address "http://bad host" is not an address');
  });
});

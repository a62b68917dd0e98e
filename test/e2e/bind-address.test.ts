// Where the real svc-server says it listens is where it listens: every interface for ":port"
// (IPv4 and IPv6), one family for "0.0.0.0:port", one address for a host.
import { describe, expect, it } from "vitest";
import { logLines } from "../helpers/log-lines.js";
import { startSvcServer } from "../helpers/svc-server-process.js";

async function served(bindAddress: string, loopbacks = ["127.0.0.1"]): Promise<{ said: string; listening: unknown; port: number }> {
  const server = await startSvcServer({ network: { bind_address: bindAddress } });
  try {
    const said = /^svc-server: serving .*$/m.exec(server.stderr())![0];
    const port = Number(new URL(server.url).port);
    const logged = logLines(server.stdout()).find((l) => l.msg === "serving");
    for (const host of loopbacks) expect((await fetch(`http://${host}:${port}/restart_status`)).status).toBe(200);
    return { said, listening: logged?.listening, port };
  } finally {
    await server.stop();
  }
}

describe("svc-server says where it listens", () => {
  it('names both families of every interface for ":port", and is reached over IPv4 and IPv6 loopback', async () => {
    const { said, listening, port } = await served(":0", ["127.0.0.1", "[::1]"]);
    expect(said).toBe(`svc-server: serving http://0.0.0.0:${port} and http://[::]:${port} (every interface)`);
    expect(listening).toEqual([`http://0.0.0.0:${port}`, `http://[::]:${port}`]);
  });

  it('names IPv4 alone for "0.0.0.0:port", and the one address for a host', async () => {
    const all4 = await served("0.0.0.0:0");
    expect(all4.said).toBe(`svc-server: serving http://0.0.0.0:${all4.port} (every IPv4 interface)`);
    expect(all4.listening).toEqual([`http://0.0.0.0:${all4.port}`]);
    const loopback = await served("localhost:0");
    expect(loopback.said).toBe(`svc-server: serving http://127.0.0.1:${loopback.port}`);
    expect(loopback.listening).toEqual([`http://127.0.0.1:${loopback.port}`]);
  });
});

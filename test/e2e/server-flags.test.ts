// The diagnostic and policy options, through the real svc-server process.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { eventually } from "../helpers/eventually.js";
import { logLines } from "../helpers/log-lines.js";
import { startSvcServer } from "../helpers/svc-server-process.js";

const sensor = { name: "temp", api: "rdk:component:sensor", model: "fake" };
const dir = mkdtempSync(join(tmpdir(), "svc-flags-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("svc-server options, end to end", () => {
  it("-shareddir serves static files on the API port, and nothing outside the folder", async () => {
    const shared = join(dir, "www");
    mkdirSync(shared, { recursive: true });
    writeFileSync(join(shared, "index.html"), "<h1>svc</h1>");
    const server = await startSvcServer({ components: [sensor] }, { args: ["-shareddir", shared] });
    try {
      const page = await fetch(`${server.url}/`);
      expect(page.status).toBe(200);
      expect(page.headers.get("content-type")).toContain("text/html");
      expect(await page.text()).toBe("<h1>svc</h1>");
      expect((await fetch(`${server.url}/..%2f..%2fetc%2fpasswd`)).status).toBe(404);
    } finally {
      await server.stop();
    }
  });

  it("-output-telemetry prints call metrics and a span for the configuration applied", async () => {
    const server = await startSvcServer({ components: [sensor] }, { args: ["-output-telemetry"] });
    await fetch(`${server.url}/viam.component.sensor.v1.SensorService/GetReadings`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "temp" }),
    });
    expect(await server.stop()).toBe(0);
    const lines = server.stdout().split("\n").filter((l) => l.startsWith("{")).map((l) => JSON.parse(l) as Record<string, unknown>);
    const metrics = lines.filter((l) => l.type === "metrics").pop() as { calls: Record<string, { count: number }> } | undefined;
    expect(metrics?.calls["/viam.component.sensor.v1.SensorService/GetReadings"]?.count).toBe(1);
    expect(lines.some((l) => l.type === "span" && l.name === "reconfigure")).toBe(true);
  });

  it("-cpuprofile writes a CPU profile of the run at exit", async () => {
    const file = join(dir, "run.cpuprofile");
    const server = await startSvcServer({ components: [sensor] }, { args: ["-cpuprofile", file] });
    expect(await server.stop()).toBe(0);
    const profile = JSON.parse(readFileSync(file, "utf8")) as { nodes: unknown[] };
    expect(profile.nodes.length).toBeGreaterThan(0);
  });

  it("-untrusted-env refuses modules and runs the rest, saying which entry and why", async () => {
    const server = await startSvcServer(
      { components: [sensor], modules: [{ type: "local", name: "m", executable_path: "/bin/true" }] },
      { args: ["-untrusted-env"] },
    );
    try {
      const refused = await eventually(
        () => logLines(server.stdout()).find((l) => l.level === "error" && l.path === "modules[0]"),
        "the refusal of modules[0]",
      );
      expect(refused.msg).toMatch(/\/bin\/true/);
      await eventually(() => logLines(server.stdout()).find((l) => l.msg === "configuration loaded"), "the configuration");
    } finally {
      await server.stop();
    }
  });

  it("-webprofile answers a heap snapshot and the memory after a full collection to a loopback client", async () => {
    const server = await startSvcServer({ components: [sensor] }, { args: ["-webprofile"] });
    try {
      const heap = await fetch(`${server.url}/debug/heap`);
      expect(heap.status).toBe(200);
      expect(JSON.parse(await heap.text())).toHaveProperty("snapshot");
      const memory = await fetch(`${server.url}/debug/memory`);
      expect(memory.status).toBe(200);
      const figures = (await memory.json()) as { heapUsed: number; heapTotal: number; beforeGc: { heapUsed: number } };
      expect(figures.heapUsed).toBeGreaterThan(0);
      expect(figures.heapUsed).toBeLessThanOrEqual(figures.heapTotal);
      expect(figures.beforeGc.heapUsed).toBeGreaterThan(0);
    } finally {
      await server.stop();
    }
  });
});

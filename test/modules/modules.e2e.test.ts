// Modules as a user runs them: the example counter module started by the real svc-server, its
// resources called by the official SDK, changed, removed, and depending on built-in resources
// (and built-in ones on them).
import * as VIAM from "@viamrobotics/sdk";
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { hostPlatform } from "../../targets/linux/modules/index.js";
import { afterEach, describe, expect, it } from "vitest";
import { eventually } from "../helpers/eventually.js";
import { statusOf } from "../helpers/machine-status.js";
import { exampleCounter } from "../helpers/module-fixtures.js";
import { dialSdk, fullName } from "../helpers/sdk-robot.js";
import { startSvcServer, type SvcServerProcess } from "../helpers/svc-server-process.js";

const sensor = (name: string, model: string, extra: Record<string, unknown> = {}) => ({ name, api: "rdk:component:sensor", model, ...extra });
const counterModule = (env: Record<string, string> = {}) => ({ type: "local", name: "counter", executable_path: exampleCounter, env });
const SENSOR = "rdk:component:sensor";

async function stateOf(server: SvcServerProcess, name: string, state: string, errorPart = ""): Promise<true | undefined> {
  const s = await statusOf(server.url, name);
  return s?.state === state && s.error.includes(errorPart) ? true : undefined;
}

describe("modules in a running machine", () => {
  let server: SvcServerProcess | undefined;
  let robot: VIAM.RobotClient | undefined;
  afterEach(async () => {
    await robot?.disconnect();
    robot = undefined;
    await server?.stop();
    server = undefined;
  });

  it("serves a modular sensor to the SDK, with dependencies on built-in resources and from them", async () => {
    server = await startSvcServer({
      modules: [counterModule()],
      components: [
        sensor("temp", "fake"),
        sensor("c1", "acme:demo:counter", { attributes: { step: 2, source: "temp" } }),
        sensor("after", "fake", { depends_on: ["c1"] }),
      ],
    });
    await eventually(() => stateOf(server!, `${SENSOR}/after`, "READY"), "the built-in sensor depending on the modular one");
    expect(await statusOf(server.url, "rdk:module:process/counter")).toEqual({ state: "READY", error: "" });

    robot = await dialSdk(server.sdkHost);
    const names = (await robot.resourceNames()).map(fullName);
    expect(names).toEqual(expect.arrayContaining([`${SENSOR}/c1`, `${SENSOR}/temp`, `${SENSOR}/after`]));
    const c1 = new VIAM.SensorClient(robot, "c1");
    const temp = new VIAM.SensorClient(robot, "temp");
    expect(await c1.getReadings()).toEqual({ count: 2, source: await temp.getReadings() });
    expect((await c1.getReadings()).count).toBe(4);
    expect(await c1.doCommand(VIAM.Struct.fromJson({ reset: true }))).toEqual({ count: 0 });
  });

  it("takes changed attributes in place, and closes a removed resource while its dependents wait", async () => {
    const config = (step: number, withC1 = true) => ({
      modules: [counterModule()],
      components: [...(withC1 ? [sensor("c1", "acme:demo:counter", { attributes: { step } })] : []), sensor("after", "fake", { depends_on: ["c1"] })],
    });
    server = await startSvcServer(config(1));
    await eventually(() => stateOf(server!, `${SENSOR}/after`, "READY"), "the machine");
    robot = await dialSdk(server.sdkHost);
    const c1 = new VIAM.SensorClient(robot, "c1");
    expect((await c1.getReadings()).count).toBe(1);

    server.writeConfig(config(10));
    // The same instance in the module keeps its count and now steps by 10.
    await eventually(async () => ((await c1.getReadings().catch(() => ({ count: -1 }))).count as number) >= 21 || undefined, "the new step");
    expect(server.stdout()).not.toContain("counter closed");

    server.writeConfig(config(10, false));
    await eventually(() => stateOf(server!, `${SENSOR}/after`, "UNCONFIGURED", "c1"), "the dependent waiting for the removed sensor");
    expect(await statusOf(server.url, `${SENSOR}/c1`)).toBeUndefined();
    await eventually(() => (server!.stdout().includes("counter closed") ? true : undefined), "RemoveResource in the module");
  });

  it("makes a module's models available when it is added, and names the module when it is removed", async () => {
    const components = [sensor("c1", "acme:demo:counter"), sensor("after", "fake", { depends_on: ["c1"] })];
    server = await startSvcServer({ components });
    await eventually(() => stateOf(server!, `${SENSOR}/c1`, "UNCONFIGURED", "no model acme:demo:counter"), "c1 waiting for its model");

    server.writeConfig({ modules: [counterModule()], components });
    await eventually(() => stateOf(server!, `${SENSOR}/after`, "READY"), "the machine with the module");

    server.writeConfig({ components });
    await eventually(() => stateOf(server!, `${SENSOR}/c1`, "UNCONFIGURED", 'module "counter" was stopped'), "c1 naming its module");
    const after = await statusOf(server.url, `${SENSOR}/after`);
    expect(after?.error).toContain('module "counter"');
    await eventually(async () => ((await statusOf(server!.url, "rdk:module:process/counter")) === undefined ? true : undefined), "the module gone from the status");
  });

  it("restarts the module and rebuilds its resources when its env changes", async () => {
    const config = (mark: string) => ({ modules: [counterModule({ MARK: mark })], components: [sensor("c1", "acme:demo:counter")] });
    server = await startSvcServer(config("a"));
    await eventually(() => stateOf(server!, `${SENSOR}/c1`, "READY"), "c1");
    const pids = () => Array.from(server!.stdout().matchAll(/"pid":(\d+)[^\n]*module \\"counter\\" started/g), (m) => Number(m[1]));
    expect(pids()).toHaveLength(1);
    server.writeConfig(config("b"));
    await eventually(() => (pids().length === 2 ? true : undefined), "a second module process");
    await eventually(() => stateOf(server!, `${SENSOR}/c1`, "READY"), "c1 rebuilt");
    const [first] = pids();
    expect(() => process.kill(first!, 0)).toThrow();
  });

  it("runs a registry module from its downloaded package, waiting with a clear error while the download fails", async () => {
    const dir = mkdtempSync(join(tmpdir(), "svc-registry-"));
    try {
      const registry = join(dir, "registry");
      const pkg = join(dir, "pkg");
      mkdirSync(join(pkg, "bin"), { recursive: true });
      copyFileSync(exampleCounter, join(pkg, "bin/counter.mjs"));
      mkdirSync(join(registry, "acme/counter"), { recursive: true });
      const archive = join(registry, "acme/counter/counter.tar.gz");
      execFileSync("tar", ["-czf", archive, "-C", pkg, "bin"]);
      const sha256 = createHash("sha256").update(readFileSync(archive)).digest("hex");

      server = await startSvcServer(
        { modules: [{ type: "registry", name: "counter", module_id: "acme:counter", version: "1.0.0" }], components: [sensor("c1", "acme:demo:counter")] },
        { env: { SVC_MODULE_REGISTRY: pathToFileURL(registry).href, SVC_MODULE_CACHE: join(dir, "cache") } },
      );
      const waiting = await eventually(async () => {
        const s = await statusOf(server!.url, "rdk:module:process/counter");
        return s?.state === "UNHEALTHY" ? s.error : undefined;
      }, "the module waiting for its package");
      expect(waiting).toContain("cannot read the manifest of acme:counter 1.0.0");

      const manifest = { version: "1.0.0", platforms: { [hostPlatform()]: { url: "counter.tar.gz", sha256, entrypoint: "bin/counter.mjs" } } };
      writeFileSync(join(registry, "acme/counter/1.0.0.json"), JSON.stringify(manifest));
      await eventually(() => stateOf(server!, `${SENSOR}/c1`, "READY"), "the resource once the package is there");
    } finally {
      await server?.stop();
      server = undefined;
      rmSync(dir, { recursive: true, force: true });
    }
  });
  it("runs a module written as a plain .mjs file, with neither a shebang nor the exec bit, on its own Node.js", async () => {
    const dir = mkdtempSync(join(tmpdir(), "svc-plain-module-"));
    try {
      const plain = join(dir, "counter.mjs");
      writeFileSync(plain, readFileSync(exampleCounter, "utf8").replace(/^#!.*\n/, ""), { mode: 0o644 });
      server = await startSvcServer({
        modules: [{ type: "local", name: "counter", executable_path: plain }],
        components: [sensor("c1", "acme:demo:counter")],
      });
      await eventually(() => stateOf(server!, `${SENSOR}/c1`, "READY"), "the plain module's sensor");
      robot = await dialSdk(server.sdkHost);
      expect(await new VIAM.SensorClient(robot, "c1").getReadings()).toEqual({ count: 1 });
      expect(server.stderr() + server.stdout()).not.toContain("EACCES");
    } finally {
      await robot?.disconnect();
      robot = undefined;
      await server?.stop();
      server = undefined;
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

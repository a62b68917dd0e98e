// The two configurations of docs/configuration.md's "Remotes", run as written on two real
// svc-server processes (only the addresses changed to free loopback ports): the part arm-pi with
// an API key, the main part joining it with that key and a prefix, and a sensor of its own
// depending on the remote's. From there, on the main part: the remote's names without a prefix
// colliding with its own (reported with the fix, its own keeping the name), a wrong key (a clear
// status, the main part serving on), a broken remote entry refused whole (the machine as it was),
// and the right key again.
import * as VIAM from "@viamrobotics/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../helpers/eventually.js";
import { guideBlocks } from "../helpers/guide.js";
import { dialSdk } from "../helpers/sdk-robot.js";
import { startSvcServer, type SvcServerProcess } from "../helpers/svc-server-process.js";
import { nameHere, robotClient, startPart, statuses, when, type Part } from "./parts.js";

const sensor = "rdk:component:sensor";
const blocks = guideBlocks("docs/configuration.md", "Remotes").filter((b) => b.lang === "json");
const armPiConfig = JSON.parse(blocks[0]!.text) as Record<string, unknown>;
const mainWritten = JSON.parse(blocks[1]!.text) as { remotes: Array<Record<string, unknown>>; components: unknown[] };

let armPi: Part;
let main: SvcServerProcess;
let robot: VIAM.RobotClient;
let mainConfig: typeof mainWritten;

const withRemote = (changes: Record<string, unknown>, components: unknown[] = mainConfig.components) => ({
  ...mainConfig,
  remotes: [{ ...mainConfig.remotes[0], ...changes }],
  components,
});
const readings = (name: string) => new VIAM.SensorClient(robot, name).getReadings();
const ownTemp = { name: "temp", api: sensor, model: "fake", attributes: { readings: { celsius: 19 } } };

beforeAll(async () => {
  expect(blocks).toHaveLength(2);
  armPi = await startPart(armPiConfig);
  // A port of its own instead of 8080; the rest as written.
  mainConfig = { ...mainWritten, network: {}, remotes: [{ ...mainWritten.remotes[0], address: `localhost:${armPi.port}` }] } as typeof mainWritten;
  main = await startSvcServer(mainConfig);
  await eventually(() => when(main.url, `${sensor}/arm-watch`, "READY"), "the main part's sensor depending on arm-pi's");
  robot = await dialSdk(main.sdkHost);
}, 60_000);

afterAll(async () => {
  await robot?.disconnect();
  await main?.stop();
  await armPi?.stop();
});

describe("the Remotes example of docs/configuration.md", () => {
  it("joins arm-pi with its API key, its resources prefixed and callable through the main part", async () => {
    const { resources } = await robotClient(main.url).resourceNames({});
    expect(resources.map(nameHere).sort()).toEqual(["rdk:component:motor/arm-pi:arm-elbow", `${sensor}/arm-pi:arm-temp`, `${sensor}/arm-watch`]);
    expect(resources.find((r) => r.name === "arm-temp")).toMatchObject({ remotePath: ["arm-pi"] });
    expect(await readings("arm-temp")).toEqual({ celsius: 41.5 });
    const elbow = new VIAM.MotorClient(robot, "arm-elbow");
    await elbow.setPower(0.3);
    expect(await elbow.isPowered()).toEqual([true, 0.3]);
    await elbow.stop();
    expect((await statuses(main.url)).get("rdk:remote:/arm-pi")).toEqual({ state: "READY", error: "" });
  });

  it("reports a remote's resource named as one of its own, with the fix, its own keeping the name", async () => {
    main.writeConfig(withRemote({ prefix: "" }, [ownTemp]));
    const collision = await eventually(() => when(main.url, "rdk:remote:/arm-pi", "READY", /temp/), "the collision in arm-pi's status");
    expect(collision.error).toBe(
      `${sensor}/arm-pi:temp has the name of the configured ${sensor}/temp, which keeps it; it is reached only as "arm-pi:temp": rename it, or give remote arm-pi a prefix`,
    );
    expect(await readings("temp")).toEqual({ celsius: 19 });
    expect(await readings("arm-pi:temp")).toEqual({ celsius: 41.5 });
    expect(main.stdout()).toContain("give remote arm-pi a prefix");
  });

  it("says the remote refused a wrong key, and serves its own resources all along", async () => {
    main.writeConfig(withRemote({ prefix: "", auth: { entity: "main-part", credentials: { type: "api-key", payload: "not-the-key-arm-pi-gave" } } }, [ownTemp]));
    const refused = await eventually(() => when(main.url, "rdk:remote:/arm-pi", "UNHEALTHY", /refused the credentials/), "arm-pi refusing the key");
    expect(refused.error).toMatch(/^unavailable: it refused the credentials: /);
    expect(refused.error).not.toContain("not-the-key");
    expect(await readings("temp")).toEqual({ celsius: 19 });
  });

  it("refuses a broken remote entry whole, the machine running as it was", async () => {
    const before = await statuses(main.url);
    main.writeConfig({ ...withRemote({}, [ownTemp]), remotes: [{ name: "arm-pi" }] });
    await eventually(() => (/configuration refused; the machine keeps running as it was/.test(main.stdout()) ? true : undefined), "the refusal in the log");
    expect(main.stdout()).toMatch(/remotes\[0\]\.address: is required/);
    expect([...(await statuses(main.url)).keys()].sort()).toEqual([...before.keys()].sort());
  });

  it("joins it again with the right key", async () => {
    main.writeConfig(mainConfig);
    await eventually(() => when(main.url, `${sensor}/arm-watch`, "READY"), "arm-watch READY again");
    expect(await readings("arm-temp")).toEqual({ celsius: 41.5 });
    expect((await statuses(main.url)).get("rdk:remote:/arm-pi")).toEqual({ state: "READY", error: "" });
  });
});

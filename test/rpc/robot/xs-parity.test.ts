// Operations and sessions behave the same in XS as on Node: one scenario (sessions, heartbeats,
// driven actuators, a lapse and its safety stop, resume, a long call listed and cancelled), run
// on both and compared byte for byte. core/rpc is bundled on its own (platform neutral, refusing
// any Node builtin) and loaded into a real XS worker.
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runSessionScenario, type SessionScenarioInput } from "./session-scenario.js";
import { ScenarioInXs } from "../../../tools/xs/scenario-in-xs.js";

const scenario: SessionScenarioInput = {
  heartbeatWindowMs: 1_000,
  steps: [
    { start: "a" },
    { start: "b" },
    { drive: "left", session: "a" },
    { drive: "right", session: "b" },
    { drive: "arm" },
    { longCall: "spin", session: "a" },
    { advance: 600 },
    { heartbeat: "b" },
    { list: true },
    { advance: 400 },
    { heartbeat: "a" },
    { drive: "left", session: "a" },
    { start: "c", resume: "b" },
    { advance: 600 },
    { heartbeat: "b" },
    { cancel: "spin" },
    { cancel: "spin" },
    { list: true },
    { advance: 1_000 },
    { start: "d", resume: "b" },
  ],
};


describe("operations and sessions in XS", () => {
  let xs: ScenarioInXs;
  beforeAll(async () => {
    xs = await ScenarioInXs.start(join(import.meta.dirname, "session-scenario.ts"));
  });
  afterAll(() => xs?.close());

  it("writes down the same lines as on Node", async () => {
    const node = await runSessionScenario(scenario);
    const reply = await xs.run("runSessionScenario", scenario);
    expect(reply).toBe(JSON.stringify(node));
    expect(node.lines).toMatchSnapshot();
  });
});

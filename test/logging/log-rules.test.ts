// Which level each logger gets: rule order, precedence, module levels, wildcards, bad patterns and
// live reconfiguration. Every case is a scenario that the XS comparison runs as well.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileLogPattern, createCollectingSink, createLogEngine, createManualClock } from "../../core/index.js";
import { runLogScenario } from "./log-scenario.js";
import { ruleScenarios as s } from "./scenarios.js";

const motorLeft = "rdk.resource_manager.rdk:component:motor/left";
const motorRight = "rdk.resource_manager.rdk:component:motor/right";
const boardB1 = "rdk.resource_manager.rdk:component:board/b1";

describe("log rules", () => {
  it("apply top to bottom, the last matching rule winning", () => {
    expect(runLogScenario(s.lastMatchWins).levels).toEqual([
      { [motorLeft]: "error", [boardB1]: "debug", "svc.networking": "debug", "svc.modmanager": "debug", other: "info" },
    ]);
  });

  it("give way to a resource's log_configuration, which its sub-loggers follow", () => {
    const out = runLogScenario(s.logConfigurationBeatsRules);
    expect(out.levels).toEqual([
      {
        [motorLeft]: "debug",
        [motorRight]: "error",
        [`${motorLeft} > encoder`]: "debug",
        [`${motorRight} > encoder`]: "error",
      },
    ]);
    expect(out.entries.map((e) => e.message)).toEqual(["left at debug", "right error"]);
  });

  it("come before global_log_configuration, whose entry naming a model outranks one naming only the API", () => {
    const out = runLogScenario(s.globalLevels);
    expect(out.levels).toEqual([
      {
        [motorLeft]: "debug",
        [motorRight]: "error",
        "rdk.resource_manager.rdk:component:motor/pwm": "warn",
        "rdk.resource_manager.rdk:component:motor/own": "error",
        [`${motorLeft} > encoder`]: "debug",
        [boardB1]: "info",
      },
    ]);
    expect(out.entries.map((e) => e.message)).toEqual(["left at debug from its kind"]);
    expect(out.issues).toEqual([
      [{ path: "global_log_configuration[2].level", message: 'must be one of "debug", "info", "warn", "error" (found "Verbose")', severity: "error" }],
    ]);
  });

  it("give way to debug mode, which also puts every module at debug", () => {
    const out = runLogScenario(s.debugBeatsEverything);
    expect(out.levels).toEqual([
      { [motorLeft]: "debug", "svc.networking": "debug", "stderr:arm-module": "debug" },
      { "arm-module": "debug", "cam-module": "debug", "not-configured": "debug" },
    ]);
    expect(out.entries.map((e) => e.message)).toEqual(["visible under debug"]);
  });

  it("give way to the -debug flag even when the configuration says debug false", () => {
    expect(runLogScenario(s.debugFlagBeatsConfiguration).levels).toEqual([{ "svc.networking": "debug" }, { m: "debug" }]);
  });

  it("raise a module without log_level to debug when the last rule matching its name is at debug", () => {
    expect(runLogScenario(s.moduleLevels).levels).toEqual([
      {
        "arm-module": "debug",
        "cam-module": "error",
        "gps-module": "debug",
        "imu-module": "info",
        "lidar-module": "info",
        "plain-module": "info",
      },
      // The module's lines in this process follow the same levels; its stderr follows its log_level.
      { "arm-module": "debug", "cam-module": "error", "imu-module": "warn", "stderr:cam-module": "error" },
    ]);
  });

  it("match whole names, `*` standing for any run of characters and `.` for itself", () => {
    expect(runLogScenario(s.wildcards).levels).toEqual([
      {
        [motorLeft]: "debug",
        [motorRight]: "debug",
        [boardB1]: "warn",
        "svc.modmanager.worker": "error",
        "svc.worker": "info",
        "rdk.x": "error",
        rdkax: "info",
        "rdk.xy": "info",
      },
    ]);
  });

  it("skip a rule whose pattern or level is invalid and say where it is", () => {
    const out = runLogScenario(s.invalidPatterns);
    expect(out.levels).toEqual([{ "svc.networking": "warn", "svc.modmanager": "error" }]);
    expect(out.issues[0]!.map((i) => i.path)).toEqual(["log[1].pattern", "log[2].pattern", "log[3].level"]);
    expect(out.issues[0]![0]!.message).toMatch(/found "\("/);
    expect(out.issues[0]![2]!.message).toMatch(/"debug", "info", "warn", "error".*"loud"/);
  });

  it("change the levels of loggers already in use when a new configuration is applied", () => {
    const out = runLogScenario(s.liveReconfiguration);
    expect(out.levels).toEqual([
      { "svc.networking": "info", [motorLeft]: "info", [`${motorLeft} > encoder`]: "info" },
      { "svc.networking": "debug", [motorLeft]: "error", [`${motorLeft} > encoder`]: "error" },
      { "svc.networking": "info", [motorLeft]: "info", [`${motorLeft} > encoder`]: "info" },
    ]);
    expect(out.entries.map((e) => e.message)).toEqual(["shown after the new rule", "shown again"]);
    expect(out.issues.map((list) => list.map((i) => i.path))).toEqual([[], [], ["log[0].pattern"]]);
  });

  it("keep the logger objects handed out, so holders need not ask again", () => {
    const sink = createCollectingSink();
    const engine = createLogEngine({ clock: createManualClock(), sink });
    const motor = engine.resourceLogger("rdk:component:motor", "left");
    expect(engine.logger(motorLeft)).toBe(motor);
    expect(motor.enabled("debug")).toBe(false);
    engine.configure({ resources: [{ api: "rdk:component:motor", name: "left", log_configuration: { level: "debug" } }] });
    expect(motor.enabled("debug")).toBe(true);
    motor.debug("now visible", { rpm: 3 });
    expect(sink.entries).toEqual([{ time: 0, level: "debug", logger: motorLeft, message: "now visible", fields: { rpm: 3 } }]);
    expect(engine.moduleLogLevel("anything")).toBe("info");
  });

  it("never throw on a configuration that is not even well-typed", () => {
    const engine = createLogEngine({ clock: createManualClock(), sink: createCollectingSink() });
    const issues = engine.configure({
      rules: [null, { pattern: 3, level: "debug" }] as never,
      resources: [{ api: "rdk:component:motor", name: "left", log_configuration: { level: "verbose" } }],
      modules: [{ name: "m", log_level: "chatty" }],
    });
    expect(issues.map((i) => i.path)).toEqual([
      "log[0].pattern",
      "log[0].level",
      "log[1].pattern",
      "rdk:component:motor/left.log_configuration.level",
      "modules[0].log_level",
    ]);
    expect(engine.levelOf(motorLeft)).toBe("info");
  });
});

describe("log patterns", () => {
  // The reference reading of the grammar: `*` is `.*`, everything else literal, whole name.
  const reference = (pattern: string) =>
    new RegExp(`^${pattern.split("*").map((p) => p.replace(/[.\-/:@]/g, (c) => `\\${c}`)).join(".*")}$`);

  it("match exactly the names the grammar says, whatever the shape of the pattern", () => {
    const text = (chars: string[]) => fc.array(fc.constantFrom(...chars), { maxLength: 8 }).map((a) => a.join(""));
    fc.assert(
      fc.property(text(["a", "b", ".", ":", "/", "*"]).filter((p) => p.length > 0), text(["a", "b", ".", ":", "/"]), (pattern, name) => {
        expect(compileLogPattern(pattern)(name)).toBe(reference(pattern).test(name));
      }),
      { numRuns: 2_000 },
    );
  });
});

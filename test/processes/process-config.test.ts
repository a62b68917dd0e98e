// The `processes` entries of a configuration: a broken one is left out with its path and the
// rest are kept; ids are unique; Viam's ways of writing a stop signal all name one signal; and
// -untrusted-env finds every entry, with its place in the file.
import { describe, expect, it } from "vitest";
import { parseMachineConfig } from "../../core/index.js";
import { findUntrustedEntries } from "../../targets/linux/server/system/index.js";
import { screenUntrusted } from "../../targets/linux/server/untrusted-screen.js";

describe("processes in the configuration", () => {
  it("leaves out a broken entry with its path, keeps the others, and refuses a second use of an id", () => {
    const { config, issues } = parseMachineConfig({
      processes: [
        { id: "a", name: "sh" },
        { id: "b", name: "", args: ["-c"] },
        { id: "a", name: "true" },
        { id: "c", name: "sleep", args: ["5"], stop_timeout: "1ns" },
        { id: "d", name: "sleep", args: ["5"], one_shot: true, log: true, env: { MODE: "x" }, cwd: "/tmp" },
      ],
    });
    expect(issues.map((i) => `${i.path}: ${i.message}`)).toEqual([
      `processes[1].name: must be a program's name or path (found "")`,
      'processes[2].id: "a" is already used by processes[0]',
      'processes[3].stop_timeout: must be a duration of at least "100ms", such as "10s" or "500ms" (found "1ns")',
    ]);
    expect(config!.processes.map((p) => p.id)).toEqual(["a", "d"]);
    expect(config!.processes[0]).toEqual({
      id: "a", name: "sh", args: [], cwd: "", one_shot: false, log: false, env: {},
      stop_signal: "", stop_signal_name: "SIGTERM", stop_timeout: "10s", stop_timeout_ms: 10_000,
    });
    expect(config!.processes[1]).toMatchObject({ one_shot: true, log: true, env: { MODE: "x" }, cwd: "/tmp", args: ["5"] });
  });

  it("refuses what no program can be given (a NUL, a variable named with \"=\"), without quoting the value", () => {
    const { config, issues } = parseMachineConfig({
      processes: [
        { id: "a", name: "sh", args: ["-c", "x\u0000y"] },
        { id: "b", name: "sh", env: { TOKEN: "se\u0000cret" } },
        { id: "c", name: "sh", env: { "A=B": "1" } },
      ],
    });
    expect(issues.map((i) => `${i.path}: ${i.message}`)).toEqual([
      "processes[0].args[1]: must not contain a NUL character (no program can be given one)",
      "processes[1].env.TOKEN: must not contain a NUL character (no program can be given one)",
      'processes[2].env["A=B"]: must be named without "=" (and not "")',
    ]);
    expect(config!.processes).toEqual([]);
  });

  it("takes a stop signal however Viam writes it", () => {
    const signals = ["INT", "SIGINT", "interrupt", "2", "hangup", "QUIT", "abort", "9", "terminate", ""];
    const { config, issues } = parseMachineConfig({ processes: signals.map((stop_signal, i) => ({ id: `p${i}`, name: "sh", stop_signal })) });
    expect(issues).toEqual([]);
    expect(config!.processes.map((p) => p.stop_signal_name)).toEqual([
      "SIGINT", "SIGINT", "SIGINT", "SIGINT", "SIGHUP", "SIGQUIT", "SIGABRT", "SIGKILL", "SIGTERM", "SIGTERM",
    ]);
  });

  it("refuses an entry asking to run as another user, rather than running it as this one", () => {
    const { config, issues } = parseMachineConfig({ processes: [{ id: "a", name: "sh", username: "root" }] });
    expect(issues).toEqual([
      expect.objectContaining({ path: "processes[0].username", severity: "error", message: expect.stringMatching(/svc-server's own user/) }),
    ]);
    expect(config!.processes).toEqual([]);
  });

  it("under -untrusted-env, refuses every process entry with its place in the file", () => {
    const written = {
      processes: [
        { id: "broken" },
        { id: "setup", name: "/usr/bin/touch", args: ["/tmp/x"], one_shot: true },
        { id: "agent", name: "sleep", args: ["1000"] },
      ],
    };
    const { config } = parseMachineConfig(written);
    expect(findUntrustedEntries(config!, written)).toEqual([
      {
        path: "processes[1]",
        section: "processes",
        name: "setup",
        starts: "/usr/bin/touch",
        message: 'process "setup" starts a program (/usr/bin/touch); -untrusted-env refuses it',
      },
      {
        path: "processes[2]",
        section: "processes",
        name: "agent",
        starts: "sleep",
        message: 'process "agent" starts a program (sleep); -untrusted-env refuses it',
      },
    ]);
    const screened = screenUntrusted(config!, written);
    expect(screened.config.processes).toEqual([]);
    expect(screened.issues.map((i) => i.path)).toEqual(["processes[1]", "processes[2]"]);
  });
});

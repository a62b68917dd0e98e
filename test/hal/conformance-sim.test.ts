// The conformance harness on the simulated board: a correctly wired sim passes every check, a
// miswired one fails the checks it should and the command exits non-zero, and the command line
// is read as documented.
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createSimBoard } from "../../hal/sim/index.js";
import { parseCli, runCli, simTarget, UsageError } from "../../tools/hal-conformance/cli.js";
import { runConformance, type ConformancePlan } from "../../tools/hal-conformance/conformance.js";
import { formatTable } from "../../tools/hal-conformance/table.js";

const plan = (parts: Partial<ConformancePlan>): ConformancePlan => ({ loops: [], serial: [], i2c: [], pwm: [], bauds: [9600, 115200], ...parts });

async function cli(...argv: string[]): Promise<{ code: number; lines: string[] }> {
  const lines: string[] = [];
  const code = await runCli(argv, (line) => lines.push(...line.split("\n")));
  return { code, lines };
}

describe("the harness on the simulated board", () => {
  it("passes every capability on a correctly wired board", async () => {
    const full = plan({ loops: [["11", "13"]], serial: [["a", "b"], ["c", undefined]], i2c: [{ bus: 1, address: 0x50, register: 0x10 }], pwm: ["12"] });
    const rows = await runConformance(simTarget(full), full);
    expect(rows.filter((r) => r.status !== "pass")).toEqual([]);
    expect(rows.map((r) => r.capability)).toEqual([
      "digital 11 -> 13",
      "digital 13 -> 11",
      "pull-up 11",
      "pull-down 11",
      "pull-up 13",
      "pull-down 13",
      "open drain 11 -> 13",
      "edges (rising) 11 -> 13",
      "edges (falling) 11 -> 13",
      "edges (both) 11 -> 13",
      "pin held 11",
      "pwm 12 1000 Hz 25%",
      "pwm 12 50 Hz 75%",
      "serial a <-> b @ 9600",
      "serial a <-> b @ 115200",
      "serial c loopback @ 9600",
      "serial c loopback @ 115200",
      "smbus byte 0x50 on bus 1",
      "smbus word 0x50 on bus 1",
      "smbus block 0x50 on bus 1",
      "i2c write/read 0x50 on bus 1",
    ]);
  });

  it("prints the table and exits 0 through the command", async () => {
    const { code, lines } = await cli("--backend", "sim", "--loop", "11:13", "--serial", "a:b", "--i2c", "1:0x50", "--pwm", "12", "--baud", "9600");
    expect(code).toBe(0);
    expect(lines[0]).toBe("backend: simulated board");
    expect(lines[1]).toMatch(/^capability +result {3}detail$/);
    expect(lines).toContainEqual(expect.stringMatching(/^pwm 12 1000 Hz 25% +pass {5}read back 1000\.0 Hz, duty 0\.250$/));
    expect(lines.at(-1)).toBe("18 passed, 0 failed, 0 skipped");
  });

  it("fails the checks a miswired board gets wrong, and exits 1", async () => {
    // Pins 11 and 13 are not wired together, and nothing answers at 0x51.
    const board = createSimBoard();
    const target = { io: board.io, readPwm: (pin: string) => board.pwm(pin), settleMs: 0 };
    const rows = await runConformance(target, plan({ loops: [["11", "13"]], i2c: [{ bus: 1, address: 0x51, register: 0 }] }));
    const status = Object.fromEntries(rows.map((r) => [r.capability, r.status]));
    expect(status["digital 11 -> 13"]).toBe("fail");
    expect(status["edges (rising) 11 -> 13"]).toBe("fail");
    expect(status["pull-up 11"]).toBe("pass");
    expect(status["pin held 11"]).toBe("pass");
    expect(rows.find((r) => r.capability === "digital 11 -> 13")!.detail).toBe("13 after writing 1 to 11: expected 1, got 0");
    expect(rows.find((r) => r.capability === "smbus byte 0x51 on bus 1")!.detail).toBe("no device answers at 0x51 on bus 1");
    expect(formatTable(rows).at(-1)).toBe("5 passed, 10 failed, 2 skipped");
    const failing = await cli("--backend", "linux", "--serial", "/nonexistent/ttyX", "--baud", "9600");
    expect(failing.code).toBe(1);
    expect(failing.lines).toContainEqual(expect.stringMatching(/^serial \/nonexistent\/ttyX loopback @ 9600 +FAIL {5}\/nonexistent\/ttyX not found/));
  });

  it("skips, with the reason, what is not asked for or what the backend lacks", async () => {
    const rows = await runConformance({ io: { name: "tiny" }, settleMs: 0 }, plan({ serial: [["a", "b"]] }));
    expect(rows).toEqual([
      { capability: "digital", status: "skip", detail: "no --loop given" },
      { capability: "pwm", status: "skip", detail: "no --pwm given" },
      { capability: "serial", status: "skip", detail: "tiny has no Serial IO" },
      { capability: "i2c", status: "skip", detail: "no --i2c given" },
    ]);
    const board = createSimBoard();
    const noReadBack = await runConformance({ io: board.io, settleMs: 0 }, plan({ pwm: ["12"] }));
    expect(noReadBack.filter((r) => r.capability.startsWith("pwm 12"))).toEqual([
      { capability: "pwm 12 1000 Hz 25%", status: "skip", detail: "set without error; this backend cannot read PWM back (check with a scope or an LED)" },
      { capability: "pwm 12 50 Hz 75%", status: "skip", detail: "set without error; this backend cannot read PWM back (check with a scope or an LED)" },
    ]);
  });
});

describe("a run with nothing to check", () => {
  const command = join(import.meta.dirname, "..", "..", "dist", "linux", "svc-hal-conformance.mjs");
  const run = (...argv: string[]) => spawnSync(process.execPath, [command, ...argv], { encoding: "utf8", timeout: 60_000 });

  it("wires the simulated board itself when no wiring is given, and checks every capability", () => {
    const { status, stdout } = run("--backend", "sim", "--baud", "9600");
    const lines = stdout.trimEnd().split("\n");
    expect(lines[0]).toBe("backend: simulated board");
    expect(lines).toContainEqual(expect.stringMatching(/^wiring: the simulated board's own: --loop 11:13 --pwm 12 --serial sim0:sim1 --serial sim2 --i2c 1:0x50$/));
    expect(lines.filter((l) => / (skipped|FAIL) /.test(l))).toEqual([]);
    expect(lines.at(-1)).toBe("19 passed, 0 failed, 0 skipped");
    expect(status).toBe(0);
  });

  it("exits 1 saying why when every check was skipped", async () => {
    const { status, stdout } = run("--backend", "linux");
    const lines = stdout.trimEnd().split("\n");
    expect(lines.at(-2)).toBe("0 passed, 0 failed, 4 skipped");
    expect(lines.at(-1)).toBe("nothing was checked: no --loop given; no --pwm given; no --serial given; no --i2c given");
    expect(status).toBe(1);
    const tiny = await runConformance({ io: { name: "tiny" }, settleMs: 0 }, plan({ serial: [["a", "b"]] }));
    expect(formatTable(tiny).at(-1)).toBe("nothing was checked: no --loop given; no --pwm given; tiny has no Serial IO; no --i2c given");
  });
});

describe("the harness command line", () => {
  it("reads repeated wiring flags, hex addresses and baud lists", () => {
    expect(parseCli(["--backend", "linux", "--board", "pi5", "--loop", "11:13", "--loop", "GPIO5:GPIO6", "--serial", "/dev/ttyS0:/dev/ttyUSB0", "--serial", "/dev/ttyAMA0", "--i2c", "1:0x40:0x20", "--i2c", "3:72", "--pwm", "12", "--baud", "9600, 230400"])).toEqual({
      backend: "linux",
      board: "pi5",
      plan: {
        loops: [["11", "13"], ["GPIO5", "GPIO6"]],
        serial: [["/dev/ttyS0", "/dev/ttyUSB0"], ["/dev/ttyAMA0", undefined]],
        i2c: [{ bus: 1, address: 0x40, register: 0x20 }, { bus: 3, address: 72, register: 0x10 }],
        pwm: ["12"],
        bauds: [9600, 230400],
      },
    });
    expect(parseCli(["-h"])).toBe("help");
  });

  it("refuses bad flags with a usage message and status 2", async () => {
    for (const [argv, message] of [
      [["--backend", "esp32"], "--backend esp32: expected sim or linux"],
      [["--loop", "11"], "--loop 11: expected A:B"],
      [["--i2c", "1:0x80"], "--i2c 1:0x80: an address is 0x00-0x7f"],
      [["--i2c", "one:0x40"], '--i2c bus: "one" is not a number'],
      [["--baud", "fast"], '--baud: "fast" is not a number'],
    ] as const) {
      expect(() => parseCli(argv)).toThrow(new UsageError(message));
    }
    const { code, lines } = await cli("--frobnicate");
    expect(code).toBe(2);
    expect(lines[0]).toMatch(/^svc-hal-conformance: Unknown option '--frobnicate'/);
    expect(lines[1]).toMatch(/^usage: svc-hal-conformance --backend sim\|linux/);
  });

  it("names what is wrong in a board definition file", async () => {
    const { code, lines } = await cli("--backend", "linux", "--board", "/nonexistent/board.json");
    expect(code).toBe(2);
    expect(lines[0]).toMatch(/^svc-hal-conformance: --board \/nonexistent\/board.json: not pi, pi4 or pi5, and not a readable JSON definition \(ENOENT/);
  });
});

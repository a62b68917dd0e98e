// svc-hal-conformance: runs the conformance suite against a backend on the wiring given, prints
// a table of pass/fail/skipped per capability, and exits non-zero on any failure or when nothing
// was checked. The simulated board, given no wiring, is wired as it wires itself.
//   svc-hal-conformance --backend sim|linux [--board pi|pi4|pi5|<definition.json>]
//     [--loop pinA:pinB]... [--serial /dev/ttyX:/dev/ttyY | /dev/ttyX]... [--i2c bus:address[:register]]...
//     [--pwm pin]... [--baud 9600,115200]
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { createSimBoard, type SimSerialWiring } from "../../hal/sim/index.js";
import { builtinBoardDefinitions, openLinuxIO, parseGenericDefinition, type BoardDefinition } from "../../hal/linux/index.js";
import { UsageError } from "../../targets/linux/cli/flags.js";
import { DEFAULT_BAUDS, runConformance, type ConformancePlan, type ConformanceTarget, type I2CScratch } from "./conformance.js";
import { checkedNothing, formatTable } from "./table.js";

export const DEFAULT_SCRATCH_REGISTER = 0x10;

/** What the simulated board is wired as when no wiring is given: one of each kind of check. */
export const SIM_OWN_WIRING: Omit<ConformancePlan, "bauds"> = {
  loops: [["11", "13"]],
  pwm: ["12"],
  serial: [["sim0", "sim1"], ["sim2", undefined]],
  i2c: [{ bus: 1, address: 0x50, register: 0x10 }],
};

/** A plan's wiring written back as the flags that give it. */
export function wiringFlags(plan: Omit<ConformancePlan, "bauds">): string {
  const hex = (n: number) => `0x${n.toString(16)}`;
  return [
    ...plan.loops.map(([a, b]) => `--loop ${a}:${b}`),
    ...plan.pwm.map((pin) => `--pwm ${pin}`),
    ...plan.serial.map(([p, q]) => `--serial ${q ? `${p}:${q}` : p}`),
    ...plan.i2c.map(({ bus, address, register }) => `--i2c ${bus}:${hex(address)}${register === DEFAULT_SCRATCH_REGISTER ? "" : `:${hex(register)}`}`),
  ].join(" ");
}

export const USAGE = `usage: svc-hal-conformance --backend sim|linux [--board pi|pi4|pi5|<definition.json>]
         [--loop pinA:pinB]... [--serial /dev/ttyX:/dev/ttyY | --serial /dev/ttyX]...
         [--i2c bus:address[:register]]... [--pwm pin]... [--baud 9600,57600,115200]

Runs the HAL conformance checks on the wiring given:
  --loop A:B        pins A and B wired together (levels both ways, pulls, open drain, edges)
  --serial X:Y      serial ports X and Y wired TX to RX; --serial X alone: X's TX looped to its RX
  --i2c B:A[:R]     the device at address A on bus B; registers R to R+15 (default 0x10) are
                    written, so point it at scratch registers (an EEPROM, the kernel's i2c-stub)
  --pwm P           hardware PWM on pin P, read back where the backend can
  --board           the pin names of a Linux board: pi, pi4, pi5, or a JSON file of the generic
                    form {"gpio_chip": "gpiochip0", "pins": {"name": line}, ...}
With --backend sim and no wiring, the simulated board's own wiring is used:
  ${wiringFlags(SIM_OWN_WIRING)}
Exit status: 0 when something was checked and nothing failed, 1 when a check failed or nothing
was checked, 2 for a usage error.`;

// A usage error is svc's one kind (exit status 2), shared with the programs' own flags.
export { UsageError };

const number = (text: string, what: string): number => {
  const n = /^0x[0-9a-f]+$/i.test(text) ? parseInt(text, 16) : /^[0-9]+$/.test(text) ? Number(text) : NaN;
  if (!Number.isInteger(n)) throw new UsageError(`${what}: ${JSON.stringify(text)} is not a number`);
  return n;
};

const pair = (text: string, flag: string): [string, string] => {
  const at = text.lastIndexOf(":");
  if (at <= 0 || at === text.length - 1) throw new UsageError(`${flag} ${text}: expected A:B`);
  return [text.slice(0, at), text.slice(at + 1)];
};

export interface CliRequest {
  backend: "sim" | "linux";
  board?: string;
  plan: ConformancePlan;
  /** The plan is the simulated board's own wiring, none having been given. */
  ownWiring?: boolean;
}

export function parseCli(argv: readonly string[]): CliRequest | "help" {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      options: {
        backend: { type: "string" },
        board: { type: "string" },
        loop: { type: "string", multiple: true },
        serial: { type: "string", multiple: true },
        i2c: { type: "string", multiple: true },
        pwm: { type: "string", multiple: true },
        baud: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
      strict: true,
      allowPositionals: false,
    });
  } catch (thrown) {
    throw new UsageError((thrown as Error).message);
  }
  const v = parsed.values;
  if (v.help) return "help";
  const backend = v.backend ?? "sim";
  if (backend !== "sim" && backend !== "linux") throw new UsageError(`--backend ${backend}: expected sim or linux`);
  const i2c: I2CScratch[] = (v.i2c ?? []).map((text) => {
    const parts = text.split(":");
    if (parts.length < 2 || parts.length > 3) throw new UsageError(`--i2c ${text}: expected bus:address[:register]`);
    const address = number(parts[1]!, "--i2c address");
    if (address > 0x7f) throw new UsageError(`--i2c ${text}: an address is 0x00-0x7f`);
    const register = parts[2] === undefined ? DEFAULT_SCRATCH_REGISTER : number(parts[2], "--i2c register");
    if (register > 0xf0) throw new UsageError(`--i2c ${text}: the register must leave room for 16 (at most 0xf0)`);
    return { bus: number(parts[0]!, "--i2c bus"), address, register };
  });
  const bauds = v.baud === undefined ? DEFAULT_BAUDS : v.baud.split(",").map((b) => number(b.trim(), "--baud"));
  if (bauds.some((b) => b <= 0)) throw new UsageError("--baud: rates must be positive");
  const plan: ConformancePlan = {
    loops: (v.loop ?? []).map((text) => pair(text, "--loop")),
    serial: (v.serial ?? []).map((text) => {
      // Device paths have no colon, so one colon separates two ports.
      const [p, q] = text.split(":");
      if (!p || text.split(":").length > 2) throw new UsageError(`--serial ${text}: expected /dev/ttyX:/dev/ttyY or /dev/ttyX`);
      return [p, q || undefined] as [string, string | undefined];
    }),
    i2c,
    pwm: v.pwm ?? [],
    bauds,
  };
  const wired = plan.loops.length + plan.serial.length + plan.i2c.length + plan.pwm.length > 0;
  if (backend === "sim" && !wired) return { backend, board: v.board, plan: { ...SIM_OWN_WIRING, bauds }, ownWiring: true };
  return { backend, board: v.board, plan };
}

/** A simulated board wired as the plan says, so the suite shows what a correct backend does. */
export function simTarget(plan: ConformancePlan): ConformanceTarget {
  const names = new Set(Array.from({ length: 40 }, (_, i) => String(i)));
  plan.loops.forEach(([a, b]) => names.add(a).add(b));
  plan.pwm.forEach((p) => names.add(p));
  const serial: Record<string, SimSerialWiring> = {};
  for (const [p, q] of plan.serial) {
    if (q) {
      serial[p] = { pair: q };
      serial[q] = { pair: p };
    } else serial[p] = "loopback";
  }
  const board = createSimBoard({
    name: "simulated board",
    pins: Array.from(names),
    loops: plan.loops,
    serial,
    i2c: plan.i2c.map(({ bus, address }) => ({ bus, address })),
  });
  return { io: board.io, readPwm: (pin) => board.pwm(pin), settleMs: 0 };
}

export function readBoardDefinition(board: string | undefined, readText: (path: string) => string): BoardDefinition | undefined {
  if (board === undefined) return undefined;
  const builtin = builtinBoardDefinitions[board];
  if (builtin) return builtin();
  let source: unknown;
  try {
    source = JSON.parse(readText(board));
  } catch (thrown) {
    throw new UsageError(`--board ${board}: not pi, pi4 or pi5, and not a readable JSON definition (${(thrown as Error).message})`);
  }
  if (typeof source !== "object" || source === null || Array.isArray(source)) throw new UsageError(`--board ${board}: a definition is a JSON object`);
  const { definition, issues } = parseGenericDefinition(source as Record<string, unknown>, board, String((source as { name?: unknown }).name ?? board));
  if (issues.length) throw new UsageError(issues.map((i) => `${i.path}: ${i.message}`).join("\n"));
  return definition;
}

export async function linuxTarget(board: string | undefined): Promise<ConformanceTarget> {
  const definition = readBoardDefinition(board, (path) => readFileSync(path, "utf8"));
  const host = await openLinuxIO({ definition });
  // Linux edges are found by sampling every millisecond: give each one a few periods.
  return { io: host.io, readPwm: (pin) => host.readPwm(pin), settleMs: 10 };
}

/** Runs the command; returns the exit status. */
export async function runCli(argv: readonly string[], write: (line: string) => void): Promise<number> {
  let request: CliRequest | "help";
  let target: ConformanceTarget;
  try {
    request = parseCli(argv);
    if (request === "help") {
      write(USAGE);
      return 0;
    }
    target = request.backend === "sim" ? simTarget(request.plan) : await linuxTarget(request.board);
  } catch (thrown) {
    if (!(thrown instanceof UsageError)) throw thrown;
    write(`svc-hal-conformance: ${thrown.message}`);
    write(USAGE);
    return 2;
  }
  write(`backend: ${target.io.name}`);
  if (request.ownWiring) write(`wiring: the simulated board's own: ${wiringFlags(request.plan)}`);
  const rows = await runConformance(target, request.plan);
  for (const line of formatTable(rows)) write(line);
  return rows.some((r) => r.status === "fail") || checkedNothing(rows) ? 1 : 0;
}

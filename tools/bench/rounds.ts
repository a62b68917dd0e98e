// Several servers measured under the same load in one run, in interleaved rounds: the machine is
// shared and its load drifts, so every contender of every measure gets one window a round, the
// order turning each round (who goes first changes), and each figure kept is the median of the
// rounds. Every window gets a fresh client (a new HTTP/2 session, new HTTP/1.1 connections),
// primed with unmeasured calls, so no connection goes idle between rounds and no connection
// set-up is counted.
import type { Caller } from "./grpc-load.js";
import { runWindow, type MeasuredServer, type Window } from "./load-window.js";
import { medianOf } from "./side-by-side.js";

export interface Contender extends MeasuredServer {
  label: string;
  /** A new client of this server for one window; closed after it. */
  open(): Caller;
}

export interface Measure {
  name: string;
  contenders: readonly Contender[];
  /** Calls in flight at most: all the time at full speed, when late while paced. */
  callers: number;
  /** Calls started per second; full speed when absent. */
  perSecond?: number;
}

export interface RoundsOptions {
  rounds: number;
  windowMs: number;
  /** An unmeasured window for each contender of each measure first, for the JIT and the caches. */
  warmUpMs: number;
  /** Told of each round as it begins. */
  progress?(text: string): void;
}

/** The median window of each contender, by measure. */
export type Medians = Map<Measure, Map<Contender, Window>>;

export async function runRounds(measures: readonly Measure[], options: RoundsOptions): Promise<Medians> {
  const windows = new Map(measures.map((m) => [m, new Map(m.contenders.map((c) => [c, [] as Window[]]))]));
  options.progress?.(`warming up (${options.warmUpMs} ms a contender)`);
  for (const measure of measures) {
    for (const c of measure.contenders) await measured(measure, c, options.warmUpMs);
  }
  for (let round = 0; round < options.rounds; round++) {
    options.progress?.(`round ${round + 1} of ${options.rounds}`);
    for (const measure of measures) {
      for (const c of turned(measure.contenders, round)) windows.get(measure)!.get(c)!.push(await measured(measure, c, options.windowMs));
    }
  }
  return new Map(measures.map((m) => [m, new Map(m.contenders.map((c) => [c, medianWindow(windows.get(m)!.get(c)!)]))]));
}

async function measured(measure: Measure, contender: Contender, ms: number): Promise<Window> {
  const caller = contender.open();
  try {
    await Promise.all(Array.from({ length: measure.callers }, () => caller.call()));
    return await runWindow(caller, { ms, callers: measure.callers, perSecond: measure.perSecond }, contender);
  } finally {
    caller.close();
  }
}

function turned<T>(list: readonly T[], by: number): T[] {
  const k = by % list.length;
  return [...list.slice(k), ...list.slice(0, k)];
}

/** Each figure's median over the rounds (figures a window lacks stay absent). */
function medianWindow(windows: readonly Window[]): Window {
  const of = (pick: (w: Window) => number | undefined): number | undefined => {
    const values = windows.map(pick).filter((v): v is number => v !== undefined);
    return values.length ? medianOf(values) : undefined;
  };
  return {
    calls: of((w) => w.calls)!,
    perSecond: of((w) => w.perSecond)!,
    p50: of((w) => w.p50)!,
    p99: of((w) => w.p99)!,
    cpuPerCall: of((w) => w.cpuPerCall)!,
    helperCpuPerCall: of((w) => w.helperCpuPerCall),
    gcPerCall: of((w) => w.gcPerCall),
    gcCountPer1000Calls: of((w) => w.gcCountPer1000Calls),
  };
}

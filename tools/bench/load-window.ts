// One measured window of load on one server: for a fixed time, either at full speed (`callers`
// calls always in flight) or paced (calls started on a fixed schedule of `perSecond`, at most
// `callers` in flight, as a client with its own rhythm calls a machine). Around the window it
// reads the server's CPU time from /proc (every thread: utime + stime) and, for a Node server
// that tells it, its garbage collections; so a figure per call is the server's whole cost of the
// window's calls, whatever it did for them.
import type { GcTotals } from "../../targets/linux/server/diagnostics/index.js";
import { cpuSeconds, type Caller } from "./grpc-load.js";

export interface MeasuredServer {
  /** The process whose CPU time is read. */
  pid: number;
  /** Another process the calls make work for (a module), read the same way. */
  helperPid?: number;
  /** The server's garbage collections since it started (-webprofile's GET /debug/gc). */
  gc?: () => Promise<GcTotals>;
}

export interface WindowOptions {
  ms: number;
  callers: number;
  /** Calls started per second; full speed when absent. */
  perSecond?: number;
}

export interface Window {
  calls: number;
  perSecond: number;
  /** Milliseconds, from each call's start to its answer. */
  p50: number;
  p99: number;
  /** Microseconds of the server process's CPU per call. */
  cpuPerCall: number;
  /** Microseconds of the helper process's CPU per call. */
  helperCpuPerCall?: number;
  /** Microseconds of garbage collection per call. */
  gcPerCall?: number;
  gcCountPer1000Calls?: number;
}

export async function runWindow(caller: Caller, options: WindowOptions, server: MeasuredServer): Promise<Window> {
  const latencies: number[] = [];
  const gcBefore = await server.gc?.();
  const cpuBefore = cpuSeconds(server.pid);
  const helperBefore = server.helperPid === undefined ? 0 : cpuSeconds(server.helperPid);
  const began = performance.now();
  if (options.perSecond === undefined) await fullSpeed(caller, options, latencies);
  else await paced(caller, options, options.perSecond, latencies);
  const seconds = (performance.now() - began) / 1000;
  const cpu = cpuSeconds(server.pid) - cpuBefore;
  const helper = server.helperPid === undefined ? undefined : cpuSeconds(server.helperPid) - helperBefore;
  const gcAfter = await server.gc?.();

  const calls = latencies.length;
  latencies.sort((a, b) => a - b);
  const perCall = (seconds: number) => (seconds / calls) * 1e6;
  return {
    calls,
    perSecond: calls / seconds,
    p50: latencies[Math.floor(calls * 0.5)]!,
    p99: latencies[Math.floor(calls * 0.99)]!,
    cpuPerCall: perCall(cpu),
    ...(helper === undefined ? {} : { helperCpuPerCall: perCall(helper) }),
    ...(gcBefore && gcAfter
      ? { gcPerCall: perCall((gcAfter.durationMs - gcBefore.durationMs) / 1000), gcCountPer1000Calls: ((gcAfter.count - gcBefore.count) / calls) * 1000 }
      : {}),
  };
}

async function fullSpeed(caller: Caller, options: WindowOptions, latencies: number[]): Promise<void> {
  const deadline = performance.now() + options.ms;
  const one = async () => {
    for (let now = performance.now(); now < deadline; now = performance.now()) {
      await caller.call();
      latencies.push(performance.now() - now);
    }
  };
  await Promise.all(Array.from({ length: options.callers }, one));
}

// A timer looks at the schedule every millisecond (Node's finest) and starts the calls that are
// due; a call that ends also starts any held back by the limit on calls in flight. A server too
// slow for the pace shows as fewer calls per second than asked for.
function paced(caller: Caller, options: WindowOptions, perSecond: number, latencies: number[]): Promise<void> {
  const total = Math.floor((options.ms / 1000) * perSecond);
  const began = performance.now();
  let started = 0;
  let inFlight = 0;
  return new Promise((resolve, reject) => {
    let failed = false;
    const startDue = () => {
      const due = Math.min(total, Math.floor(((performance.now() - began) * perSecond) / 1000) + 1);
      while (!failed && started < due && inFlight < options.callers) {
        started++;
        inFlight++;
        const at = performance.now();
        caller.call().then(
          () => {
            latencies.push(performance.now() - at);
            inFlight--;
            if (started === total && inFlight === 0) resolve();
            else startDue();
          },
          (error: unknown) => {
            failed = true;
            reject(error);
          },
        );
      }
    };
    const tick = () => {
      startDue();
      if (started < total && !failed) setTimeout(tick, 1);
    };
    tick();
  });
}

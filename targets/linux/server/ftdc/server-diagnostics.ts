// What svc-server records about itself while it runs: one count of the API calls (the port's
// first interceptor) for whichever of -output-telemetry and -ftdc is on, the telemetry lines,
// and FTDC: the process, the API, the graph and the module processes once a second into a folder.
import type { Interceptor } from "@connectrpc/connect";
import type { Clock, Logger, Machine } from "../../../../core/index.js";
import { createCallCounter, createTelemetry, reconfigureSpans, type Telemetry } from "../diagnostics/index.js";
import type { ModuleSockets } from "../../modules/index.js";
import { apiMetrics } from "./api-metrics.js";
import { createFtdcRecorder, type FtdcRecorder } from "./ftdc-recorder.js";
import { graphMetrics } from "./graph-metrics.js";
import { moduleMetrics } from "./module-metrics.js";
import { processMetrics } from "./process-metrics.js";

export interface ServerDiagnosticsOptions {
  /** -output-telemetry */
  outputTelemetry?: boolean;
  /** -ftdc into this folder. */
  ftdc?: { dir: string };
  clock: Clock;
  log: Logger;
}

export interface ServerDiagnostics {
  /** Counts every call: first of the port's interceptors. Undefined when nothing is recorded. */
  readonly interceptor: Interceptor | undefined;
  readonly telemetry: Telemetry | undefined;
  /** The FTDC recorder once following a machine, with -ftdc. */
  readonly recorder: FtdcRecorder | undefined;
  /** The module sockets, watched so module processes are measured. */
  watchModules(sockets: ModuleSockets): ModuleSockets;
  /** Follows the machine: reconfiguration spans, and FTDC from now on. */
  follow(machine: Pick<Machine, "engine" | "onConfig">): void;
  /** The last telemetry line; FTDC stops and closes its file. */
  close(): void;
}

export function serverDiagnostics(options: ServerDiagnosticsOptions): ServerDiagnostics {
  const { clock, log } = options;
  const now = () => clock.now();
  const calls = options.outputTelemetry || options.ftdc ? createCallCounter() : undefined;
  const telemetry = options.outputTelemetry ? createTelemetry({ calls }) : undefined;
  const modules = options.ftdc ? moduleMetrics({ now }) : undefined;
  let recorder: FtdcRecorder | undefined;
  return {
    interceptor: calls?.interceptor,
    telemetry,
    get recorder() {
      return recorder;
    },
    watchModules: (sockets) => modules?.watch(sockets) ?? sockets,
    follow(machine) {
      if (telemetry) machine.onConfig(reconfigureSpans(telemetry));
      if (!options.ftdc || !calls || !modules) return;
      const sources = [processMetrics({ now }), apiMetrics(calls), graphMetrics(machine), modules];
      recorder = createFtdcRecorder({ dir: options.ftdc.dir, clock, log, sources });
      log.info("recording diagnostics (FTDC)", { dir: options.ftdc.dir });
    },
    close() {
      telemetry?.close();
      recorder?.close();
    },
  };
}

// The part of RobotServiceDeps a graph engine answers: which resources run (and which resources
// of remotes are listed, reachable or not), their statuses, when the configuration was applied,
// and stopping every actuator. Platform neutral, so the Linux server and the MCU share it.
import type { Clock } from "../../clock.js";
import { isActuator, type Actuator } from "../../components/index.js";
import type { GraphEngine } from "../../graph/index.js";
import { isRemoteName, parseResourceName, silentLogger, type LoggerLike, type Resource, type ResourceName } from "../../resource/index.js";
import { Code, errorMessage, SvcError } from "../../errors/index.js";
import type { RobotServiceDeps } from "./robot-service-deps.js";

export interface GraphRobotPartsOptions {
  /** Created before the engine applies its first configuration, so every applied time is seen. */
  engine: GraphEngine;
  clock: Clock;
  logger?: LoggerLike;
}

export interface GraphRobotParts extends Pick<RobotServiceDeps, "resourceNames" | "machineStatus" | "configUpdatedAt" | "stopAll"> {
  /** The running actuator under a full name, for the session safety stop. */
  actuatorNamed(name: string): Actuator | undefined;
  /** Stops following the engine's events. */
  close(): void;
}

// The methods are thin: on a microcontroller each closure carries a copy of its code, so the
// work is in the module functions below, made once.
export function createGraphRobotParts(options: GraphRobotPartsOptions): GraphRobotParts {
  const { engine, clock } = options;
  const logger = options.logger ?? silentLogger;
  let appliedAt = 0;
  const unsubscribe = engine.onEvent((event) => {
    if (event.kind === "applied") appliedAt = clock.now();
  });
  return {
    resourceNames: () => resourceNames(engine),
    machineStatus: () => engine.status(),
    configUpdatedAt: () => appliedAt,
    stopAll: (extra) => stopAll(engine, logger, extra),
    actuatorNamed(name) {
      const resource = engine.resource(name);
      return resource && isActuator(resource) ? resource : undefined;
    },
    close: unsubscribe,
  };
}

function running(engine: GraphEngine): Array<{ name: string; resource: Resource }> {
  const found: Array<{ name: string; resource: Resource }> = [];
  for (const status of engine.status().resources) {
    if (status.state !== "READY") continue;
    const resource = engine.resource(status.name);
    if (resource) found.push({ name: status.name, resource });
  }
  return found;
}

function resourceNames(engine: GraphEngine): ResourceName[] {
  const names: ResourceName[] = [];
  for (const status of engine.status().resources) {
    const parsed = parseResourceName(status.name);
    if (!parsed.ok) continue;
    // A remote's resource stays listed while its part is unreachable: its status says why.
    if (status.state === "READY" ? engine.resource(status.name) !== undefined : isRemoteName(parsed.value.name)) names.push(parsed.value);
  }
  return names;
}

async function stopAll(engine: GraphEngine, logger: LoggerLike, extra: Parameters<GraphRobotParts["stopAll"]>[0]): Promise<void> {
  const actuators: Array<{ name: string; resource: Actuator }> = [];
  for (const r of running(engine)) if (isActuator(r.resource)) actuators.push({ name: r.name, resource: r.resource });
  const outcomes = await Promise.allSettled(actuators.map((a) => Promise.resolve().then(() => a.resource.stop(extra.get(a.name)))));
  const failures: string[] = [];
  outcomes.forEach((outcome, i) => {
    if (outcome.status === "rejected") failures.push(`${actuators[i]!.name}: ${errorMessage(outcome.reason)}`);
  });
  if (failures.length === 0) return;
  const message = `StopAll: ${failures.length} of ${actuators.length} actuators could not be stopped: ${failures.join("; ")}`;
  logger.error(message);
  throw new SvcError(Code.Unknown, message);
}

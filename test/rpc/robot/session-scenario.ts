// Operations and sessions as pure data: sessions started, heartbeats sent, actuators driven by
// calls under a session, long calls cancelled, the clock moved, and what happened written down as
// lines. It returns JSON, so the same scenario can run on Node and in XS and the answers compared.
import { createManualClock } from "../../../core/manual-clock.js";
import { createCallRunner } from "../../../core/rpc/call-runner.js";
import { uuidFrom } from "../../../core/rpc/operation-id.js";
import { createOperations } from "../../../core/rpc/operations.js";
import { createSessions } from "../../../core/rpc/sessions.js";
import { errorMessage, SvcError } from "../../../core/errors/index.js";

export type SessionScenarioStep =
  | { start: string; resume?: string }
  | { heartbeat: string }
  | { drive: string; session?: string }
  | { longCall: string; session?: string }
  | { cancel: string }
  | { advance: number }
  | { list: true };

export interface SessionScenarioInput {
  heartbeatWindowMs?: number;
  steps: SessionScenarioStep[];
}

export interface SessionScenarioOutput {
  /** One line per thing that happened, prefixed with the clock reading; ids appear as labels. */
  lines: string[];
}

async function settle(): Promise<void> {
  for (let i = 0; i < 8; i++) await Promise.resolve();
}

export async function runSessionScenario(input: SessionScenarioInput): Promise<SessionScenarioOutput> {
  const clock = createManualClock(0);
  let seed = 12345;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const lines: string[] = [];
  const labels = new Map<string, string>();
  const ids = new Map<string, string>();
  const say = (text: string) => void lines.push(`${clock.now()} ${text}`);
  const name = (id: string) => labels.get(id) ?? (id === "" ? "-" : "?");
  const operations = createOperations({ clock, newId: () => uuidFrom(random) });
  const sessions = createSessions({ clock, newId: () => uuidFrom(random), heartbeatWindowMs: input.heartbeatWindowMs });
  const runner = createCallRunner({ operations, sessions });
  const actuator = (label: string) => ({
    stop: async () => void say(`stopped ${label}`),
  });
  const calls = new Map<string, string>();

  const failure = (thrown: unknown) => (thrown instanceof SvcError ? `${thrown.code} ${thrown.message}` : errorMessage(thrown));

  for (const step of input.steps) {
    try {
      if ("start" in step) {
        const started = sessions.start(step.resume === undefined ? undefined : ids.get(step.resume) ?? step.resume);
        if (!started.resumed) {
          labels.set(started.id, step.start);
          ids.set(step.start, started.id);
        }
        const shaped = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(started.id);
        say(`start ${step.start}: ${started.resumed ? `resumed ${name(started.id)}` : "new"}, window ${started.heartbeatWindowMs}, uuid ${shaped}`);
      } else if ("heartbeat" in step) {
        sessions.heartbeat(ids.get(step.heartbeat) ?? step.heartbeat);
        say(`heartbeat ${step.heartbeat}: ok`);
      } else if ("drive" in step) {
        const sessionId = step.session === undefined ? "" : ids.get(step.session) ?? step.session;
        await runner.run({ method: "/viam.component.motor.v1.MotorService/SetPower", sessionId }, async (call) => {
          call.drove(actuator(step.drive), step.drive);
        });
        say(`drove ${step.drive} in ${name(sessionId)}`);
      } else if ("longCall" in step) {
        const sessionId = step.session === undefined ? "" : ids.get(step.session) ?? step.session;
        const label = step.longCall;
        const op = runner.begin({ method: "/viam.component.motor.v1.MotorService/GoFor", sessionId, args: () => ({ name: label }) });
        calls.set(label, op.id);
        const ended = new Promise<void>((resolve) => op.onCancel(resolve));
        void ended.then(() => {
          say(`${label} ${op.cancelReason()?.code ?? 0}`);
          op.finish();
        });
        say(`long call ${label} in ${name(sessionId)}`);
      } else if ("cancel" in step) {
        operations.cancel(calls.get(step.cancel) ?? step.cancel);
      } else if ("advance" in step) {
        clock.advance(step.advance);
      } else {
        const ops = operations.list().map((o) => `${o.method.slice(o.method.lastIndexOf("/") + 1)}(${JSON.stringify(o.arguments)}) in ${name(o.sessionId)} since ${o.started}`);
        const live = sessions.list().map((s) => `${name(s.id)} until ${s.deadline} driving [${s.driving.join(",")}]`);
        say(`operations: ${ops.join("; ") || "none"} | sessions: ${live.join("; ") || "none"}`);
      }
    } catch (thrown) {
      say(`${Object.keys(step)[0]} failed: ${failure(thrown)}`);
    }
    await sessions.settled();
    await settle();
  }
  sessions.close();
  return { lines };
}

// How handlers drive actuators. Every safety-monitored call tells the call which actuator it
// drove (the session's safety stop then knows what to stop), and a motion the call waits for
// (GoFor, GoTo, Move) is stopped when the call is cancelled, so cancelling an operation or
// dropping the connection really halts the hardware.
import { formatResourceName, type Resource } from "../../resource/index.js";
import type { Actuator } from "../../components/index.js";
import type { CallInfo } from "../call.js";
import { Code, SvcError } from "../../errors/index.js";

type Driven = Resource & Pick<Actuator, "stop">;

/** Marks `resource` as driven by this call and runs `command`. */
export function drive<T>(call: CallInfo, resource: Driven, command: () => Promise<T>): Promise<T> {
  call.drove(resource, formatResourceName(resource.name));
  return command();
}

/**
 * Marks `resource` as driven, runs the motion `command` and waits for it; a cancelled call stops
 * the resource and answers CANCELLED.
 */
export async function driveUntilDone(call: CallInfo, resource: Driven, rpc: string, command: () => Promise<void>): Promise<void> {
  const fullName = formatResourceName(resource.name);
  if (call.cancelled()) throw new SvcError(Code.Canceled, `${rpc} on ${fullName} was cancelled before it started`);
  call.drove(resource, fullName);
  let cancelled = false;
  const forget = call.onCancel(() => {
    cancelled = true;
    // Nobody waits for this answer any more; a stop that fails leaves the motion's own error.
    resource.stop().catch(() => {});
  });
  try {
    await command();
  } catch (thrown) {
    if (!cancelled) throw thrown;
  } finally {
    forget();
  }
  if (cancelled) throw new SvcError(Code.Canceled, `${rpc} on ${fullName} was cancelled; it has been stopped`);
}

// The core CallInfo of one connect call. When another layer already made one for the call (the
// operation the call interceptor started), that one is used as it is. Otherwise it is built
// here: cancellation from the call's signal (the client went away, the deadline passed, the
// server is shutting down, an interceptor's own signal), the session from the `viam-sid`
// header, driven actuators handed to a hook. Once the handler has settled, cancel callbacks are
// dropped: connect aborts the signal at the end of every call, cancelled or not.
import type { HandlerContext } from "@connectrpc/connect";
import type { CallInfo } from "../../../../core/index.js";

export interface ConnectCallOptions {
  /** Told about every actuator a safety-monitored call drives, with the call's session id ("" without one). */
  onActuatorDriven?(sessionId: string, name: string, resource: { stop(): Promise<void> }): void;
  /** The CallInfo already made for this call, if any (e.g. `operationOf`); used instead of building one. */
  callInfo?(context: HandlerContext): CallInfo | undefined;
}

export const SESSION_HEADER = "viam-sid";

export interface ConnectCall {
  readonly call: CallInfo;
  /** The handler has settled: forget every cancel callback. */
  settle(): void;
}

const nothingToSettle = () => {};

export function createConnectCall(context: HandlerContext, options: ConnectCallOptions): ConnectCall {
  const given = options.callInfo?.(context);
  if (given !== undefined) return { call: given, settle: nothingToSettle };
  // Read only when the handler asks: on the lean path the signal is made on first use.
  const signalOf = () => context.signal;
  const sessionId = context.requestHeader.get(SESSION_HEADER) ?? "";
  const forgets = new Set<() => void>();
  let settled = false;
  const cancelled = () => signalOf().aborted;

  const call: CallInfo = {
    method: `/${context.service.typeName}/${context.method.name}`,
    sessionId,
    cancelled,
    onCancel(fn) {
      if (settled) return () => {};
      let ran = false;
      const run = () => {
        if (ran || settled) return;
        ran = true;
        forget();
        fn();
      };
      const signal = signalOf();
      const forget = () => {
        forgets.delete(forget);
        signal.removeEventListener("abort", run);
      };
      if (signal.aborted) {
        run();
        return () => {};
      }
      forgets.add(forget);
      signal.addEventListener("abort", run);
      return forget;
    },
    drove(resource, name) {
      options.onActuatorDriven?.(sessionId, name, resource);
    },
  };
  return {
    call,
    settle() {
      settled = true;
      forgets.forEach((forget) => forget());
    },
  };
}

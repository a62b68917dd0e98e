// What every transport does with an incoming call before its handler runs: check the session it
// carries (an ended one is refused with INVALID_ARGUMENT "SESSION_EXPIRED", a live one counts as
// a heartbeat), then run the call as an operation whose CallInfo reports driven actuators to
// that session. The Linux interceptor and the MCU dispatcher both go through here.
import type { CallInfo } from "./call.js";
import { runOperation, type Operations, type RunningOperation } from "./operations.js";
import type { Sessions } from "./sessions.js";

/**
 * Calls that ignore the session they carry: the ones that set a session up or keep it alive,
 * log in, or only describe the machine, as the reference server exempts them.
 */
export const SESSION_EXEMPT_METHODS: readonly string[] = [
  "/proto.rpc.v1.AuthService/Authenticate",
  "/proto.rpc.v1.ExternalAuthService/AuthenticateTo",
  "/proto.rpc.webrtc.v1.SignalingService/Call",
  "/proto.rpc.webrtc.v1.SignalingService/CallUpdate",
  "/proto.rpc.webrtc.v1.SignalingService/OptionalWebRTCConfig",
  "/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo",
  "/grpc.reflection.v1.ServerReflection/ServerReflectionInfo",
  "/viam.robot.v1.RobotService/ResourceNames",
  "/viam.robot.v1.RobotService/ResourceRPCSubtypes",
  "/viam.robot.v1.RobotService/StartSession",
  "/viam.robot.v1.RobotService/SendSessionHeartbeat",
];

/**
 * Calls whose request carries a credential: they run as operations like any other, but their
 * arguments are never listed (GetOperations would otherwise show an API key while it is checked).
 */
export const CREDENTIAL_METHODS: readonly string[] = [
  "/proto.rpc.v1.AuthService/Authenticate",
  "/proto.rpc.v1.ExternalAuthService/AuthenticateTo",
];

export interface CallStart {
  /** Full method path, "/viam.component.motor.v1.MotorService/GoFor". */
  method: string;
  /** The session id the call carries ("viam-sid"), "" for none. */
  sessionId: string;
  /** The request as JSON, asked for only when operations are listed. */
  args?: () => unknown;
}

export interface CallRunner {
  /** Checks the session and starts the operation; the caller finishes it. Throws SESSION_EXPIRED. */
  begin(start: CallStart): RunningOperation;
  /** `begin`, then `fn` for the call's whole duration (see `runOperation`). */
  run<T>(start: CallStart, fn: (call: CallInfo) => Promise<T>): Promise<T>;
}

export interface CallRunnerOptions {
  operations: Operations;
  sessions: Sessions;
  /** Methods that ignore their session; SESSION_EXEMPT_METHODS by default. */
  sessionExempt?: readonly string[];
}

export function createCallRunner(options: CallRunnerOptions): CallRunner {
  const { operations, sessions } = options;
  const exempt = new Set(options.sessionExempt ?? SESSION_EXEMPT_METHODS);
  const secret = new Set(CREDENTIAL_METHODS);

  function begin(start: CallStart): RunningOperation {
    const sessionId = exempt.has(start.method) ? "" : start.sessionId;
    if (sessionId !== "") sessions.heartbeat(sessionId);
    return operations.begin({
      method: start.method,
      sessionId,
      args: secret.has(start.method) ? undefined : start.args,
      drove: (resource, name) => sessions.associate(sessionId, name, resource),
    });
  }

  return {
    begin,
    // Async, so a refused session rejects the promise rather than throwing at the caller.
    run: async (start, fn) => runOperation(begin(start), fn),
  };
}

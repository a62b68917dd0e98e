// Client sessions and the safety stop. A client starts a session and sends a heartbeat within
// every window; each call it makes under the session counts as one too. An actuator belongs to
// the session that last drove it (a call without a session takes it away from every session).
// When a session's window passes without a heartbeat, the session ends and every actuator still
// belonging to it is stopped, so a client that vanishes mid-movement leaves nothing moving.
import type { Clock } from "../clock.js";
import { silentLogger, type LoggerLike } from "../resource/index.js";
import { Code, errorMessage, SvcError } from "../errors/index.js";

export const DEFAULT_HEARTBEAT_WINDOW_MS = 2_000;
export const DEFAULT_MAX_SESSIONS = 1_024;

/**
 * The message of the error for an unknown or ended session: the official SDKs look for exactly
 * this (with INVALID_ARGUMENT) to drop their session and start a new one.
 */
export const SESSION_EXPIRED = "SESSION_EXPIRED";

export interface Stoppable {
  stop(): Promise<void>;
}

export interface SessionsOptions {
  clock: Clock;
  /** Makes a session id (a UUID, see `uuidFrom`). */
  newId: () => string;
  /**
   * How long a session lives without a heartbeat, or where to read it (the configuration's
   * `network.sessions.heartbeat_window`, so an edit applies to the next heartbeat). Default 2 s.
   */
  heartbeatWindowMs?: number | (() => number | undefined);
  /** Sessions alive at once; one more is refused with RESOURCE_EXHAUSTED. Default 1024. */
  maxSessions?: number;
  logger?: LoggerLike;
  /**
   * The actuator running under a full name now. When given, the safety stop stops that one, so
   * a resource rebuilt since it was driven is still stopped; otherwise the instance that was driven.
   */
  actuatorNamed?: (name: string) => Stoppable | undefined;
}

export interface StartedSession {
  id: string;
  heartbeatWindowMs: number;
  /** True when `resume` named a live session, which continues. */
  resumed: boolean;
}

export interface SessionView {
  id: string;
  /** Clock time (ms) the session ends without another heartbeat. */
  deadline: number;
  /** Full names of the actuators that would be stopped if it ended now. */
  driving: string[];
}

export interface Sessions {
  readonly heartbeatWindowMs: number;
  /** Starts a session, or continues the live session `resume` names (a new one when it is gone). */
  start(resume?: string): StartedSession;
  /** Refreshes a live session; INVALID_ARGUMENT "SESSION_EXPIRED" when there is none by that id. */
  heartbeat(id: string): void;
  /** Records that a call under `sessionId` ("" for none) drove the actuator `name`. */
  associate(sessionId: string, name: string, actuator: Stoppable): void;
  list(): SessionView[];
  /** Resolves once the safety stops under way have settled. */
  settled(): Promise<void>;
  /** Forgets every session without stopping anything (the server is going away). */
  close(): void;
}

interface Session {
  id: string;
  deadline: number;
  timer: unknown;
}

interface Driven {
  sessionId: string;
  actuator: Stoppable;
}

/** What the session table keeps. */
interface SessionsState {
  readonly options: SessionsOptions;
  readonly clock: Clock;
  readonly maxSessions: number;
  readonly logger: LoggerLike;
  readonly sessions: Map<string, Session>;
  readonly driven: Map<string, Driven>;
  stopping: Promise<unknown>[];
}

// The methods are thin: on a microcontroller each closure carries a copy of its code, so the
// work is in the module functions below, made once.
export function createSessions(options: SessionsOptions): Sessions {
  const state: SessionsState = {
    options,
    clock: options.clock,
    maxSessions: positiveOr(options.maxSessions, DEFAULT_MAX_SESSIONS),
    logger: options.logger ?? silentLogger,
    sessions: new Map(),
    driven: new Map(),
    stopping: [],
  };
  const { clock, sessions, driven } = state;
  return {
    get heartbeatWindowMs() {
      return windowMs(state);
    },
    start: (resume) => start(state, resume),
    heartbeat(id) {
      live(state, id).deadline = clock.now() + windowMs(state);
    },
    associate(sessionId, name, actuator) {
      if (sessionId === "") {
        driven.delete(name);
        return;
      }
      if (sessions.has(sessionId)) driven.set(name, { sessionId, actuator });
    },
    list() {
      const views: SessionView[] = [];
      sessions.forEach((s) => views.push({ id: s.id, deadline: s.deadline, driving: drivenBy(driven, s.id) }));
      return views;
    },
    async settled() {
      while (state.stopping.length > 0) await Promise.all(state.stopping);
    },
    close() {
      sessions.forEach((s) => clock.clearTimeout(s.timer));
      sessions.clear();
      driven.clear();
    },
  };
}

function windowMs(state: SessionsState): number {
  const window = state.options.heartbeatWindowMs;
  return positiveOr(typeof window === "function" ? window() : window, DEFAULT_HEARTBEAT_WINDOW_MS);
}

function start(state: SessionsState, resume: string | undefined): StartedSession {
  const { clock, sessions } = state;
  if (resume) {
    const existing = sessions.get(resume);
    if (existing && existing.deadline > clock.now()) {
      existing.deadline = clock.now() + windowMs(state);
      return { id: resume, heartbeatWindowMs: windowMs(state), resumed: true };
    }
  }
  if (sessions.size >= state.maxSessions) {
    throw new SvcError(Code.ResourceExhausted, `too many sessions at once (${state.maxSessions}); end one or let it lapse`);
  }
  let id = state.options.newId();
  while (sessions.has(id)) id = state.options.newId();
  const ms = windowMs(state);
  const session: Session = { id, deadline: clock.now() + ms, timer: undefined };
  sessions.set(id, session);
  arm(state, session);
  return { id, heartbeatWindowMs: ms, resumed: false };
}

// One timer per session, set for its deadline. A heartbeat only moves the deadline; the timer,
// when it fires early, sets itself again for what is left.
function arm(state: SessionsState, session: Session): void {
  session.timer = state.clock.setTimeout(() => expireIfDue(state, session), session.deadline - state.clock.now());
}

function expireIfDue(state: SessionsState, session: Session): void {
  if (state.sessions.get(session.id) !== session) return;
  if (session.deadline > state.clock.now()) {
    arm(state, session);
    return;
  }
  state.sessions.delete(session.id);
  safetyStop(state, session.id);
}

function safetyStop(state: SessionsState, id: string): void {
  const { driven, logger } = state;
  const names = drivenBy(driven, id);
  if (names.length === 0) {
    logger.debug(`session ${id} ended: no heartbeat for ${windowMs(state)} ms`, { session: id });
    return;
  }
  logger.warn(`session ${id} ended without a heartbeat for ${windowMs(state)} ms: stopping ${names.join(", ")}`, {
    session: id,
    resources: names,
  });
  for (const name of names) {
    const recorded = driven.get(name)!.actuator;
    driven.delete(name);
    const done = stopActuator(state.options.actuatorNamed?.(name) ?? recorded, name, id, logger);
    state.stopping.push(done);
    void done.then(() => {
      state.stopping = state.stopping.filter((p) => p !== done);
    });
  }
}

function live(state: SessionsState, id: string): Session {
  const session = state.sessions.get(id);
  // A timer may not have fired yet for a session that is already past its deadline.
  if (!session || session.deadline <= state.clock.now()) {
    if (session) expireIfDue(state, session);
    throw new SvcError(Code.InvalidArgument, SESSION_EXPIRED);
  }
  return session;
}

/** The actuators a session drove last. */
function drivenBy(driven: ReadonlyMap<string, Driven>, sessionId: string): string[] {
  const names: string[] = [];
  driven.forEach((d, name) => {
    if (d.sessionId === sessionId) names.push(name);
  });
  return names;
}

/** Stops one actuator a lapsed session left driving; how it went is logged, never thrown. */
function stopActuator(actuator: Stoppable, name: string, session: string, logger: LoggerLike): Promise<unknown> {
  return Promise.resolve()
    .then(() => actuator.stop())
    .then(
      () => logger.info(`safety stop: stopped ${name}`, { session, resource: name }),
      (thrown) => logger.error(`safety stop: could not stop ${name}: ${errorMessage(thrown)}`, { session, resource: name }),
    );
}

function positiveOr(value: number | undefined, fallback: number): number {
  return typeof value === "number" && value > 0 && isFinite(value) ? value : fallback;
}

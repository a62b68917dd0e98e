// Every call in flight is an operation: it has an id, its method, its request (as JSON, worked
// out only when someone lists it, so the hot path pays nothing), a start time and its session.
// Operations can be listed, cancelled (whatever the handler hooked with onCancel runs, and the
// call answers CANCELED) and waited for, which is what GetOperations, CancelOperation and
// BlockForOperation serve.
import type { Clock } from "../clock.js";
import { silentLogger, type LoggerLike } from "../resource/index.js";
import type { CallInfo } from "./call.js";
import { Code, errorMessage, SvcError } from "../errors/index.js";

/** Longest request JSON an operation lists; longer ones are listed by their length only. */
export const DEFAULT_MAX_ARGUMENTS_LENGTH = 16_384;

export interface OperationStart {
  /** Full method path, "/viam.component.motor.v1.MotorService/GoFor". */
  method: string;
  /** The call's session, "" (or absent) when it has none. */
  sessionId?: string;
  /** The request as JSON; called only when the operation is listed. */
  args?: () => unknown;
  /** Told when the handler reports an actuator it drove (the session safety stop listens). */
  drove?: (resource: { stop(): Promise<void> }, name: string) => void;
}

/** An operation as GetOperations lists it. */
export interface OperationView {
  id: string;
  method: string;
  /** The request as a JSON object, or `{ truncated: true, length }` when it is too long to list. */
  arguments: Record<string, unknown>;
  /** Clock time (ms) the call started. */
  started: number;
  /** "" when the call has no session. */
  sessionId: string;
}

/** A call in flight. It is the CallInfo its handler receives. */
export interface RunningOperation extends CallInfo {
  readonly id: string;
  readonly started: number;
  /** Cancels the call once: the onCancel hooks run, and `reason` (CANCELED by default) is its answer. */
  cancel(reason?: SvcError): void;
  /** Why the call was cancelled; undefined while it was not. */
  cancelReason(): SvcError | undefined;
  /** Ends the operation: it leaves the list and whoever waits for it resumes. Later calls do nothing. */
  finish(): void;
}

export interface Operations {
  begin(start: OperationStart): RunningOperation;
  /** Runs `fn` as an operation for its whole duration; see `runOperation`. */
  run<T>(start: OperationStart, fn: (call: RunningOperation) => Promise<T>): Promise<T>;
  /** Every operation in flight, oldest first, leaving out `except` (the caller's own). */
  list(except?: CallInfo): OperationView[];
  /** Cancels an operation; NOT_FOUND when no operation has that id (it may have just ended). */
  cancel(id: string, reason?: SvcError): void;
  /** Cancels every operation but `except`; returns how many. */
  cancelAll(except?: CallInfo, reason?: SvcError): number;
  /** Resolves when the operation ends; at once when none has that id (ended or never was). */
  wait(id: string): Promise<void>;
  count(): number;
}

export interface OperationsOptions {
  clock: Clock;
  /** Makes an operation id (a UUID, see `uuidFrom`). */
  newId: () => string;
  maxArgumentsLength?: number;
  /** Where a failing onCancel hook is reported. */
  logger?: LoggerLike;
}

/**
 * Runs `fn` as `op` and finishes it however `fn` ends. A cancelled call answers the cancel reason
 * even when its handler returned normally (a stopped GoFor returns; its caller must still learn
 * that it was cut short).
 */
export function runOperation<T>(op: RunningOperation, fn: (call: RunningOperation) => Promise<T>): Promise<T> {
  // Not an async function: every call runs through here, and one `then` is the whole cost.
  let pending: Promise<T>;
  try {
    // A handler's plain value is taken as well as its promise (which Promise.resolve hands back as it is).
    pending = Promise.resolve(fn(op));
  } catch (thrown) {
    op.finish();
    return Promise.reject(op.cancelReason() ?? thrown);
  }
  return pending.then(
    (result) => {
      op.finish();
      const reason = op.cancelReason();
      if (reason) throw reason;
      return result;
    },
    (thrown: unknown) => {
      op.finish();
      throw op.cancelReason() ?? thrown;
    },
  );
}

// One call in flight, with its methods shared on the prototype: beginning an operation is one
// object, not a closure per method, since every call to the machine begins one.
class Operation implements RunningOperation {
  readonly sessionId: string;
  readonly method: string;
  private reason: SvcError | undefined;
  private hooks: Array<() => void> | undefined;
  private finished = false;
  /** The request as listed, worked out on first listing. */
  listedArgs: Record<string, unknown> | undefined;
  waiters: Array<() => void> | undefined;

  constructor(
    readonly id: string,
    readonly start: OperationStart,
    readonly started: number,
    private readonly book: OperationBook,
  ) {
    this.method = start.method;
    this.sessionId = start.sessionId ?? "";
  }

  cancelled(): boolean {
    return this.reason !== undefined;
  }

  onCancel(fn: () => void): () => void {
    if (this.reason !== undefined) {
      this.runHook(fn);
      return noop;
    }
    if (this.finished) return noop;
    (this.hooks ??= []).push(fn);
    return () => {
      this.hooks = this.hooks?.filter((h) => h !== fn);
    };
  }

  drove(resource: { stop(): Promise<void> }, name: string): void {
    this.start.drove?.(resource, name);
  }

  cancel(why?: SvcError): void {
    if (this.reason !== undefined || this.finished) return;
    this.reason = why ?? new SvcError(Code.Canceled, `operation ${this.id} (${this.method}) was cancelled`);
    const fns = this.hooks ?? [];
    this.hooks = undefined;
    for (const fn of fns) this.runHook(fn);
  }

  cancelReason(): SvcError | undefined {
    return this.reason;
  }

  finish(): void {
    if (this.finished) return;
    this.finished = true;
    this.hooks = undefined;
    this.book.running.delete(this.id);
    for (const resume of this.waiters ?? []) resume();
  }

  private runHook(fn: () => void): void {
    try {
      fn();
    } catch (thrown) {
      this.book.logger.error(`cancelling ${this.method}: a cancel hook failed: ${errorMessage(thrown)}`, { operation: this.id });
    }
  }
}

interface OperationBook {
  readonly running: Map<string, Operation>;
  readonly logger: LoggerLike;
}

const noop = () => {};

export function createOperations(options: OperationsOptions): Operations {
  const { clock, newId } = options;
  const maxLength = options.maxArgumentsLength ?? DEFAULT_MAX_ARGUMENTS_LENGTH;
  const book: OperationBook = { running: new Map(), logger: options.logger ?? silentLogger };
  const running = book.running;

  function begin(start: OperationStart): RunningOperation {
    let id = newId();
    while (running.has(id)) id = newId();
    const op = new Operation(id, start, clock.now(), book);
    running.set(id, op);
    return op;
  }

  function argumentsOf(op: Operation): Record<string, unknown> {
    return (op.listedArgs ??= boundArguments(op.start.args, maxLength));
  }

  return {
    begin,
    run: (start, fn) => runOperation(begin(start), fn),
    list(except) {
      const views: OperationView[] = [];
      running.forEach((op) => {
        if (op === except) return;
        const { id, method, started, sessionId } = op;
        views.push({ id, method, arguments: argumentsOf(op), started, sessionId });
      });
      return views;
    },
    cancel(id, reason) {
      const op = running.get(id);
      if (!op) throw new SvcError(Code.NotFound, `no operation ${JSON.stringify(id)} is running`);
      op.cancel(reason);
    },
    cancelAll(except, reason) {
      let n = 0;
      for (const op of Array.from(running.values())) {
        if (op === except) continue;
        op.cancel(reason);
        n++;
      }
      return n;
    },
    wait(id) {
      const op = running.get(id);
      if (!op) return Promise.resolve();
      return new Promise<void>((resolve) => (op.waiters ??= []).push(resolve));
    },
    count: () => running.size,
  };
}

function boundArguments(args: (() => unknown) | undefined, maxLength: number): Record<string, unknown> {
  if (args === undefined) return {};
  let value: unknown;
  let text: string | undefined;
  try {
    value = args();
    text = JSON.stringify(value);
  } catch (thrown) {
    return { unreadable: errorMessage(thrown) };
  }
  if (text === undefined) return {};
  if (text.length > maxLength) return { truncated: true, length: text.length };
  if (value !== null && typeof value === "object" && !Array.isArray(value)) return value as Record<string, unknown>;
  return { value };
}

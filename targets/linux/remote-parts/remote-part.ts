// One remote part of the machine, from dialling it to closing it. It is dialled (directly, or over
// WebRTC through svc-cloud when the direct way cannot reach it: remote-route.ts), signed in to and
// listed (ResourceNames); listed again every connection_check_interval. When the connection goes
// away, or signing in or a listing fails or takes too long, it is unreachable: it says why, keeps
// what it listed (so its resources stay listed, unavailable), fails calls at once, and is dialled
// again with backoff (reconnect-backoff.ts) until it answers. Whatever changes (what it lists,
// whether it can be reached) is told to `onChange`; its owner joins that to the graph. Calls for
// its resources pass through it as bytes (a RawPeer), with its credentials.
import { create, toBinary } from "@bufbuild/protobuf";
import { ConnectError } from "@connectrpc/connect";
import { Code, errorMessage, type Clock, type LoggerLike, type RemoteConfig } from "../../../core/index.js";
import { ResourceNamesRequestSchema, ResourceRPCSubtypesRequestSchema, RobotService } from "../../../proto/gen/robot/v1/robot_pb.js";
import type { RawPeer, RawUnaryCall } from "../remote/index.js";
import { createReconnectBackoff, type ReconnectBackoff } from "./reconnect-backoff.js";
import { createRemoteCredentials, type RemoteCredentials } from "./remote-credentials.js";
import { MAX_LISTING_BYTES, readListing, sameResources, type Listing } from "./remote-listing.js";
import { readServices, sameServices } from "./remote-services.js";
import { createRemoteRoute, type RemoteRoute } from "./remote-route.js";
import { createRemoteTransport, type RemoteTransport } from "./remote-transport.js";
import type { CloudDialer } from "./webrtc-session.js";

/** How long signing in or one listing may take before the remote counts as unreachable. */
export const REMOTE_CALL_TIMEOUT_MS = 5_000;

const listPath = `/${RobotService.typeName}/${RobotService.method.resourceNames.name}`;
const listRequest = toBinary(ResourceNamesRequestSchema, create(ResourceNamesRequestSchema));
const subtypesPath = `/${RobotService.typeName}/${RobotService.method.resourceRPCSubtypes.name}`;
const subtypesRequest = toBinary(ResourceRPCSubtypesRequestSchema, create(ResourceRPCSubtypesRequestSchema));

export interface RemotePartOptions {
  readonly config: RemoteConfig;
  readonly clock: Clock;
  readonly logger: LoggerLike;
  /** Numbers in [0, 1) for the backoff's jitter; Math.random by default. */
  readonly random?: () => number;
  /** Told whenever what it lists, or whether it can be reached, changes. */
  readonly onChange: () => void;
  readonly callTimeoutMs?: number;
  /** The dialer over WebRTC through svc-cloud while this machine follows svc-cloud; none otherwise. */
  readonly throughCloud?: () => CloudDialer | undefined;
}

export type PartPhase = "connecting" | "connected" | "unreachable" | "closed";

export interface RemotePart extends RawPeer {
  readonly config: RemoteConfig;
  readonly phase: PartPhase;
  /** Why it cannot be reached, while it cannot. */
  readonly reason: string | undefined;
  /** Clock time of the last change of phase or reason. */
  readonly changedAt: number;
  /** What it listed last; kept while it cannot be reached. */
  readonly listing: Listing;
  /** The name the remote knows a resource by, from its name here (`pi:left` -> `left`). */
  remoteNameOf(name: string): string | undefined;
  /** For the typed stand-ins of its resources. */
  readonly transport: RemoteTransport;
  close(): void;
}

/** Everything a part knows, moved by the phases below. */
interface PartState {
  phase: PartPhase;
  reason: string | undefined;
  changedAt: number;
  listing: Listing;
  /** Name here -> name there. */
  remoteNames: Map<string, string>;
  /** The check or the next dial. */
  timer: unknown;
  /** Counts dials; what a dial finds after a newer one began is dropped. */
  attempt: number;
}

interface PartParts {
  readonly options: RemotePartOptions;
  readonly label: string;
  readonly session: RemoteRoute;
  readonly credentials: RemoteCredentials;
  readonly backoff: ReconnectBackoff;
  readonly timeoutMs: number;
}

export function createRemotePart(options: RemotePartOptions): RemotePart {
  const { config, clock } = options;
  const label = `remote ${config.name}`;
  const state: PartState = {
    phase: "connecting",
    reason: undefined,
    changedAt: clock.now(),
    listing: { resources: [], leftOut: [], services: new Map() },
    remoteNames: new Map(),
    timer: undefined,
    attempt: 0,
  };
  const onGone = (why: string | undefined) => lost(parts, state, why === undefined ? "the connection was lost" : `the connection was lost: ${why}`);
  const timeoutMs = options.callTimeoutMs ?? REMOTE_CALL_TIMEOUT_MS;
  const throughCloud = options.throughCloud ?? (() => undefined);
  const session = createRemoteRoute({ config, peer: label, clock, connectTimeoutMs: timeoutMs, throughCloud, onGone });
  const signInDeadline = () => deadline(clock, timeoutMs, `${label} did not answer Authenticate within ${timeoutMs} ms`).signal;
  const credentials = createRemoteCredentials({ auth: config.auth, send: session.call, deadline: signInDeadline });
  const backoff = createReconnectBackoff(config.reconnect_interval_ms, options.random);
  const parts: PartParts = { options, label, session, credentials, backoff, timeoutMs };
  const webRtc = { active: () => session.way() === "webrtc", call: session.webRtc };
  const transport = createRemoteTransport({ url: config.url, credentials, remoteNameOf: (name) => state.remoteNames.get(name), webRtc });
  void dial(parts, state);

  return {
    config,
    get phase() {
      return state.phase;
    },
    get reason() {
      return state.reason;
    },
    get changedAt() {
      return state.changedAt;
    },
    get listing() {
      return state.listing;
    },
    remoteNameOf: (name) => state.remoteNames.get(name),
    transport,
    rawUnary(call: RawUnaryCall) {
      if (state.phase !== "connected") return Promise.reject(unavailable(label, state));
      return credentials.withToken(call, session.pass);
    },
    close() {
      if (state.phase === "closed") return;
      state.phase = "closed";
      state.changedAt = clock.now();
      clock.clearTimeout(state.timer);
      session.close();
      transport.close();
    },
  };
}

/** Connects, signs in and lists; connected when all three succeed, unreachable otherwise. */
async function dial(parts: PartParts, state: PartState): Promise<void> {
  const attempt = ++state.attempt;
  try {
    await parts.session.connect();
    await parts.credentials.signIn();
    const listing = await list(parts);
    if (attempt !== state.attempt || state.phase === "closed") return;
    connected(parts, state, listing);
  } catch (thrown) {
    if (attempt === state.attempt) unreachable(parts, state, why(parts, thrown));
  }
}

/** The remote's ResourceNames and ResourceRPCSubtypes, read within bounds. */
async function list(parts: PartParts): Promise<Listing> {
  const { options, label, timeoutMs } = parts;
  const names = await ask(parts, listPath, listRequest, `${label} did not answer ResourceNames within ${timeoutMs} ms`);
  let listing: Omit<Listing, "services">;
  try {
    listing = readListing(names, options.config);
  } catch (thrown) {
    throw new ConnectError(`its ResourceNames answer cannot be read: ${errorMessage(thrown)}`, Code.Internal);
  }
  let subtypes: Uint8Array;
  try {
    subtypes = await ask(parts, subtypesPath, subtypesRequest, `${label} did not answer ResourceRPCSubtypes within ${timeoutMs} ms`);
  } catch (thrown) {
    // A part that does not say which services serve its APIs is reached through the ones svc serves.
    if (thrown instanceof ConnectError && thrown.code === Code.Unimplemented) return { ...listing, services: new Map() };
    throw thrown;
  }
  try {
    return { ...listing, services: readServices(subtypes, new Set(listing.resources.map((r) => r.api))) };
  } catch (thrown) {
    // Its resources are joined all the same; only APIs svc serves itself can be called.
    const note = `its ResourceRPCSubtypes answer cannot be read (${errorMessage(thrown)}): only APIs svc-server serves itself are called on it`;
    return { ...listing, leftOut: [...listing.leftOut, note], services: new Map() };
  }
}

/** One of the part's own calls, with its credentials, within the call timeout. */
async function ask(parts: PartParts, path: string, message: Uint8Array, late: string): Promise<Uint8Array> {
  const { signal, release } = deadline(parts.options.clock, parts.timeoutMs, late);
  try {
    return await parts.credentials.withToken({ path, message, cancel: signal, maxAnswerBytes: MAX_LISTING_BYTES });
  } finally {
    release();
  }
}

function connected(parts: PartParts, state: PartState, listing: Listing): void {
  const { options } = parts;
  const was = state.phase;
  parts.backoff.reset();
  state.phase = "connected";
  state.reason = undefined;
  state.changedAt = options.clock.now();
  adopt(state, listing);
  const way = parts.session.way() === "webrtc" ? " over WebRTC through svc-cloud" : "";
  const fields = { remote: options.config.name, resources: listing.resources.length };
  options.logger.info(`${parts.label} ${was === "connecting" ? "connected" : "is reachable again"}${way}`, fields);
  options.onChange();
  scheduleCheck(parts, state);
}

/** Lists again after connection_check_interval; a failure makes the part unreachable. */
function scheduleCheck(parts: PartParts, state: PartState): void {
  const { clock, config } = parts.options;
  state.timer = clock.setTimeout(() => {
    const attempt = state.attempt;
    list(parts).then(
      (listing) => {
        if (attempt !== state.attempt || state.phase !== "connected") return;
        const same = sameResources(state.listing.resources, listing.resources) && sameServices(state.listing.services, listing.services);
        if (!same || state.listing.leftOut.join() !== listing.leftOut.join()) {
          adopt(state, listing);
          parts.options.onChange();
        }
        scheduleCheck(parts, state);
      },
      (thrown: unknown) => {
        if (attempt === state.attempt && state.phase === "connected") unreachable(parts, state, why(parts, thrown));
      },
    );
  }, config.connection_check_interval_ms);
}

/** The connection went away while connected: unreachable at once, not at the next check. */
function lost(parts: PartParts, state: PartState, reason: string): void {
  if (state.phase === "connected") unreachable(parts, state, reason);
}

function unreachable(parts: PartParts, state: PartState, reason: string): void {
  const { options, label } = parts;
  if (state.phase === "closed") return;
  const { clock } = options;
  clock.clearTimeout(state.timer);
  state.attempt++;
  parts.session.reset();
  parts.credentials.forget();
  const news = state.phase !== "unreachable" || state.reason !== reason;
  const wait = parts.backoff.next();
  if (news) {
    // The drop is a warning; what a failing dial says after it is news of the same outage.
    const write = state.phase === "unreachable" && state.reason !== reason ? options.logger.info : options.logger.warn;
    state.changedAt = clock.now();
    state.phase = "unreachable";
    state.reason = reason;
    write.call(options.logger, `${label} is unavailable: ${reason}`, { remote: options.config.name, retry_in_ms: wait });
    options.onChange();
  }
  state.timer = clock.setTimeout(() => void dial(parts, state), wait);
}

function adopt(state: PartState, listing: Listing): void {
  state.listing = listing;
  state.remoteNames = new Map(listing.resources.map((r) => [r.name, r.remoteName]));
}

/** What a call for one of its resources hears while it cannot be reached. */
function unavailable(label: string, state: PartState): ConnectError {
  if (state.phase === "closed") return new ConnectError(`${label} is no longer configured`, Code.Unavailable);
  if (state.phase === "connecting") return new ConnectError(`${label} is not connected yet`, Code.Unavailable);
  return new ConnectError(`${label} is unavailable: ${state.reason}`, Code.Unavailable);
}

/** A failure in words: the connection's own error when it broke, the remote's refusal as such. */
function why(parts: PartParts, thrown: unknown): string {
  if (!(thrown instanceof ConnectError)) return errorMessage(thrown);
  if (thrown.code === Code.Unavailable) return parts.session.failure() ?? thrown.rawMessage;
  if (thrown.code === Code.Unauthenticated || thrown.code === Code.PermissionDenied) {
    const asked = parts.options.config.auth === undefined ? 'it asks for credentials (give it "auth")' : "it refused the credentials";
    return `${asked}: ${thrown.rawMessage}`;
  }
  return thrown.rawMessage;
}

/** A signal that aborts after `ms` of the clock, with a DEADLINE_EXCEEDED saying `what`; `release` when done waiting. */
function deadline(clock: Clock, ms: number, what: string): { signal: AbortSignal; release(): void } {
  const controller = new AbortController();
  const timer = clock.setTimeout(() => controller.abort(new ConnectError(what, Code.DeadlineExceeded)), ms);
  return { signal: controller.signal, release: () => clock.clearTimeout(timer) };
}

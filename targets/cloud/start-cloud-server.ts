// svc-cloud as a running service: opens the store, makes the token issuer and serves the API and
// the HTTP routes on one port until closed.
import { hostname } from "node:os";
import { every, type Clock } from "../../core/index.js";
import { createRpcHandler } from "../../node/rpc/rpc-handler.js";
import { LOG_WIRE_INPUTS } from "./api/logs-device.js";
import { httpRoutes, registerApi } from "./api/index.js";
import { ANSWER_PATH, ANSWER_QUIET_MS } from "./api/signaling-answer.js";
import { createLoginLimiter } from "./auth/login-limiter.js";
import { createTokenIssuer } from "./auth/token-issuer.js";
import { createLogBus } from "./fleet/log-bus.js";
import { startLogRetention } from "./fleet/log-retention.js";
import { createPartlessConfigs } from "./fleet/partless-configs.js";
import { createRevisionBus } from "./fleet/revision-bus.js";
import { createLocalChannel, type ReplicaChannel } from "./fleet/replica-channel.js";
import { openPostgresChannel } from "./fleet/postgres-channel.js";
import { followForeignWrites } from "./fleet/foreign-writes.js";
import { currentRevisions } from "./storage/revisions.js";
import type { IceServer } from "./fleet/ice-servers.js";
import { createSignalingRelay } from "./fleet/signaling-relay.js";
import { createAnswererRegistry } from "./fleet/answerer-registry.js";
import { createReplicatedSignaling } from "./fleet/replicated-signaling.js";
import { localSignaling, type Signaling } from "./fleet/signaling.js";
import { createAddressLog } from "./server/address-log.js";
import { openStore, type Store } from "./storage/open-store.js";
import { sweepUnfinishedUploads } from "./storage/part-files.js";
import { claimServeLock } from "./storage/serve-lock.js";
import { claimDatabase } from "./storage/postgres-serve-lock.js";
import { createAuthInterceptor, PUBLIC_METHOD_PATHS } from "./server/auth-interceptor.js";
import { peerAddressKey } from "./server/caller.js";
import type { CloudContext } from "./server/cloud-context.js";
import { createErrorInterceptor } from "./server/error-interceptor.js";
import { createHttpFallback } from "./server/http-routes.js";
import { listen, type Listening, type RequestHandler } from "./server/listen.js";
import { createStreamLimitInterceptor } from "./server/stream-limit.js";
import { writeSetting } from "./storage/settings.js";
import { ensureCertificateAuthority } from "./fleet/certificate-authority.js";
import { createCallValues } from "../../node/rpc/call-values.js";
import type { StreamTaker } from "../../node/rpc/streams-first.js";

export interface CloudServerOptions {
  dataDir: string;
  /** The PostgreSQL the state is in (`--database`); the data folder's SQLite file when absent. */
  database?: string;
  host: string;
  port: number;
  /** The address machines and people use (`--public-url`); by default the listening address. */
  publicUrl?: string;
  tls?: { cert: Buffer; key: Buffer };
  clock: Clock;
  log: (line: string) => void;
  /** How long a request's body may send nothing before it is let go (10 s by default). */
  bodyStallMs?: number;
  /** The ICE servers callers and machines are told to use (`--ice-server`); none by default. */
  iceServers?: readonly IceServer[];
}

export interface CloudServer {
  readonly port: number;
  readonly context: CloudContext;
  close(): Promise<void>;
}

/** The largest request or answer message, in bytes: a whole machine config fits with room to spare. */
export const MAX_MESSAGE_BYTES = 4 * 1024 * 1024;
/** The largest body of a call made without a token (signing in, accepting an invitation). */
export const OPEN_METHOD_MAX_BYTES = 64 * 1024;
/** How long an access token is valid. */
export const TOKEN_LIFETIME_MS = 60 * 60_000;
/** How old the key that signs tokens may grow before a new one takes over (checked hourly). */
export const SIGNING_KEY_MAX_AGE_MS = 30 * 24 * 60 * 60_000;

export async function startCloudServer(options: CloudServerOptions): Promise<CloudServer> {
  const store = await openStore(options.dataDir, options.database);
  let listening: Listening | undefined;
  let releaseLock = () => {};
  let releaseDatabase = async () => {};
  let channel: ReplicaChannel | undefined;
  let signaling: Signaling | undefined;
  try {
    releaseLock = claimServeLock(options.dataDir);
    if (options.database !== undefined) releaseDatabase = await claimDatabase(options.database, "serve", { clock: options.clock, log: options.log });
    channel = options.database === undefined ? createLocalChannel() : await openPostgresChannel({ url: options.database, db: store.db, clock: options.clock, log: options.log });
    // The port is known once listening (a test asks for port 0); the handler follows at once.
    let handler: RequestHandler = (_req, res) => {
      res.statusCode = 503;
      res.end();
    };
    // Until the API is ready every request goes to `handler`, which says so.
    let takeStream: StreamTaker = () => false;
    listening = await listen({
      host: options.host,
      port: options.port,
      tls: options.tls,
      handler: (req, res) => handler(req, res),
      takeStream: (stream, headers, rawHeaders) => takeStream(stream, headers, rawHeaders),
      bodyStallMs: options.bodyStallMs,
      quietBodies: new Map([[ANSWER_PATH, ANSWER_QUIET_MS]]),
    });
    const stopFollowing = followForeignWrites(store, channel);
    signaling = await signalingFor(store, channel, options);
    const revisions = createRevisionBus({ channel, current: (partIds) => currentRevisions(store.db, partIds), log: options.log });
    const publicUrl = options.publicUrl ?? listeningUrl(options.host, listening.port, options.tls !== undefined);
    const context: CloudContext = {
      store,
      clock: options.clock,
      issuer: createTokenIssuer({ store, clock: options.clock, lifetimeMs: TOKEN_LIFETIME_MS, audience: "svc-cloud" }),
      limiter: createLoginLimiter({ store, clock: options.clock }),
      revisions,
      logs: createLogBus(),
      partlessConfigs: createPartlessConfigs(),
      publicUrl,
      dataDir: options.dataDir,
      signaling,
      iceServers: options.iceServers ?? [],
      addressLog: createAddressLog({ clock: options.clock, log: options.log }),
    };
    await writeSetting(store.db, "public_url", publicUrl);
    const swept = await sweepUnfinishedUploads(options.dataDir, store.db);
    if (swept > 0) options.log(`svc-cloud: removed ${swept} file(s) left by uploads cut short when svc-cloud last stopped`);
    // A data folder made before svc-cloud had a certificate authority gets one at its first start.
    await ensureCertificateAuthority(store.db, options.clock.now());
    const stopping = new AbortController();
    const rpc = createRpcHandler({
      routes: (router) => registerApi(router, context),
      interceptors: [createErrorInterceptor(options.log), createAuthInterceptor(context), createStreamLimitInterceptor()],
      shutdownSignal: stopping.signal,
      contextValues: (req) => createCallValues().set(peerAddressKey, req.socket?.remoteAddress ?? ""),
      limits: { maxMessageBytes: MAX_MESSAGE_BYTES, openMethodMaxBytes: OPEN_METHOD_MAX_BYTES },
      openMethods: PUBLIC_METHOD_PATHS,
      wireInputs: LOG_WIRE_INPUTS,
      onError: (thrown, path) => options.log(`svc-cloud: ${path} failed: ${(thrown as Error)?.stack ?? String(thrown)}`),
    });
    const fallback = createHttpFallback(httpRoutes(), context, options.log);
    handler = (req, res) => {
      if (!rpc.serve(req, res, pathOf(req))) fallback(req, res);
    };
    // A machine's gRPC call over HTTP/2 is served straight from its stream.
    takeStream = (stream, headers, rawHeaders) => rpc.serveStream(stream, headers, rawHeaders);
    const rotation = startRotation(context, options.log);
    const retention = startLogRetention({ db: store.db, clock: options.clock, log: options.log });
    const open = listening;
    const replicas = channel;
    const relay = signaling;
    return {
      port: open.port,
      context,
      close: async () => {
        stopping.abort();
        rotation();
        retention.stop();
        revisions.close();
        stopFollowing();
        await relay.close();
        await replicas.close();
        await closeAll(open, store);
        await releaseDatabase();
        releaseLock();
      },
    };
  } catch (thrown) {
    await signaling?.close();
    await channel?.close();
    await listening?.close();
    await store.close();
    await releaseDatabase();
    releaseLock();
    throw thrown;
  }
}

/** One relay when svc-cloud is the only process (SQLite); relays finding each other through the store and the channel on PostgreSQL. */
async function signalingFor(store: Store, channel: ReplicaChannel, options: CloudServerOptions): Promise<Signaling> {
  const relay = createSignalingRelay({ clock: options.clock });
  if (options.database === undefined) return localSignaling(relay);
  const registry = await createAnswererRegistry({ db: store.db, clock: options.clock, log: options.log });
  return createReplicatedSignaling({ relay, registry, channel, clock: options.clock, log: options.log });
}

/** A request's path, without its query. */
function pathOf(req: { url?: string }): string {
  const url = req.url ?? "/";
  const query = url.indexOf("?");
  return query < 0 ? url : url.slice(0, query);
}

/** Rotates the signing key once it is too old: now, and every hour after. */
function startRotation(context: CloudContext, log: (line: string) => void): () => void {
  const check = () => {
    context.issuer.rotateIfOlderThan(SIGNING_KEY_MAX_AGE_MS).then(
      (rotated) => rotated && log("svc-cloud: the token signing key was rotated (tokens it signed stay valid until they expire)"),
      (thrown: unknown) => log(`svc-cloud: rotating the token signing key failed: ${(thrown as Error).message}`),
    );
  };
  check();
  return every(context.clock, 60 * 60_000, check);
}

async function closeAll(listening: Listening, store: Store): Promise<void> {
  await listening.close();
  await store.close();
}

/** The listening address as a URL; a wildcard address is no address to give a machine, so the host's name stands in. */
function listeningUrl(host: string, port: number, tls: boolean): string {
  const name = host === "0.0.0.0" || host === "::" ? hostname() : host;
  return `${tls ? "https" : "http"}://${name.includes(":") ? `[${name}]` : name}:${port}`;
}

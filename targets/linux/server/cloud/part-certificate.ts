// The part's certificate from svc-cloud (RobotService.Certificate), kept fresh: asked for at start
// unless the cached one is younger than an hour, every hour after (as Viam refreshes it), and
// whenever svc-cloud is reachable again after an outage while the one held is stale. A new one
// (different PEM) is checked usable, kept in the cache and offered to the API port. A cloud that
// cannot be reached or answers something unusable changes nothing: the port keeps what it had.
import { ConnectError } from "@connectrpc/connect";
import { coalescedRun, every, type Clock, type Logger } from "../../../../core/index.js";
import type { CloudConnection } from "../../cloud-link/cloud-connection.js";
import { unusableCertificate, type CertificateCache, type PartCertificate } from "./certificate-cache.js";

export const CERTIFICATE_REFRESH_MS = 60 * 60_000;

export interface PartCertificateOptions {
  connection: CloudConnection;
  partId: string;
  cache: CertificateCache;
  /** The certificate read from the cache at boot, if any. */
  booted?: PartCertificate;
  clock: Clock;
  log: Logger;
  /** Told of each new usable certificate (the port offers TLS with it). */
  offer(certificate: PartCertificate): void;
}

export interface PartCertificateKeeper {
  current(): PartCertificate | undefined;
  /** Asks svc-cloud when the certificate held is missing or stale. */
  refreshIfStale(): Promise<void>;
  close(): Promise<void>;
}

export function followPartCertificate(options: PartCertificateOptions): PartCertificateKeeper {
  const { connection, partId, cache, clock, log } = options;
  let held = options.booted;
  let closed = false;
  const closing = new AbortController();
  const stale = () => held === undefined || clock.now() - held.fetchedAt >= CERTIFICATE_REFRESH_MS;

  // Phase: ask svc-cloud.
  async function fetchCertificate(): Promise<{ cert: string; key: string } | undefined> {
    try {
      const answer = await connection.robot.certificate({ id: partId }, { signal: closing.signal });
      if (answer.tlsCertificate === "" && answer.tlsPrivateKey === "") return undefined;
      return { cert: answer.tlsCertificate, key: answer.tlsPrivateKey };
    } catch (thrown) {
      if (!closing.signal.aborted) log.debug("cannot fetch the machine's certificate from svc-cloud; it is asked for again later", { error: ConnectError.from(thrown).message });
      return undefined;
    }
  }

  // Phase: a usable certificate only, kept and offered when it is new.
  async function take(fetched: { cert: string; key: string }): Promise<void> {
    const problem = unusableCertificate(fetched);
    if (problem !== undefined) {
      log.warn("svc-cloud answered a certificate that cannot be used; the port keeps what it offers", { problem });
      return;
    }
    const fresh = held === undefined || held.cert !== fetched.cert || held.key !== fetched.key;
    held = { ...fetched, fetchedAt: clock.now() };
    try {
      await cache.write(held);
    } catch (thrown) {
      log.warn("cannot keep the machine's certificate for the next boot", { file: cache.path, error: String(thrown) });
    }
    if (fresh && !closed) options.offer(held);
  }

  const fetches = coalescedRun(async () => {
    if (!stale()) return;
    const fetched = await fetchCertificate();
    if (fetched && !closed) await take(fetched);
  }, () => closed);

  void fetches.request();
  const stopTimer = every(clock, CERTIFICATE_REFRESH_MS, () => void fetches.request());

  return {
    current: () => held,
    refreshIfStale: fetches.request,
    async close() {
      closed = true;
      closing.abort();
      stopTimer();
      await fetches.idle();
    },
  };
}

// The certificate svc-cloud issued the part (RobotService.Certificate), kept beside the cached
// configuration so a machine booting without the cloud offers TLS with it at once. Written
// atomically and readable by its owner alone (it holds the private key). A file that cannot be
// read is set aside under a new name, like the configuration's cache, and never stops a boot.
import { join } from "node:path";
import { createSecureContext } from "node:tls";
import type { Logger } from "../../../../core/index.js";
import { writeFileAtomic } from "../../system/atomic-file.js";
import { fileSafe, readCacheFile, type CacheRead } from "./config-cache.js";

const FORMAT = 1;

export interface PartCertificate {
  /** PEM: the certificate, and its private key. */
  cert: string;
  key: string;
  /** When it was fetched (ms since the epoch): a certificate is asked for again an hour on. */
  fetchedAt: number;
}

export interface CertificateCache {
  readonly path: string;
  read(): CacheRead<PartCertificate>;
  write(certificate: PartCertificate): Promise<void>;
}

export function createCertificateCache(dir: string, partId: string, now: () => number): CertificateCache {
  const path = join(dir, `cloud-certificate-${fileSafe(partId)}.json`);
  return {
    path,
    read: () => readCacheFile(path, certificateOf, now),
    async write(certificate) {
      await writeFileAtomic(path, `${JSON.stringify({ format: FORMAT, ...certificate })}\n`, 0o600);
    },
  };
}

/** The certificate a cache file holds, or what is wrong with it. */
function certificateOf(text: string): { cached: PartCertificate } | string {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (thrown) {
    return `is not JSON (${(thrown as Error).message})`;
  }
  if (typeof data !== "object" || data === null || (data as { format?: unknown }).format !== FORMAT) return `is not a certificate cache of this version (format ${FORMAT})`;
  const { cert, key, fetchedAt } = data as Record<string, unknown>;
  if (typeof cert !== "string" || typeof key !== "string" || typeof fetchedAt !== "number") return "lacks a certificate, its key or when it was fetched";
  const problem = unusableCertificate({ cert, key });
  return problem === undefined ? { cached: { cert, key, fetchedAt } } : `holds a certificate that cannot serve TLS (${problem})`;
}

const isPem = (value: string) => value.startsWith("-----BEGIN ");

/** Why a certificate and key cannot serve TLS, or undefined when they can. */
export function unusableCertificate(pem: { cert: string; key: string }): string | undefined {
  if (!isPem(pem.cert) || !isPem(pem.key)) return "the certificate or key is not PEM";
  try {
    createSecureContext(pem);
    return undefined;
  } catch (thrown) {
    return (thrown as Error).message;
  }
}

/** The cached certificate a boot starts with; one that cannot be read is set aside, and said so. */
export function bootCertificate(cache: CertificateCache, log: Logger): PartCertificate | undefined {
  const read = cache.read();
  if (read.kind === "found") return read.cached;
  if (read.kind === "set-aside") {
    log.warn("the cached certificate cannot be used; TLS waits for svc-cloud's", {
      file: cache.path,
      problem: read.problem,
      ...(read.movedTo ? { kept_as: read.movedTo } : {}),
    });
  }
  return undefined;
}

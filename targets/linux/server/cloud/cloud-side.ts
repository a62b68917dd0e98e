// Everything a cloud-managed svc-server does with svc-cloud, started once the API port is open:
// the configuration followed (cloud-config-source.ts), the part's certificate kept fresh for the
// port's TLS (part-certificate.ts), the log queue uploaded, restart requests honoured, WebRTC offers
// relayed by svc-cloud answered (cloud-answering.ts), closed FTDC files uploaded, other parts dialled over WebRTC through it
// for the remotes the direct way cannot reach, and who the part is for GetCloudMetadata and the
// port's names. Closed before the machine, so nothing is asked of the cloud while resources close.
import type { Clock, CloudMetadata, LoadOptions, LoadResult, Logger } from "../../../../core/index.js";
import type { LogUploader, OfflineLogQueue } from "../../logging/index.js";
import { createCloudConnection, uploadToPartLogs } from "../../cloud-link/index.js";
import { startCloudConfigSource } from "./cloud-config-source.js";
import type { CloudCredentials } from "../../cloud-link/cloud-credentials.js";
import { cloudMetadataOf } from "./cloud-part.js";
import type { CachedConfig, ConfigCache } from "./config-cache.js";
import type { CertificateCache, PartCertificate } from "./certificate-cache.js";
import { followPartCertificate } from "./part-certificate.js";
import { followRestartRequests } from "./restart-requests.js";
import { answerThroughCloud } from "./cloud-answering.js";
import { uploadFtdcFiles, type FtdcFolder, type FtdcUpload } from "./ftdc-upload.js";
import { cloudDialer, type WebRtcAnswerer } from "../webrtc/index.js";
import type { CloudDialer } from "../../remote-parts/index.js";

export interface CloudSideOptions {
  credentials: CloudCredentials;
  cache: ConfigCache;
  booted?: CachedConfig;
  certificateCache: CertificateCache;
  bootedCertificate?: PartCertificate;
  /** Told of each new certificate svc-cloud issued the part; none when the port offers no TLS with it. */
  offerTls?(certificate: PartCertificate): void;
  load(text: string, origin: string, options: LoadOptions): Promise<LoadResult>;
  appliedRevision(): string;
  /** The log entries waiting for the cloud; uploaded from here. */
  logQueue?: OfflineLogQueue;
  log: Logger;
  clock: Clock;
  mayRestart(): Promise<{ allowed: boolean; reason: string }>;
  restart(reason: string): void;
  /** Answers WebRTC offers relayed by svc-cloud; none with -webrtc=false. */
  answerer?: WebRtcAnswerer;
  /** The FTDC files, with -ftdc: the closed ones are uploaded as files of the part. */
  ftdc?: FtdcFolder;
}

export interface CloudSide {
  metadata(): CloudMetadata | undefined;
  /** The names the machine is reached by (its fqdn and local fqdn), once svc-cloud or the cache said. */
  names(): string[];
  /** svc-cloud asked for a restart that waits for the machine to allow it. */
  restartRequested(): boolean;
  /** Dials another part over WebRTC, signaling through svc-cloud with this part's key. */
  readonly dialer: CloudDialer;
  /** Fetches the configuration now. */
  refresh(): Promise<void>;
  /** Stops following the cloud; what is still queued is sent after the next start. */
  close(): Promise<void>;
}

export function startCloudSide(options: CloudSideOptions): CloudSide {
  const { credentials, log, clock } = options;
  const connection = createCloudConnection({ url: credentials.url, apiKey: credentials.apiKey });
  log.info("following svc-cloud", { address: credentials.url, part: credentials.partId });
  let uploader: LogUploader | undefined;
  let ftdcUpload: FtdcUpload | undefined;
  const offerTls = options.offerTls;
  const certificate =
    offerTls &&
    followPartCertificate({ connection, partId: credentials.partId, cache: options.certificateCache, booted: options.bootedCertificate, clock, log, offer: offerTls });
  const source = startCloudConfigSource({
    connection,
    partId: credentials.partId,
    cache: options.cache,
    booted: options.booted,
    load: options.load,
    appliedRevision: options.appliedRevision,
    log,
    clock,
    refreshMs: credentials.refreshMs,
    // The logs and FTDC files that waited go at once, not at the end of the uploaders' waits; a certificate
    // that went stale meanwhile is asked for.
    onReachable: () => {
      void uploader?.flush();
      void ftdcUpload?.flush();
      void certificate?.refreshIfStale();
    },
  });
  // Ends an upload in flight when the machine stops; its entries stay queued for the next start.
  const closing = new AbortController();
  uploader = options.logQueue && uploadToPartLogs(connection, credentials.partId, options.logQueue, { clock, log, signal: closing.signal });
  const restarts = followRestartRequests({
    connection,
    partId: credentials.partId,
    clock,
    log,
    mayRestart: options.mayRestart,
    restart: options.restart,
  });

  const names = () => {
    const part = source.part();
    return part ? [part.fqdn, part.localFqdn].filter((name) => name !== "") : [];
  };
  const answering = options.answerer && answerThroughCloud({ connection, answerer: options.answerer, names, clock, log });
  ftdcUpload = options.ftdc && uploadFtdcFiles({ dataSync: connection.dataSync, partId: credentials.partId, folder: options.ftdc, clock, log });

  return {
    metadata: () => {
      const part = source.part();
      return part && cloudMetadataOf(part);
    },
    names,
    restartRequested: restarts.pending,
    dialer: cloudDialer(connection.signaling, clock),
    refresh: source.refresh,
    async close() {
      restarts.close();
      await answering?.close();
      closing.abort();
      await source.close();
      await certificate?.close();
      await uploader?.close();
      await ftdcUpload?.close();
    },
  };
}

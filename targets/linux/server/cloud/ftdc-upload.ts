// Closed FTDC files go to svc-cloud as files of the part (DataSyncService.FileUpload, signed in
// with the part's key), oldest first, each once: a file sent is written down in `uploaded` beside
// them, so a restart does not send it again. The file being written is left for later; so are the
// files of a svc-cloud that cannot be reached, tried again every period. Names of files the
// rotation removed are dropped from the record.
import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import type { Client } from "@connectrpc/connect";
import { errorMessage, every, type Clock, type Logger } from "../../../../core/index.js";
import { create } from "@bufbuild/protobuf";
import { DataType, FileUploadRequestSchema, type DataSyncService, type FileUploadRequest } from "../../../../proto/gen/app/datasync/v1/data_sync_pb.js";

/** The record of files sent, one name a line, in the FTDC folder. */
export const UPLOADED_RECORD = "uploaded";
const CHUNK_BYTES = 64 * 1024;
const UPLOAD_TIMEOUT_MS = 10 * 60_000;

export interface FtdcFolder {
  readonly dir: string;
  /** The FTDC files, oldest first. */
  list(): string[];
  /** The file being written, if any. */
  current(): string | undefined;
}

export interface FtdcUploadOptions {
  dataSync: Client<typeof DataSyncService>;
  partId: string;
  folder: FtdcFolder;
  clock: Clock;
  log: Logger;
  /** Between looks for closed files. Default 60 s; the first look is at once. */
  periodMs?: number;
}

export interface FtdcUpload {
  /** Sends what is closed and not sent yet; resolves when done or stopped by a failure. */
  flush(): Promise<void>;
  /** Stops after the upload in flight, if any. */
  close(): Promise<void>;
}

export function uploadFtdcFiles(options: FtdcUploadOptions): FtdcUpload {
  const { folder, log } = options;
  const record = join(folder.dir, UPLOADED_RECORD);
  const stopping = new AbortController();
  let failing = false;
  let running: Promise<void> = Promise.resolve();

  const sent = (): Set<string> => {
    try {
      return new Set(readFileSync(record, "utf8").split("\n").filter(Boolean));
    } catch {
      return new Set();
    }
  };

  const sendOne = async (file: string) => {
    const bytes = readFileSync(file);
    await options.dataSync.fileUpload(fileMessages(options.partId, basename(file), bytes), { signal: stopping.signal, timeoutMs: UPLOAD_TIMEOUT_MS });
    appendFileSync(record, `${basename(file)}\n`, { mode: 0o600 });
  };

  const round = async () => {
    const done = sent();
    const present = folder.list();
    const pending = present.filter((file) => file !== folder.current() && !done.has(basename(file)));
    for (const file of pending) {
      if (stopping.signal.aborted) return;
      try {
        await sendOne(file);
        if (failing) log.info("FTDC files reach svc-cloud again");
        failing = false;
      } catch (thrown) {
        if (!failing && !stopping.signal.aborted) log.warn("cannot upload an FTDC file to svc-cloud; tried again later", { file: basename(file), error: errorMessage(thrown) });
        failing = true;
        return;
      }
    }
    prune(record, done, present);
  };

  const flush = () => (running = running.then(round, round));
  void flush();
  // Looks run one after another: a slow upload delays the next look, never overlaps it.
  const stopTimer = every(options.clock, options.periodMs ?? 60_000, () => void flush());

  return {
    flush,
    async close() {
      stopTimer();
      stopping.abort();
      await running;
    },
  };
}

async function* fileMessages(partId: string, fileName: string, bytes: Uint8Array): AsyncIterable<FileUploadRequest> {
  yield create(FileUploadRequestSchema, { uploadPacket: { case: "metadata", value: { partId, fileName, fileExtension: ".ftdc", type: DataType.FILE } } });
  for (let at = 0; at < bytes.length; at += CHUNK_BYTES) {
    yield create(FileUploadRequestSchema, { uploadPacket: { case: "fileContents", value: { data: bytes.subarray(at, at + CHUNK_BYTES) } } });
  }
}

/** Drops from the record the names of files no longer in the folder. */
function prune(record: string, done: Set<string>, present: readonly string[]): void {
  const here = new Set(present.map((file) => basename(file)));
  const kept = [...done].filter((name) => here.has(name));
  if (kept.length === done.size) return;
  try {
    writeFileSync(record, kept.map((name) => `${name}\n`).join(""), { mode: 0o600 });
  } catch {
    // The record is tidied next time.
  }
}

// Files parts upload: `viam.app.datasync.v1.DataSyncService.FileUpload` (a client stream: the
// metadata first, then the content in chunks) keeps each file per part; svc's own
// `CloudService.ListFiles` and `DownloadFile` give them back to people with the viewer role or
// more and to the part's own key. A part uploads to itself only; a file past MAX_FILE_BYTES, a
// stream without its metadata first, or one the client abandons leaves nothing behind. The bytes
// are in the file store that goes with the store (storage/file-store-of.ts): the data folder, or
// with PostgreSQL the database, so that every replica serves every file.
import type { HandlerContext, ServiceImpl } from "@connectrpc/connect";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { Code, SvcError } from "../../../core/index.js";
import type { DataSyncService, FileUploadRequest } from "../../../proto/gen/app/datasync/v1/data_sync_pb.js";
import type { CloudService } from "../../../proto/gen/svc/cloud/v1/cloud_pb.js";
import { requireDevicePart, requirePartRole } from "../auth/access.js";
import { callerOf } from "../server/caller.js";
import { withinIdle } from "../server/within-idle.js";
import type { CloudContext } from "../server/cloud-context.js";
import { fileStoreOf } from "../storage/file-store-of.js";
import { findPartFile, keepPartFile, listPartFiles, MAX_FILE_BYTES, partFileKey, readPartFile } from "../storage/part-files.js";
import { newId } from "../storage/secrets.js";
import type { PartFilesTable, PartsTable } from "../storage/tables.js";

/** How many uploads one part may have open at once. */
export const MAX_UPLOADS_PER_PART = 4;
/** How long an upload may go without a message before it is ended. */
export const UPLOAD_IDLE_MS = 60_000;
const MAX_NAME_CHARACTERS = 255;
const DOWNLOAD_CHUNK_BYTES = 64 * 1024;

function wireFile(row: PartFilesTable) {
  return { id: row.id, partId: row.part_id, fileName: row.file_name, fileExtension: row.file_extension, size: BigInt(row.size), sha256: row.sha256, uploadedOn: timestampFromMs(Number(row.created_at)) };
}

function checkName(what: string, text: string): string {
  if (text.length > MAX_NAME_CHARACTERS) throw new SvcError(Code.InvalidArgument, `metadata.${what}: at most ${MAX_NAME_CHARACTERS} characters`);
  // Kept as the uploader wrote it but for control characters, which would garble a listing.
  return text.replace(/\p{Cc}/gu, "");
}

/** The file's bytes as the messages after the metadata carry them; a throw past the limit, a wrong message or the client gone. */
async function* contents(requests: AsyncIterable<FileUploadRequest>, context: HandlerContext, part: PartsTable): AsyncGenerator<Uint8Array> {
  let size = 0;
  for await (const request of requests) {
    if (context.signal.aborted) break;
    if (request.uploadPacket.case !== "fileContents") throw new SvcError(Code.InvalidArgument, "FileUpload: after the metadata, every message must be file contents");
    const data = request.uploadPacket.value.data;
    size += data.byteLength;
    if (size > MAX_FILE_BYTES) throw new SvcError(Code.ResourceExhausted, `the file is larger than ${MAX_FILE_BYTES} bytes, the most a part may upload`);
    yield data;
  }
  if (context.signal.aborted) throw new SvcError(Code.Canceled, `the upload to part ${part.id} was abandoned`);
}

export function deviceDataSync(cloud: CloudContext): Partial<ServiceImpl<typeof DataSyncService>> {
  const { store, clock } = cloud;
  const files = fileStoreOf(store, cloud.dataDir);
  const open = new Map<string, number>();

  return {
    async fileUpload(requests, context) {
      const principal = callerOf(context);
      const iterator = withinIdle(requests[Symbol.asyncIterator](), clock, UPLOAD_IDLE_MS, "FileUpload");
      const first = await iterator.next();
      if (first.done === true || first.value.uploadPacket.case !== "metadata") throw new SvcError(Code.InvalidArgument, "FileUpload: the first message must be the metadata (part_id, file_name, ...)");
      const metadata = first.value.uploadPacket.value;
      const part = await requireDevicePart(store.db, principal, metadata.partId);
      const fileName = checkName("file_name", metadata.fileName);
      const fileExtension = checkName("file_extension", metadata.fileExtension);
      const busy = open.get(part.id) ?? 0;
      if (busy >= MAX_UPLOADS_PER_PART) throw new SvcError(Code.ResourceExhausted, `part ${part.id} already has ${busy} uploads open; wait for one to finish`);
      open.set(part.id, busy + 1);
      const fileId = newId();
      try {
        const staged = await files.stage(partFileKey(part.id, fileId), contents({ [Symbol.asyncIterator]: () => iterator }, context, part));
        await keepPartFile(store.db, staged, { id: fileId, part_id: part.id, file_name: fileName, file_extension: fileExtension, created_at: clock.now() });
        return { binaryDataId: fileId, fileId };
      } finally {
        const left = (open.get(part.id) ?? 1) - 1;
        if (left === 0) open.delete(part.id);
        else open.set(part.id, left);
      }
    },
  };
}

/** The part, for reading its files: its own key, or a person or organisation key with viewer or more. */
async function requireFileReader(cloud: CloudContext, context: HandlerContext, partId: string): Promise<PartsTable> {
  const principal = callerOf(context);
  if (principal.kind === "part-key") return requireDevicePart(cloud.store.db, principal, partId);
  return requirePartRole(cloud.store.db, principal, partId, "viewer");
}

export function deviceFilesPart(cloud: CloudContext): Partial<ServiceImpl<typeof CloudService>> {
  const { store } = cloud;
  const files = fileStoreOf(store, cloud.dataDir);
  return {
    async listFiles(request, context) {
      const part = await requireFileReader(cloud, context, request.partId);
      return { files: (await listPartFiles(store.db, part.id)).map(wireFile) };
    },
    async *downloadFile(request, context) {
      const part = await requireFileReader(cloud, context, request.partId);
      const row = await findPartFile(store.db, part.id, request.fileId);
      yield { file: wireFile(row) };
      for await (const piece of readPartFile(files, row, DOWNLOAD_CHUNK_BYTES)) {
        if (context.signal.aborted) return;
        yield { data: piece };
      }
    },
  };
}

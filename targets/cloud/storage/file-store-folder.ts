// The file store beside a SQLite store: each file is `<data folder>/<key>`. Bytes are staged in
// `<key>.<random>.partial` beside it (mode 0600), synced, and renamed to the key's name by `keep`,
// inside the transaction that writes the rows listing the file, so the rename and the rows go
// together: a listed file is always whole. Should the transaction fail, `abandon` removes the
// renamed file again; should the process end between the two (a crash, a power cut), a file no
// row lists is left, which the start-up sweep of parts' uploads removes (part-files.ts).
import { randomBytes } from "node:crypto";
import { createReadStream } from "node:fs";
import { mkdir, open, rename, rm, stat } from "node:fs/promises";
import { dirname, join } from "node:path";
import { checkedKey, type FileStore, type StagedFile } from "./file-store.js";
import { receiveInto } from "./file-store-staging.js";

export function createFolderFileStore(dataDir: string): FileStore {
  const pathOf = (key: string) => join(dataDir, checkedKey(key));
  return {
    stage: (key, source) => stageBeside(pathOf(key), source),
    async *open(key, pieceBytes) {
      yield* createReadStream(pathOf(key), { highWaterMark: pieceBytes }) as AsyncIterable<Buffer>;
    },
    async size(key) {
      const found = await stat(pathOf(key)).catch((thrown: NodeJS.ErrnoException) => {
        if (thrown.code === "ENOENT") return undefined;
        throw thrown;
      });
      return found?.size;
    },
  };
}

async function stageBeside(path: string, source: AsyncIterable<Uint8Array>): Promise<StagedFile> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const partial = `${path}.${randomBytes(4).toString("hex")}.partial`;
  const handle = await open(partial, "wx", 0o600);
  let received: { size: number; sha256: string };
  try {
    received = await receiveInto(handle, source);
    await handle.sync();
    await handle.close();
  } catch (thrown) {
    await handle.close().catch(() => undefined);
    await rm(partial, { force: true });
    throw thrown;
  }
  let kept = false;
  return {
    ...received,
    async keep() {
      await rename(partial, path);
      kept = true;
    },
    async abandon() {
      await rm(kept ? path : partial, { force: true });
    },
  };
}

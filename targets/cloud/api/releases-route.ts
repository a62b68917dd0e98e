// GET /releases/FILE: an imported artifact, as agents download it. Only files the release index
// lists are served (a name is looked up, never joined to a path as given), each with its sha256
// in `x-checksum-sha256` and `repr-digest` so a client can check what it got. GET
// /releases/index.json is the release index itself, in the format `npm run package` writes, so
// tools/install.sh and svc-agent install from svc-cloud as from any release server. Release
// artifacts are the project's published builds, so the routes ask for no credentials, as a
// release server does not. The bytes come from the file store (the data folder, or with
// PostgreSQL the database), a piece at a time as the client takes them.
import type { ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { releaseFileKey, RELEASE_FILE } from "../commands/release-add.js";
import { sendBody, sendJson, type HttpRoute } from "../server/http-routes.js";
import { fileStoreOf } from "../storage/file-store-of.js";
import { releaseByFile, releaseIndexOf } from "../storage/releases-store.js";
import { RELEASES_PATH } from "./releases-service.js";

export const RELEASE_INDEX_PATH = `${RELEASES_PATH}index.json`;
/** How much of a release is read from the file store at a time. */
const PIECE_BYTES = 64 * 1024;

export const releaseIndexRoute: HttpRoute = {
  method: "GET",
  path: RELEASE_INDEX_PATH,
  async handle(_req, res, _url, cloud) {
    const index = await releaseIndexOf(cloud.store.db, `${cloud.publicUrl}${RELEASES_PATH.replace(/\/$/, "")}`);
    sendBody(res, 200, "application/json", `${JSON.stringify(index)}\n`, { "cache-control": "no-store" });
  },
};

export const releasesRoute: HttpRoute = {
  method: "GET",
  path: RELEASES_PATH,
  async handle(_req, res, url, cloud) {
    let file: string;
    try {
      file = decodeURIComponent(url.pathname.slice(RELEASES_PATH.length));
    } catch {
      file = "";
    }
    const release = RELEASE_FILE.test(file) ? await releaseByFile(cloud.store.db, file) : undefined;
    if (release === undefined) {
      sendJson(res, 404, { error: `no release file ${JSON.stringify(file.slice(0, 100))}` });
      return;
    }
    const files = fileStoreOf(cloud.store, cloud.dataDir);
    const key = releaseFileKey(release.file);
    // A file missing or changed behind svc-cloud's back is not served as the release it was.
    if ((await files.size(key)) !== Number(release.size)) {
      sendJson(res, 500, { error: `the release file ${release.file} is missing or changed; import the release again` });
      return;
    }
    (res as ServerResponse).writeHead(200, {
      "content-type": "application/gzip",
      "content-length": Number(release.size),
      "x-checksum-sha256": release.sha256,
      "repr-digest": `sha-256=:${Buffer.from(release.sha256, "hex").toString("base64")}:`,
      "cache-control": "public, max-age=31536000, immutable",
    });
    // Piped, so a slow download holds a piece or two, never the whole file.
    const body = Readable.from(files.open(key, PIECE_BYTES), { objectMode: false, highWaterMark: PIECE_BYTES });
    await new Promise<void>((resolve, reject) => {
      // A failure after the headers ends the connection, so the client sees a cut, not a short file.
      body.once("error", (thrown) => {
        (res as ServerResponse).destroy();
        reject(thrown);
      });
      body.once("close", () => resolve());
      (res as ServerResponse).once("close", () => body.destroy());
      body.pipe(res as unknown as NodeJS.WritableStream);
    });
  },
};

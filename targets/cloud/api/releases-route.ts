// GET /releases/FILE: an imported artifact, as agents download it. Only files the release index
// lists are served (a name is looked up, never joined to a path as given), each with its sha256
// in `x-checksum-sha256` and `repr-digest` so a client can check what it got. GET
// /releases/index.json is the release index itself, in the format `npm run package` writes, so
// tools/install.sh and svc-agent install from svc-cloud as from any release server. Release
// artifacts are the project's published builds, so the routes ask for no credentials, as a
// release server does not.
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { join } from "node:path";
import type { ServerResponse } from "node:http";
import { releasesDir, RELEASE_FILE } from "../commands/release-add.js";
import { sendBody, sendJson, type HttpRoute } from "../server/http-routes.js";
import { releaseByFile, releaseIndexOf } from "../storage/releases-store.js";
import { RELEASES_PATH } from "./releases-service.js";

export const RELEASE_INDEX_PATH = `${RELEASES_PATH}index.json`;

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
    const path = join(releasesDir(cloud.dataDir), release.file);
    // A file changed on disk behind svc-cloud's back is not served as the release it was.
    if ((await stat(path)).size !== Number(release.size)) {
      sendJson(res, 500, { error: `the release file ${release.file} changed on disk; import the release again` });
      return;
    }
    const stream = createReadStream(path);
    await new Promise<void>((resolve, reject) => {
      stream.once("error", reject);
      stream.once("open", () => {
        (res as ServerResponse).writeHead(200, {
          "content-type": "application/gzip",
          "content-length": Number(release.size),
          "x-checksum-sha256": release.sha256,
          "repr-digest": `sha-256=:${Buffer.from(release.sha256, "hex").toString("base64")}:`,
          "cache-control": "public, max-age=31536000, immutable",
        });
        // Piped, so a slow download holds a few buffers, never the whole file.
        stream.pipe(res as unknown as NodeJS.WritableStream);
        stream.once("close", () => resolve());
        (res as ServerResponse).once("close", () => stream.destroy());
      });
    });
  },
};

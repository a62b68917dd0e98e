// The control page itself: `GET /` (unless -shareddir serves that folder there) and `GET /page/`
// are its HTML, `GET /page/app.js` and `/page/app.css` what it loads, built by `npm run build`
// into dist/server-page beside svc-server's bundle; nothing else is served from that folder. The
// page may run only its own script and talk only to the machine (Content-Security-Policy), never
// inside another site's frame, and sends no Referer (node/web-page.ts). A checkout that was never
// built says so.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { webPageHeaders, webPageHtml, type WebPage } from "../../../../node/web-page.js";
import type { HttpResponse, HttpRoute } from "../transport/index.js";

/** Where the built page is: dist/server-page, beside dist/linux/svc-server.mjs. */
export const PAGE_DIR = fileURLToPath(new URL("../server-page/", import.meta.url));

const PAGE: WebPage = {
  title: "svc-server",
  assets: "/page/",
  noscript: "This machine's control page needs JavaScript. Its API answers on this port.",
  moreImages: "blob:",
  formAction: "'none'",
};
const SECURITY_HEADERS = webPageHeaders(PAGE);
const HTML = webPageHtml(PAGE);

function send(res: HttpResponse, status: number, type: string, body: string | Buffer, cache: string): void {
  res.writeHead(status, { ...SECURITY_HEADERS, "content-type": type, "content-length": Buffer.byteLength(body), "cache-control": cache });
  res.end(body);
}

function asset(path: string, file: string, type: string, dir: string): HttpRoute {
  return {
    method: "GET",
    path,
    async handler(_req, res) {
      let body: Buffer;
      try {
        body = await readFile(join(dir, file));
      } catch {
        return send(res, 503, "text/plain; charset=utf-8", `the control page is not built here: npm run build writes it to ${dir}\n`, "no-store");
      }
      send(res, 200, type, body, "no-cache");
    },
  };
}

/** The page's routes; `atRoot` false leaves `/` to the shared folder. */
export function pageFileRoutes(atRoot: boolean, dir = PAGE_DIR): HttpRoute[] {
  const html = (path: string): HttpRoute => ({ method: "GET", path, handler: (_req, res) => send(res, 200, "text/html; charset=utf-8", HTML, "no-store") });
  return [
    ...(atRoot ? [html("/")] : []),
    html("/page/"),
    asset("/page/app.js", "app.js", "text/javascript; charset=utf-8", dir),
    asset("/page/app.css", "app.css", "text/css; charset=utf-8", dir),
  ];
}

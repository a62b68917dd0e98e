// svc-cloud's web app (targets/cloud/web, built into dist/cloud-web beside svc-cloud's bundle):
// `GET /` is its page, `GET /app/app.js`, `/app/app.css` and `/app/models.json` (svc-server's models
// with their attribute schemas, for the config form) what the page loads; nothing else is
// served from the folder, so no path reaches another file. The page may run only its own script and
// style and talk only to svc-cloud (Content-Security-Policy), never inside another site's frame,
// and sends no Referer. A checkout that was never built answers 503 saying so.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { webPageHeaders, webPageHtml, type WebPage } from "../../../node/web-page.js";
import { sendBody, sendJson, type HttpResponse, type HttpRoute } from "../server/http-routes.js";

/** Where the built web app is: dist/cloud-web, beside dist/linux/svc-cloud.mjs. */
export const WEB_APP_DIR = fileURLToPath(new URL("../cloud-web/", import.meta.url));

const APP: WebPage = { title: "svc-cloud", assets: "/app/", noscript: "svc-cloud's web app needs JavaScript.", formAction: "'self'" };
const SECURITY_HEADERS = webPageHeaders(APP);
const PAGE = webPageHtml(APP);

function send(res: HttpResponse, type: string, body: string | Buffer, cache: string): void {
  sendBody(res, 200, type, body, { ...SECURITY_HEADERS, "cache-control": cache });
}

function asset(path: string, file: string, type: string, dir: string): HttpRoute {
  return {
    method: "GET",
    path,
    async handle(_req, res) {
      let body: Buffer;
      try {
        body = await readFile(join(dir, file));
      } catch {
        return sendJson(res, 503, { error: `the web app is not built here: npm run build writes it to ${dir}` });
      }
      send(res, type, body, "no-cache");
    },
  };
}

export function webAppRoutes(dir = WEB_APP_DIR): HttpRoute[] {
  return [
    { method: "GET", path: "/", handle: async (_req, res) => send(res, "text/html; charset=utf-8", PAGE, "no-store") },
    asset("/app/app.js", "app.js", "text/javascript; charset=utf-8", dir),
    asset("/app/app.css", "app.css", "text/css; charset=utf-8", dir),
    asset("/app/models.json", "models.json", "application/json", dir),
  ];
}

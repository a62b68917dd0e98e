// The control page itself: `GET /` (unless -shareddir serves that folder there) and `GET /page/`
// are its HTML, `GET /page/app.js` and `/page/app.css` what it loads, built by `npm run build`
// into dist/server-page beside svc-server's bundle; nothing else is served from that folder. The
// page may run only its own script and talk only to the machine (Content-Security-Policy), never
// inside another site's frame, and sends no Referer. A checkout that was never built says so.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { HttpResponse, HttpRoute } from "../transport/index.js";

/** Where the built page is: dist/server-page, beside dist/linux/svc-server.mjs. */
export const PAGE_DIR = fileURLToPath(new URL("../server-page/", import.meta.url));

const SECURITY_HEADERS = {
  "content-security-policy":
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "referrer-policy": "no-referrer",
};

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>svc-server</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/page/app.css">
<script type="module" src="/page/app.js"></script>
</head>
<body><div id="app"></div><noscript>This machine's control page needs JavaScript. Its API answers on this port.</noscript></body>
</html>
`;

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
  const html = (path: string): HttpRoute => ({ method: "GET", path, handler: (_req, res) => send(res, 200, "text/html; charset=utf-8", PAGE, "no-store") });
  return [
    ...(atRoot ? [html("/")] : []),
    html("/page/"),
    asset("/page/app.js", "app.js", "text/javascript; charset=utf-8", dir),
    asset("/page/app.css", "app.css", "text/css; charset=utf-8", dir),
  ];
}

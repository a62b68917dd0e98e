// -webprofile: profiling endpoints on the API port. `GET /debug/profile?seconds=N` answers a CPU
// profile of the next N seconds (`.cpuprofile`); `GET /debug/heap` a heap snapshot
// (`.heapsnapshot`). A profile exposes the program's insides and a snapshot its memory (keys
// included), so they are served to loopback clients only, or to requests the caller vouches for.
import { isLoopbackAddress, type HttpRequest, type HttpResponse, type HttpRoute } from "../transport/index.js";
import { startCpuProfile } from "./cpu-profile.js";
import { takeHeapSnapshot } from "./heap-snapshot.js";

export interface WebProfileOptions {
  /** True for a request authenticated some other way (a valid Bearer token). Default: none is. */
  isAuthenticated?: (req: HttpRequest) => boolean;
  /** When `seconds` is not given. Default 10. */
  defaultSeconds?: number;
  /** The longest profile asked for. Default 300. */
  maxSeconds?: number;
}

export function webProfileRoutes(options: WebProfileOptions = {}): HttpRoute[] {
  const defaultSeconds = options.defaultSeconds ?? 10;
  const maxSeconds = options.maxSeconds ?? 300;
  const allowed = (req: HttpRequest) =>
    isLoopbackAddress(req.socket.remoteAddress ?? "") || options.isAuthenticated?.(req) === true;
  let snapshotting = false;

  return [
    {
      method: "GET",
      path: "/debug/profile",
      async handler(req, res) {
        if (!allowed(req)) return forbidden(res);
        const given = new URL(req.url ?? "/", "http://x").searchParams.get("seconds");
        const seconds = given === null ? defaultSeconds : Number(given);
        if (!Number.isFinite(seconds) || seconds <= 0 || seconds > maxSeconds) {
          return plain(res, 400, `seconds: must be a number above 0 and at most ${maxSeconds} (found ${JSON.stringify(given)})\n`);
        }
        const profile = await startCpuProfile();
        // A client that hangs up ends the profile early; nothing is sent.
        const hungUp = await waitOrHangUp(res, seconds * 1000);
        const result = await profile.stop();
        if (hungUp) return;
        const body = JSON.stringify(result);
        res.writeHead(200, {
          "content-type": "application/json",
          "content-length": Buffer.byteLength(body),
          "content-disposition": `attachment; filename="svc-server-${stamp()}.cpuprofile"`,
          "cache-control": "no-store",
        });
        if (req.method === "HEAD") res.end();
        else res.end(body);
      },
    },
    {
      method: "GET",
      path: "/debug/heap",
      async handler(req, res) {
        if (!allowed(req)) return forbidden(res);
        if (snapshotting) return plain(res, 409, "a heap snapshot is already being taken\n");
        snapshotting = true;
        try {
          res.writeHead(200, {
            "content-type": "application/json",
            "content-disposition": `attachment; filename="svc-server-${stamp()}.heapsnapshot"`,
            "cache-control": "no-store",
          });
          if (req.method === "HEAD") return void res.end();
          const out = res as NodeJS.WritableStream;
          await takeHeapSnapshot((chunk) => void out.write(chunk));
          res.end();
        } finally {
          snapshotting = false;
        }
      },
    },
  ];
}

function forbidden(res: HttpResponse): void {
  plain(res, 403, "profiling is served to loopback clients only, or with authorization: Bearer <token>\n");
}

function plain(res: HttpResponse, status: number, text: string): void {
  res.writeHead(status, { "content-type": "text/plain; charset=utf-8" });
  res.end(text);
}

function waitOrHangUp(res: HttpResponse, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const onClose = () => {
      clearTimeout(timer);
      resolve(true);
    };
    const timer = setTimeout(() => {
      res.off("close", onClose);
      resolve(false);
    }, ms);
    res.once("close", onClose);
  });
}

function stamp(): string {
  return new Date().toISOString().replace(/[:.]/g, "-");
}

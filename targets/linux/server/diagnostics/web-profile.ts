// -webprofile: profiling endpoints on the API port. `GET /debug/profile?seconds=N` answers a CPU
// profile of the next N seconds (`.cpuprofile`); `GET /debug/heap` a heap snapshot
// (`.heapsnapshot`); `GET /debug/memory` the process's memory figures right after a full garbage
// collection (JSON, see memory-after-gc.ts); `GET /debug/gc` the garbage collections since the
// server started, `{count, durationMs}` (see gc-totals.ts). A profile exposes the program's insides and a
// snapshot its memory (keys included): when API keys are configured every /debug request needs a
// valid token, whoever asks, this machine included; without keys they are served to loopback
// clients only.
import { isLoopbackAddress, type HttpRequest, type HttpResponse, type HttpRoute } from "../transport/index.js";
import { startCpuProfile } from "./cpu-profile.js";
import { watchGc, type GcWatch } from "./gc-totals.js";
import { takeHeapSnapshot } from "./heap-snapshot.js";
import { memoryAfterGc } from "./memory-after-gc.js";

export interface WebProfileOptions {
  /** True for a request authenticated some other way (a valid Bearer token). Default: none is. */
  isAuthenticated?: (req: HttpRequest) => boolean | Promise<boolean>;
  /** True while API keys are configured: then every request needs to be authenticated. Default: never. */
  tokensRequired?: () => boolean;
  /** When `seconds` is not given. Default 10. */
  defaultSeconds?: number;
  /** The longest profile asked for. Default 300. */
  maxSeconds?: number;
  /** What /debug/gc reads. Default: a watch begun now, with the routes. */
  gc?: GcWatch;
}

export function webProfileRoutes(options: WebProfileOptions = {}): HttpRoute[] {
  const defaultSeconds = options.defaultSeconds ?? 10;
  const maxSeconds = options.maxSeconds ?? 300;
  const tokensRequired = options.tokensRequired ?? (() => false);
  const authenticated = async (req: HttpRequest) => (await options.isAuthenticated?.(req)) === true;
  // Answers the refusal itself; true when the request may go on.
  const allowed = async (req: HttpRequest, res: HttpResponse) => {
    if (tokensRequired()) {
      if (await authenticated(req)) return true;
      unauthorized(res);
      return false;
    }
    if (isLoopbackAddress(req.socket.remoteAddress ?? "") || (await authenticated(req))) return true;
    forbidden(res);
    return false;
  };
  let snapshotting = false;
  const gc = options.gc ?? watchGc();

  return [
    {
      method: "GET",
      path: "/debug/profile",
      async handler(req, res) {
        if (!(await allowed(req, res))) return;
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
        if (!(await allowed(req, res))) return;
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
    {
      method: "GET",
      path: "/debug/memory",
      async handler(req, res) {
        if (!(await allowed(req, res))) return;
        json(req, res, await memoryAfterGc());
      },
    },
    {
      method: "GET",
      path: "/debug/gc",
      async handler(req, res) {
        if (!(await allowed(req, res))) return;
        json(req, res, gc.read());
      },
    },
  ];
}

function unauthorized(res: HttpResponse): void {
  res.writeHead(401, { "content-type": "text/plain; charset=utf-8", "www-authenticate": "Bearer" });
  res.end("profiling needs authorization: Bearer <token> (from proto.rpc.v1.AuthService/Authenticate) while API keys are configured\n");
}

function forbidden(res: HttpResponse): void {
  plain(res, 403, "profiling is served to loopback clients only, or with authorization: Bearer <token>\n");
}

function json(req: HttpRequest, res: HttpResponse, value: unknown): void {
  const body = JSON.stringify(value);
  res.writeHead(200, { "content-type": "application/json", "cache-control": "no-store" });
  if (req.method === "HEAD") res.end();
  else res.end(body);
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

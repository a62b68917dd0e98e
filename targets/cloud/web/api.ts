// How svc-cloud's pages talk to it: the session routes (/app/session) and the API over the Connect
// protocol's JSON, signed in by the session cookie the browser sends by itself. An error answer
// becomes an ApiError with the server's own message, shown to the person as it is.
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** The API's code for it (Connect's: `aborted` when an edit started from an older revision). */
    readonly code = "",
  ) {
    super(message);
  }
}

export interface SignedIn {
  email: string;
}

async function answerOf<T>(res: Response): Promise<T> {
  const text = await res.text();
  let body: { error?: string; message?: string; code?: string } = {};
  try {
    body = text === "" ? {} : (JSON.parse(text) as typeof body);
  } catch {
    body = { error: text };
  }
  if (!res.ok) throw new ApiError(res.status, body.message ?? body.error ?? `${res.status} ${res.statusText}`, body.code);
  return body as T;
}

/** Who is signed in, or undefined. */
export async function currentSession(): Promise<SignedIn | undefined> {
  const res = await fetch("/app/session", { credentials: "same-origin" });
  if (res.status === 401) return undefined;
  return (await answerOf<{ user: SignedIn }>(res)).user;
}

export async function signIn(email: string, password: string): Promise<SignedIn> {
  const res = await fetch("/app/session", { method: "POST", credentials: "same-origin", headers: { "content-type": "application/json" }, body: JSON.stringify({ email, password }) });
  return answerOf<SignedIn>(res);
}

/** Whether svc-cloud has nobody yet and this browser may make its first owner (it runs on this computer). */
export async function setupNeeded(): Promise<boolean> {
  return (await answerOf<{ needed: boolean }>(await fetch("/app/setup", { credentials: "same-origin" }))).needed;
}

/** Makes the first owner and signs them in. */
export async function setUp(email: string, password: string): Promise<SignedIn> {
  const res = await fetch("/app/setup", { method: "POST", credentials: "same-origin", headers: { "content-type": "application/json" }, body: JSON.stringify({ email, password }) });
  return answerOf<SignedIn>(res);
}

export async function signOut(): Promise<void> {
  await answerOf(await fetch("/app/session", { method: "DELETE", credentials: "same-origin" }));
}

/** One unary call of `service`, in and out as proto3 JSON. */
async function unary<T>(service: string, method: string, request: object): Promise<T> {
  const res = await fetch(`/${service}/${method}`, {
    method: "POST",
    credentials: "same-origin",
    headers: { "content-type": "application/json", "connect-protocol-version": "1" },
    body: JSON.stringify(request),
  });
  return answerOf<T>(res);
}

/** A call of Viam's `viam.app.v1.AppService`. */
export function appCall<T>(method: string, request: object): Promise<T> {
  return unary<T>("viam.app.v1.AppService", method, request);
}

/** A call of svc-cloud's own `svc.cloud.v1.CloudService`, where Viam has nothing. */
export function cloudCall<T>(method: string, request: object): Promise<T> {
  return unary<T>("svc.cloud.v1.CloudService", method, request);
}

/** The frame of one Connect streaming message: a flags byte, its length, then JSON. */
function frame(message: object): Uint8Array<ArrayBuffer> {
  const body = new TextEncoder().encode(JSON.stringify(message));
  const framed = new Uint8Array(5 + body.length);
  new DataView(framed.buffer).setUint32(1, body.length);
  framed.set(body, 5);
  return framed;
}

/**
 * A server-streaming call of `service` over the Connect protocol, each message handed to
 * `onMessage` as it comes, until the stream ends (resolves), fails (rejects with the server's
 * error) or `signal` aborts.
 */
export async function serverStream<T>(service: string, method: string, request: object, onMessage: (message: T) => void, signal: AbortSignal): Promise<void> {
  const res = await fetch(`/${service}/${method}`, {
    method: "POST",
    credentials: "same-origin",
    headers: { "content-type": "application/connect+json", "connect-protocol-version": "1" },
    body: frame(request),
    signal,
  });
  if (!res.ok || res.body === null) return answerOf(res);
  const reader = res.body.getReader();
  let held = new Uint8Array(0);
  for (;;) {
    const { done, value } = await reader.read();
    if (done) throw new ApiError(0, "the stream ended before its last message");
    const joined = new Uint8Array(held.length + value.length);
    joined.set(held);
    joined.set(value, held.length);
    held = joined;
    while (held.length >= 5) {
      const length = new DataView(held.buffer, held.byteOffset).getUint32(1);
      if (held.length < 5 + length) break;
      const flags = held[0]!;
      const message = JSON.parse(new TextDecoder().decode(held.subarray(5, 5 + length))) as T & { error?: { code?: string; message?: string } };
      held = held.subarray(5 + length);
      // The end of the stream: its error, when it failed.
      if (flags & 2) {
        if (message.error) throw new ApiError(0, message.error.message ?? message.error.code ?? "the stream failed", message.error.code);
        return;
      }
      onMessage(message);
    }
  }
}

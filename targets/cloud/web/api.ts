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

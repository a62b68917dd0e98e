// Signing in from a browser, as plain HTTP beside the API: `POST /app/session` with
// `{"email", "password"}` starts a session and sets its cookie (auth/web-session-cookie.ts),
// `GET /app/session` says who is signed in, `DELETE /app/session` signs out. Sign-in is held to
// the same limit as Authenticate, every refusal of credentials is the same 401, and both changes
// must come from svc-cloud's own pages (their Origin), so another site can neither sign a browser
// in as someone else nor out.
import { Code, SvcError } from "../../../core/index.js";
import { signedInSubject } from "../auth/authenticate.js";
import { clearedSessionCookie, isSameOrigin, secureCookie, sessionCookie, sessionTokenOf } from "../auth/web-session-cookie.js";
import type { Principal } from "../auth/principal.js";
import { resolvePrincipal } from "../auth/resolve-principal.js";
import { sessionPrincipal } from "../auth/session-principal.js";
import type { CloudContext } from "../server/cloud-context.js";
import { hostOf, isEncrypted, peerOf, requestHeader, sendJson, type HttpRequest, type HttpResponse, type HttpRoute } from "../server/http-routes.js";
import { BodyRefusal, readJsonObject } from "../server/json-body.js";
import { endWebSession, removeEndedWebSessions, startWebSession, WEB_SESSION_MAX_MS } from "../storage/web-sessions.js";

export const SESSION_PATH = "/app/session";
const MAX_CREDENTIALS_BYTES = 4096;

const signIn: HttpRoute = {
  method: "POST",
  path: SESSION_PATH,
  async handle(req, res, _url, cloud) {
    if (!fromOwnPage(req)) return sendJson(res, 403, { error: "sign in from svc-cloud's own page (this request's Origin is not this host)" });
    const credentials = await credentialsBody(req, res);
    if (credentials === undefined) return;
    const { email, password } = credentials;
    let principal: Principal;
    try {
      principal = await resolvePrincipal(cloud.store, await signedInSubject(cloud.store, cloud.limiter, { entity: email, type: "password", payload: password, peer: peerOf(req) }));
    } catch (thrown) {
      if (thrown instanceof SvcError) return sendJson(res, thrown.code === Code.ResourceExhausted ? 429 : 401, { error: thrown.message });
      throw thrown;
    }
    if (principal.kind !== "user") return sendJson(res, 401, { error: "invalid credentials" });
    await answerSignedIn(req, res, cloud, principal.userId, principal.email);
  },
};

/** Starts a session for the user and answers with its cookie. */
export async function answerSignedIn(req: HttpRequest, res: HttpResponse, cloud: CloudContext, userId: string, email: string): Promise<void> {
  const now = cloud.clock.now();
  await removeEndedWebSessions(cloud.store.db, now);
  const token = await startWebSession(cloud.store.db, userId, now);
  sendJson(res, 200, { email }, { "set-cookie": sessionCookie(token, secureCookie(isEncrypted(req), hostOf(req)), WEB_SESSION_MAX_MS / 1000) });
}

const whoAmI: HttpRoute = {
  method: "GET",
  path: SESSION_PATH,
  async handle(req, res, _url, cloud) {
    const principal = await signedIn(req, cloud);
    if (principal === undefined || principal.kind !== "user") return sendJson(res, 401, { error: "not signed in" });
    sendJson(res, 200, { user: { id: principal.userId, email: principal.email } });
  },
};

const signOut: HttpRoute = {
  method: "DELETE",
  path: SESSION_PATH,
  async handle(req, res, _url, cloud) {
    if (!fromOwnPage(req)) return sendJson(res, 403, { error: "sign out from svc-cloud's own page (this request's Origin is not this host)" });
    const token = sessionTokenOf(requestHeader(req, "cookie"));
    if (token !== undefined) await endWebSession(cloud.store.db, token);
    sendJson(res, 200, {}, { "set-cookie": clearedSessionCookie(secureCookie(isEncrypted(req), hostOf(req))) });
  },
};

/**
 * The `{"email", "password"}` a sign-in or first run sends (JSON, at most 4 KiB); undefined when it
 * was refused, the answer saying why already written.
 */
export async function credentialsBody(req: HttpRequest, res: HttpResponse): Promise<{ email: string; password: string } | undefined> {
  let body: Record<string, unknown>;
  try {
    body = await readJsonObject(req, MAX_CREDENTIALS_BYTES);
  } catch (thrown) {
    if (!(thrown instanceof BodyRefusal)) throw thrown;
    sendJson(res, thrown.status, { error: thrown.message });
    return undefined;
  }
  const { email, password } = body;
  if (typeof email === "string" && typeof password === "string") return { email, password };
  sendJson(res, 400, { error: 'the body is {"email": "...", "password": "..."}' });
  return undefined;
}

export const sessionRoutes: readonly HttpRoute[] = [signIn, whoAmI, signOut];

/** The person a request's cookie signs in. A page's own GET carries no Origin, and this one only reads. */
async function signedIn(req: HttpRequest, cloud: CloudContext) {
  const token = sessionTokenOf(requestHeader(req, "cookie"));
  if (token === undefined) return undefined;
  try {
    return await sessionPrincipal(cloud, token);
  } catch (thrown) {
    if (thrown instanceof SvcError) return undefined;
    throw thrown;
  }
}

export function fromOwnPage(req: HttpRequest): boolean {
  return isSameOrigin(requestHeader(req, "origin"), hostOf(req));
}


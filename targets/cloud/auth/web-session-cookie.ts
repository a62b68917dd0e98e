// The cookie a browser holds its session in, and when a request may use it. The cookie is
// HttpOnly (no script reads it), SameSite=Strict (no other site's page makes the browser send it)
// and Secure except over plain HTTP on loopback (where browsers keep it anyway). On top of that a
// request signed in by cookie must come from svc-cloud's own pages: its `Origin` names the host it
// was sent to. A browser always sends `Origin` with the POSTs the API and sign-in take; another
// site's page cannot name svc-cloud's host there; a script or the SDK uses a Bearer token instead.
import { isLoopback } from "../options.js";

export const SESSION_COOKIE = "svc_session";

const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** The session token a `Cookie` header carries, when it carries a well-formed one. */
export function sessionTokenOf(cookieHeader: string | null | undefined): string | undefined {
  if (!cookieHeader) return undefined;
  for (const part of cookieHeader.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0 || part.slice(0, eq).trim() !== SESSION_COOKIE) continue;
    const value = part.slice(eq + 1).trim();
    return TOKEN.test(value) ? value : undefined;
  }
  return undefined;
}

/** Whether a request's `Origin` is the very host (and port) it was sent to. */
export function isSameOrigin(origin: string | null | undefined, host: string | null | undefined): boolean {
  if (!origin || !host || !URL.canParse(origin)) return false;
  const url = new URL(origin);
  return (url.protocol === "http:" || url.protocol === "https:") && url.host === host.toLowerCase();
}

/** Whether the cookie must be Secure: everywhere but plain HTTP to a loopback host. */
export function secureCookie(encrypted: boolean, host: string): boolean {
  return encrypted || !isLoopback(host.replace(/:\d+$/, "").replace(/^\[|\]$/g, "").toLowerCase());
}

export function sessionCookie(token: string, secure: boolean, maxAgeS: number): string {
  return `${SESSION_COOKIE}=${token}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${maxAgeS}${secure ? "; Secure" : ""}`;
}

export function clearedSessionCookie(secure: boolean): string {
  return `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0${secure ? "; Secure" : ""}`;
}

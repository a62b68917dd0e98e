// A person signs in from a browser with their email and password and holds the session in a cookie
// no script can read and no other site's page makes the browser send; the cookie signs in the API
// calls svc-cloud's own pages make and nothing else. The hostile half: wrong and guessed
// passwords (the same answer, then the sign-in limit), sign-in and sign-out from another site,
// API calls with the cookie from another site or a script without an Origin, a forged cookie,
// malformed and oversize bodies, and sessions past their idle and absolute ends.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isSameOrigin, secureCookie, sessionTokenOf } from "../../targets/cloud/auth/web-session-cookie.js";
import { WEB_SESSION_IDLE_MS, WEB_SESSION_MAX_MS } from "../../targets/cloud/storage/web-sessions.js";
import { startInProcessCloud, type InProcessCloud } from "../helpers/cloud-in-process.js";

let cloud: InProcessCloud;
let origin: string;
beforeAll(async () => {
  cloud = await startInProcessCloud();
  origin = new URL(cloud.url).origin;
});
afterAll(() => cloud.stop());

interface Answer {
  error?: string;
  message?: string;
  organizations?: unknown[];
}
const answer = async (res: Response) => (await res.json()) as Answer;

const OWNER = { email: "owner@example.com", password: "correct horse" };

function signIn(body: unknown, headers: Record<string, string> = {}) {
  return fetch(`${cloud.url}/app/session`, {
    method: "POST",
    headers: { "content-type": "application/json", origin, ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

async function signedInCookie(): Promise<string> {
  const res = await signIn(OWNER);
  expect(res.status).toBe(200);
  return res.headers.get("set-cookie")!.split(";")[0]!;
}

/** ListOrganizations over the Connect protocol, as the web app calls it. */
function listOrganizations(headers: Record<string, string>) {
  return fetch(`${cloud.url}/viam.app.v1.AppService/ListOrganizations`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: "{}" });
}

describe("signing in from a browser", () => {
  it("sets an HttpOnly, SameSite=Strict cookie that says who is signed in", async () => {
    const res = await signIn({ email: "Owner@Example.com", password: OWNER.password });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ email: "owner@example.com" });
    const cookie = res.headers.get("set-cookie")!;
    expect(cookie).toMatch(/^svc_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Strict; Max-Age=604800$/);
    const who = await fetch(`${cloud.url}/app/session`, { headers: { cookie: cookie.split(";")[0]! } });
    expect(who.status).toBe(200);
    expect(await who.json()).toMatchObject({ user: { email: "owner@example.com" } });
  });

  it("signs in the API calls svc-cloud's own pages make", async () => {
    const res = await listOrganizations({ cookie: await signedInCookie(), origin });
    expect(res.status).toBe(200);
    expect((await answer(res)).organizations).toHaveLength(1);
  });

  it("answers a wrong password as an unknown person, and limits guessing", async () => {
    const wrong = await signIn({ email: OWNER.email, password: "wrong" });
    const unknown = await signIn({ email: "nobody@example.com", password: "wrong" });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(await wrong.json()).toEqual(await unknown.json());
    const guesser = { email: "guessed@example.com", password: "guess" };
    for (let i = 0; i < 9; i++) expect((await signIn(guesser)).status).toBe(401);
    const limited = await signIn(guesser);
    expect(limited.status).toBe(401);
    const after = await signIn(guesser);
    expect(after.status).toBe(429);
    expect((await answer(after)).error).toMatch(/too many failed sign-in attempts/);
  });
});

describe("the hostile half", () => {
  it("refuses a sign-in from another site or without an Origin", async () => {
    expect((await signIn(OWNER, { origin: "http://evil.example" })).status).toBe(403);
    const res = await fetch(`${cloud.url}/app/session`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(OWNER) });
    expect(res.status).toBe(403);
    expect(res.headers.get("set-cookie")).toBeNull();
  });

  it("refuses form posts, malformed, oversize and incomplete bodies, saying which", async () => {
    const form = await signIn("email=a&password=b", { "content-type": "application/x-www-form-urlencoded" });
    expect(form.status).toBe(415);
    const malformed = await signIn("{not json");
    expect(malformed.status).toBe(400);
    expect((await answer(malformed)).error).toMatch(/not JSON/);
    const oversize = await signIn({ email: OWNER.email, password: "x".repeat(10_000) });
    expect(oversize.status).toBe(413);
    expect((await signIn({ email: OWNER.email })).status).toBe(400);
    expect((await signIn([OWNER])).status).toBe(400);
  });

  it("does not take the cookie on a call from another site, or from a script without an Origin", async () => {
    const cookie = await signedInCookie();
    for (const headers of [{ cookie, origin: "http://evil.example" }, { cookie }, { cookie, origin: "null" }] as Record<string, string>[]) {
      const res = await listOrganizations(headers);
      expect(res.status).toBe(401);
      expect((await answer(res)).message).toMatch(/own pages only/);
    }
  });

  it("does not take a forged cookie", async () => {
    const forged = `svc_session=${"A".repeat(43)}`;
    expect((await listOrganizations({ cookie: forged, origin })).status).toBe(401);
    expect((await fetch(`${cloud.url}/app/session`, { headers: { cookie: forged } })).status).toBe(401);
  });

  it("signs out only from svc-cloud's own page, and then the cookie is worth nothing", async () => {
    const cookie = await signedInCookie();
    const foreign = await fetch(`${cloud.url}/app/session`, { method: "DELETE", headers: { cookie, origin: "http://evil.example" } });
    expect(foreign.status).toBe(403);
    expect((await listOrganizations({ cookie, origin })).status).toBe(200);
    const out = await fetch(`${cloud.url}/app/session`, { method: "DELETE", headers: { cookie, origin } });
    expect(out.status).toBe(200);
    expect(out.headers.get("set-cookie")).toMatch(/^svc_session=; Path=\/; HttpOnly; SameSite=Strict; Max-Age=0$/);
    expect((await listOrganizations({ cookie, origin })).status).toBe(401);
  });

  it("ends a session left unused, and one a week old however busy", async () => {
    const idle = await signedInCookie();
    cloud.clock.advance(WEB_SESSION_IDLE_MS);
    const ended = await listOrganizations({ cookie: idle, origin });
    expect(ended.status).toBe(401);
    expect((await answer(ended)).message).toMatch(/session has ended/);

    const busy = await signedInCookie();
    const step = WEB_SESSION_IDLE_MS / 2;
    for (let used = step; used < WEB_SESSION_MAX_MS; used += step) {
      cloud.clock.advance(step);
      expect((await listOrganizations({ cookie: busy, origin })).status).toBe(200);
    }
    cloud.clock.advance(step);
    expect((await listOrganizations({ cookie: busy, origin })).status).toBe(401);
  });
});

describe("the cookie's rules", () => {
  it("reads only a well-formed session token", () => {
    const token = "b".repeat(43);
    expect(sessionTokenOf(`a=1; svc_session=${token}; c=2`)).toBe(token);
    expect(sessionTokenOf(`svc_session=${token}x`)).toBeUndefined();
    expect(sessionTokenOf("svc_session=../../etc")).toBeUndefined();
    expect(sessionTokenOf(undefined)).toBeUndefined();
  });

  it("takes an Origin only when it names the very host and port", () => {
    expect(isSameOrigin("http://localhost:8090", "localhost:8090")).toBe(true);
    expect(isSameOrigin("https://cloud.example", "Cloud.Example")).toBe(true);
    expect(isSameOrigin("http://localhost:8091", "localhost:8090")).toBe(false);
    expect(isSameOrigin("http://evil.example", "localhost:8090")).toBe(false);
    expect(isSameOrigin("null", "localhost:8090")).toBe(false);
    expect(isSameOrigin("file://localhost:8090", "localhost:8090")).toBe(false);
    expect(isSameOrigin(undefined, "localhost:8090")).toBe(false);
  });

  it("is Secure everywhere but plain HTTP on loopback", () => {
    expect(secureCookie(false, "localhost:8090")).toBe(false);
    expect(secureCookie(false, "127.0.0.1:8090")).toBe(false);
    expect(secureCookie(false, "[::1]:8090")).toBe(false);
    expect(secureCookie(false, "192.168.1.5:8090")).toBe(true);
    expect(secureCookie(false, "cloud.example")).toBe(true);
    expect(secureCookie(true, "localhost:8090")).toBe(true);
  });
});

// The hostile half of the control page's endpoints, against real svc-server processes: without a
// token or with a wrong one the logs, the configuration, the graph and the diagnostics are refused
// on a machine with API keys; a diagnostics query asking too much or nothing is refused saying why;
// another site's request (its Origin, a form posted without asking, a browser saying cross-site)
// changes nothing even with a token; an oversize configuration is refused with a clear message
// and a bad one with each problem at its path, the file and the running machine left as they
// were; a good one is written, the one it replaces kept as the last good file, and applied.
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../../helpers/eventually.js";
import { fakeMachine } from "../../helpers/page-browser.js";
import { pageCall, putConfig, tokenFor } from "../../helpers/page-client.js";
import { startSvcServer, type SvcServerProcess } from "../../helpers/svc-server-process.js";

const KEY = { id: "k1", key: "the-page-hostile-test-key-value" };
let open: SvcServerProcess;
let keyed: SvcServerProcess;

beforeAll(async () => {
  [open, keyed] = await Promise.all([
    startSvcServer(fakeMachine(), { startTimeoutMs: 30_000 }),
    startSvcServer(fakeMachine({ auth: { handlers: [{ type: "api-key", config: { [KEY.id]: KEY.key, keys: [KEY.id] } }] } }), { startTimeoutMs: 30_000 }),
  ]);
}, 60_000);
afterAll(async () => {
  await open?.stop();
  await keyed?.stop();
});

const revisionOf = async (server: SvcServerProcess, headers: Record<string, string> = {}) => (await pageCall(server.url, "/page/api/config", { headers })).body.revision as string;
const nodesOf = async (server: SvcServerProcess) => ((await pageCall(server.url, "/page/api/graph")).body.nodes as Array<{ name: string }>).map((n) => n.name).sort();

describe("on a machine with API keys", () => {
  it("refuses the logs, the configuration, the graph and the diagnostics without a token or with a wrong one", async () => {
    for (const path of ["/page/api/logs", "/page/api/config", "/page/api/graph", "/page/api/diagnostics"]) {
      const none = await pageCall(keyed.url, path);
      expect(none.status, path).toBe(401);
      expect(none.body.error).toBe("this machine has API keys: log in with a key first (no token was sent)");
      const wrong = await pageCall(keyed.url, path, { headers: { authorization: "Bearer not.a.token" } });
      expect(wrong.status, path).toBe(401);
      expect(wrong.body.error).toBe("this machine has API keys: log in with a key first (the token is not valid (expired, or its key was removed))");
    }
    const token = await tokenFor(keyed.url, KEY);
    const logs = await pageCall(keyed.url, "/page/api/logs?level=info", { headers: { authorization: `Bearer ${token}` } });
    expect(logs.status).toBe(200);
    expect((logs.body.entries as Array<{ message: string }>).some((e) => e.message.startsWith("serving"))).toBe(true);
    const diagnostics = await eventually(async () => {
      const answer = await pageCall(keyed.url, "/page/api/diagnostics?metric=process.rss_bytes", { headers: { authorization: `Bearer ${token}` } });
      return (answer.body.series as unknown[] | undefined)?.length === 1 ? answer : undefined;
    }, "a diagnostics reading");
    expect(diagnostics.status).toBe(200);
    expect(diagnostics.body).toMatchObject({ recording: true, series: [{ name: "process.rss_bytes" }] });
    // What the page asks before logging in says only that it must.
    expect((await pageCall(keyed.url, "/page/api/machine")).body).toEqual({ auth: true, webrtc: true });
  });

  it("refuses a configuration write without a token, with a wrong one, and from another site with a right one", async () => {
    const before = readFileSync(keyed.configFile, "utf8");
    const text = JSON.stringify(fakeMachine({ network: { bind_address: "localhost:0" } }));
    expect((await putConfig(keyed.url, text)).status).toBe(401);
    expect((await putConfig(keyed.url, text, { authorization: "Bearer not.a.token" })).status).toBe(401);
    const token = await tokenFor(keyed.url, KEY);
    const foreign = await putConfig(keyed.url, text, { authorization: `Bearer ${token}`, origin: "https://evil.example" });
    expect(foreign.status).toBe(403);
    expect(foreign.body.error).toBe(`changes are taken only from this machine's own page, not from "https://evil.example"`);
    expect(readFileSync(keyed.configFile, "utf8")).toBe(before);
  });
});

describe("on a machine without API keys", () => {
  it("serves the page only under the machine's own names, as the port's Host rule says", async () => {
    const port = new URL(open.url).port;
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`]) {
      expect((await pageCall(open.url, "/", { headers: { host } })).status, host).toBe(200);
    }
    for (const path of ["/", "/page/app.js", "/page/api/logs", "/page/api/config", "/page/api/diagnostics"]) {
      const rebound = await pageCall(open.url, path, { headers: { host: `evil.example:${port}` } });
      expect(rebound.status, path).toBe(421);
      expect(rebound.text).toContain('the request names host "evil.example:');
    }
  });

  it("says what is wrong with a log query", async () => {
    const level = await pageCall(open.url, "/page/api/logs?level=%3Cscript%3E");
    expect(level.status).toBe(400);
    expect(level.body.error).toBe('level: must be one of debug, info, warn, error (found "<script>")');
    const after = await pageCall(open.url, "/page/api/logs?after=-1");
    expect(after.status).toBe(400);
    expect(after.body.error).toBe("after: must be a whole number of 0 or more");
  });

  it("says what is wrong with a diagnostics query, answers none of a name written as markup, and none to another site's page", async () => {
    const many = Array.from({ length: 41 }, (_, i) => `metric=m${i}`).join("&");
    const tooMany = await pageCall(open.url, `/page/api/diagnostics?${many}`);
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error).toBe("metric: at most 40 at a time (found 41)");
    const empty = await pageCall(open.url, "/page/api/diagnostics?metric=");
    expect(empty.status).toBe(400);
    expect(empty.body.error).toBe("metric: a name is 1 to 300 characters (found an empty one)");
    const long = await pageCall(open.url, `/page/api/diagnostics?metric=${"x".repeat(301)}`);
    expect(long.status).toBe(400);
    expect(long.body.error).toBe("metric: a name is 1 to 300 characters (found one of 301)");
    // The first reading is taken a second after start: asked until api.calls is there.
    const markup = await eventually(async () => {
      const answer = await pageCall(open.url, `/page/api/diagnostics?metric=${encodeURIComponent("<script>x</script>")}&metric=api.calls`);
      expect(answer.status).toBe(200);
      expect((answer.body.series as Array<{ name: string }>).map((s) => s.name)).toEqual(["api.calls"]);
      return answer;
    }, "api.calls among the diagnostics");
    expect(markup.body.names).not.toContain("<script>x</script>");
    const foreign = await pageCall(open.url, "/page/api/diagnostics", { headers: { origin: "https://evil.example" } });
    expect(foreign.status).toBe(403);
    expect(foreign.text).toContain(`pages from "https://evil.example" may not call this machine`);
  });

  it("refuses another site's form posted without asking, and a request the browser calls cross-site", async () => {
    const before = readFileSync(open.configFile, "utf8");
    const form = "text=%7B%7D";
    const posted = await pageCall(open.url, "/page/api/config", { method: "POST", headers: { origin: "https://evil.example", "content-type": "application/x-www-form-urlencoded" }, body: form });
    expect(posted.status).toBe(403);
    expect(posted.text).toContain(`pages from "https://evil.example" may not call this machine`);
    const noOrigin = await pageCall(open.url, "/page/api/config", { method: "PUT", headers: { "content-type": "application/x-www-form-urlencoded" }, body: form });
    expect(noOrigin.status).toBe(415);
    expect(noOrigin.body.error).toBe(`send the configuration as application/json (found "application/x-www-form-urlencoded"); forms are refused`);
    const crossSite = await putConfig(open.url, "{}", { "sec-fetch-site": "cross-site" });
    expect(crossSite.status).toBe(403);
    expect(readFileSync(open.configFile, "utf8")).toBe(before);
  });

  it("refuses an oversize configuration with a clear message, the machine unchanged", async () => {
    const before = { file: readFileSync(open.configFile, "utf8"), revision: await revisionOf(open), nodes: await nodesOf(open) };
    const huge = JSON.stringify({ ...fakeMachine(), padding: "x".repeat(5 * 1024 * 1024) });
    const answer = await putConfig(open.url, huge);
    expect(answer.status).toBe(413);
    expect(answer.body.error).toMatch(/^the request body is larger than \d+ bytes, the most this endpoint takes; nothing was changed$/);
    expect(readFileSync(open.configFile, "utf8")).toBe(before.file);
    expect(await revisionOf(open)).toBe(before.revision);
    expect(await nodesOf(open)).toEqual(before.nodes);
  });

  it("refuses a bad configuration saying where it is wrong, the file and the machine as they were", async () => {
    const before = { file: readFileSync(open.configFile, "utf8"), revision: await revisionOf(open), nodes: await nodesOf(open) };
    const bad = JSON.stringify({ components: [{ name: "temp", api: "rdk:component:sensor", model: "fake" }, { name: "wheel", api: "rdk:component:motor", model: "gpio", attributes: { board: "nowhere" } }] });
    const answer = await putConfig(open.url, bad);
    expect(answer.status).toBe(422);
    expect(answer.body.error).toMatch(/^nothing was saved: components\[1\]\.attributes/);
    expect((answer.body.issues as Array<{ path: string }>).map((i) => i.path)).toContain("components[1].attributes.pins");
    const notJson = await putConfig(open.url, "{ not json");
    expect(notJson.status).toBe(422);
    expect(notJson.body.error).toMatch(/^nothing was saved: /);
    const malformed = await pageCall(open.url, "/page/api/config", { method: "PUT", headers: { "content-type": "application/json" }, body: "{" });
    expect(malformed.status).toBe(400);
    expect(readFileSync(open.configFile, "utf8")).toBe(before.file);
    expect(await revisionOf(open)).toBe(before.revision);
    expect(await nodesOf(open)).toEqual(before.nodes);
  });

  it("writes a good configuration, keeps the one it replaces as the last good file, and the machine applies it", async () => {
    const before = readFileSync(open.configFile, "utf8");
    const next = fakeMachine({ network: { bind_address: "localhost:0" } });
    (next.components as object[]).push({ name: "extra", api: "rdk:component:sensor", model: "fake" });
    const text = `${JSON.stringify(next, null, 2)}\n`;
    const answer = await putConfig(open.url, text);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.lastGood).toBe(`${open.configFile}.last-good`);
    expect(readFileSync(open.configFile, "utf8")).toBe(text);
    expect(readFileSync(`${open.configFile}.last-good`, "utf8")).toBe(before);
    await eventually(async () => ((await nodesOf(open)).includes("rdk:component:sensor/extra") ? true : undefined), "the machine to take the saved configuration");
  });
});

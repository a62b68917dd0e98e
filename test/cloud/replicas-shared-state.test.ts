// What svc-cloud replicas on one real PostgreSQL share, whichever replica a request lands on: a log
// tail opened through one hears every entry machines log through any replica, in order, none twice
// and none lost; a web session made through one signs in through another, and signing out through
// either ends it; an access token signed after one replica rotated the signing key is accepted by a
// replica that started before the rotation; and failed sign-ins through one count through the
// other. And a tail on SQLite (one process) still hears what its machine logs.
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { createClient, type Client } from "@connectrpc/connect";
import { decodeProtectedHeader } from "jose";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { AppService } from "../../proto/gen/app/v1/app_pb.js";
import { RobotService } from "../../proto/gen/app/v1/robot_pb.js";
import { AuthService } from "../../proto/gen/proto/rpc/v1/auth_pb.js";
import { bearer, cloudTransport, signedInClient, signIn } from "../helpers/cloud-client.js";
import { startCloud, type CloudProcess } from "../helpers/cloud-process.js";
import { eventually } from "../helpers/eventually.js";
import { postgresReplicas } from "../helpers/postgres-replicas.js";

const OWNER = { email: "owner@example.com", password: "correct horse battery" };
const DAY = 24 * 60 * 60_000;

const postgres = postgresReplicas();
/** `svc-cloud init` with an owner who signs in with a password. */
const withOwner = { initArgs: ["--email", OWNER.email, "--password", OWNER.password] };

const entry = (message: string) => ({ host: "rover", level: "info", time: timestampFromMs(Date.now()), loggerName: "rdk", message, caller: {}, stack: "", fields: [] });

/** Opens a tail of `partId` through `app`; resolves once it listens, with the messages it hears. */
async function openTail(app: Client<typeof AppService>, partId: string) {
  const heard: string[] = [];
  const abort = new AbortController();
  const stream = app.tailRobotPartLogs({ id: partId }, { signal: abort.signal })[Symbol.asyncIterator]();
  expect((await stream.next()).value.logs).toEqual([]);
  const ended = (async () => {
    try {
      for (let next = await stream.next(); !next.done; next = await stream.next()) heard.push(...next.value.logs.map((log: { message: string }) => log.message));
    } catch (thrown) {
      if (!abort.signal.aborted) throw thrown;
    }
  })();
  return {
    heard,
    close: async () => {
      abort.abort();
      await ended;
    },
  };
}

/** `calls` Log calls of three entries each, one after another, named `${name}-call-entry`. */
async function logCalls(device: Client<typeof RobotService>, partId: string, name: string, calls: number): Promise<string[]> {
  const sent: string[] = [];
  for (let call = 0; call < calls; call++) {
    const messages = [0, 1, 2].map((i) => `${name}-${call}-${i}`);
    await device.log({ id: partId, logs: messages.map(entry) });
    sent.push(...messages);
  }
  return sent;
}

/** The status of asking `cloud` who the web session's cookie signs in: 200, or 401 for nobody. */
async function sessionStatus(cloud: CloudProcess, cookie: string): Promise<number> {
  return (await fetch(`${cloud.url}/app/session`, { headers: { cookie } })).status;
}

async function organizationsWith(cloud: CloudProcess, token: string): Promise<number> {
  const app = createClient(AppService, cloudTransport(cloud.url, "grpc", [bearer(token)]));
  return (await app.listOrganizations({})).organizations.length;
}

describe("svc-cloud replicas on one PostgreSQL share", () => {
  it("log tails: a tail through B hears what machines log through A and B, in order, none twice, none lost", async () => {
    const { init, clouds: [a, b] } = await postgres.replicas(2, withOwner);
    const machine = a!.createMachine("rover");
    const partId = machine.cloud.id;
    const tail = await openTail(await signedInClient(AppService, b!.url, init.api_key), partId);
    const [throughA, throughB] = [await signedInClient(RobotService, a!.url, machine.cloud.api_key), await signedInClient(RobotService, b!.url, machine.cloud.api_key)];

    const [sentA, sentB] = await Promise.all([logCalls(throughA, partId, "a", 40), logCalls(throughB, partId, "b", 40)]);
    const last = await logCalls(throughA, partId, "last", 1);
    await eventually(() => (tail.heard.includes(last.at(-1)!) ? true : undefined), "the tail through B to hear the last call");
    await tail.close();

    expect(tail.heard.filter((m) => m.startsWith("a-"))).toEqual(sentA);
    expect(tail.heard.filter((m) => m.startsWith("b-"))).toEqual(sentB);
    expect(tail.heard.slice(-3)).toEqual(last);
    expect(tail.heard).toHaveLength(sentA.length + sentB.length + last.length);
  });

  it("web sessions, signing keys rotated by another replica, and the sign-in limit", async () => {
    const { database, init, clouds: [b] } = await postgres.replicas(1, withOwner);
    const before = await signIn(b.url, init.api_key.id, init.api_key.key);
    expect(await organizationsWith(b, before)).toBe(1);

    // The signing key is thirty-one days old when A starts: A rotates it at once, B knows nothing of it.
    const admin = new pg.Client({ connectionString: database });
    await admin.connect();
    try {
      await admin.query("update signing_keys set created_at = created_at - $1", [31 * DAY]);
    } finally {
      await admin.end();
    }
    const a = await postgres.serve(database, init);
    await eventually(() => (/the token signing key was rotated/.test(a.stderr()) ? true : undefined), "A to rotate the signing key");
    const after = await signIn(a.url, init.api_key.id, init.api_key.key);
    expect(decodeProtectedHeader(after).kid).not.toBe(decodeProtectedHeader(before).kid);
    expect(await organizationsWith(b, after)).toBe(1);
    expect(await organizationsWith(a, before)).toBe(1);

    const signedIn = await fetch(`${a.url}/app/session`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: new URL(a.url).origin },
      body: JSON.stringify(OWNER),
    });
    expect(signedIn.status).toBe(200);
    const cookie = signedIn.headers.get("set-cookie")!.split(";")[0]!;
    expect(await sessionStatus(b, cookie)).toBe(200);
    const listed = await fetch(`${b.url}/viam.app.v1.AppService/ListOrganizations`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie, origin: new URL(b.url).origin },
      body: "{}",
    });
    expect(listed.status).toBe(200);
    const signedOut = await fetch(`${b.url}/app/session`, { method: "DELETE", headers: { cookie, origin: new URL(b.url).origin } });
    expect(signedOut.status).toBeLessThan(300);
    expect(await sessionStatus(a, cookie)).toBe(401);

    const withPassword = (cloud: CloudProcess, password: string) =>
      createClient(AuthService, cloudTransport(cloud.url)).authenticate({ entity: OWNER.email, credentials: { type: "password", payload: password } });
    for (let i = 0; i < 10; i++) await expect(withPassword(i % 2 === 0 ? a : b, "wrong horse")).rejects.toThrow(/\[unauthenticated\] invalid credentials/);
    await expect(withPassword(a, "wrong horse")).rejects.toThrow(/\[resource_exhausted\] too many failed sign-in attempts/);
    await expect(withPassword(b, OWNER.password)).rejects.toThrow(/\[resource_exhausted\] too many failed sign-in attempts/);
  });
});

describe("a log tail on SQLite", () => {
  it("hears what the machine logs, in order", async () => {
    const cloud = postgres.adopt(await startCloud());
    const machine = cloud.createMachine("rover");
    const tail = await openTail(await signedInClient(AppService, cloud.url, cloud.init.api_key), machine.cloud.id);
    const sent = await logCalls(await signedInClient(RobotService, cloud.url, machine.cloud.api_key), machine.cloud.id, "s", 10);
    await eventually(() => (tail.heard.length >= sent.length ? true : undefined), "the tail to hear every call");
    await tail.close();
    expect(tail.heard).toEqual(sent);
  });
});

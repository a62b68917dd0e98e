// Access tokens over time, on a clock the test moves: a token ends at its `exp`; the signing key
// rotates after thirty days without logging anyone out; a revoked key's token is refused at
// once; a token svc-cloud did not sign, or signed for nothing, is refused.
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { exportJWK, generateKeyPair, SignJWT, decodeProtectedHeader, decodeJwt } from "jose";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AppService } from "../../proto/gen/app/v1/app_pb.js";
import { revokeApiKey } from "../../targets/cloud/storage/api-keys.js";
import { bearer, cloudTransport, signIn } from "../helpers/cloud-client.js";
import { startInProcessCloud, type InProcessCloud } from "../helpers/cloud-in-process.js";
import { eventually } from "../helpers/eventually.js";

let cloud: InProcessCloud;
beforeEach(async () => {
  cloud = await startInProcessCloud();
});
afterEach(() => cloud.stop());

const HOUR = 60 * 60_000;
const DAY = 24 * HOUR;

/** The code a protected call ends with under `token` (undefined when it passed authentication). */
async function authCode(token: string): Promise<Code | undefined> {
  const app = createClient(AppService, cloudTransport(cloud.url, "grpc", [bearer(token)]));
  try {
    await app.listOrganizations({});
    return undefined;
  } catch (thrown) {
    const code = ConnectError.from(thrown).code;
    return code === Code.Unauthenticated ? code : undefined;
  }
}

async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
}

describe("access tokens", () => {
  it("are good for an hour, then refused", async () => {
    const token = await signIn(cloud.url, cloud.init.api_key.id, cloud.init.api_key.key);
    expect(await authCode(token)).toBeUndefined();
    cloud.clock.advance(HOUR - 60_000);
    expect(await authCode(token)).toBeUndefined();
    cloud.clock.advance(2 * 60_000);
    expect(await authCode(token)).toBe(Code.Unauthenticated);
  });

  it("outlive a rotation of the signing key: the old key still verifies what it signed", async () => {
    const before = await signIn(cloud.url, cloud.init.api_key.id, cloud.init.api_key.key);
    cloud.clock.advance(30 * DAY - 10 * 60_000);
    await settle();
    // A fresh token under the old key, just before the hourly check finds the key too old.
    const old = await signIn(cloud.url, cloud.init.api_key.id, cloud.init.api_key.key);
    expect(decodeProtectedHeader(old).kid).toBe(decodeProtectedHeader(before).kid);
    cloud.clock.advance(20 * 60_000);
    await eventually(() => (cloud.logs.some((l) => /signing key was rotated/.test(l)) ? true : undefined), "the signing key to rotate");
    const after = await signIn(cloud.url, cloud.init.api_key.id, cloud.init.api_key.key);
    expect(decodeProtectedHeader(after).kid).not.toBe(decodeProtectedHeader(old).kid);
    expect(await authCode(old)).toBeUndefined();
    expect(await authCode(after)).toBeUndefined();
    expect(await authCode(before)).toBe(Code.Unauthenticated);
  });

  it("of a revoked key are refused at once", async () => {
    const token = await signIn(cloud.url, cloud.init.api_key.id, cloud.init.api_key.key);
    await revokeApiKey(cloud.server.context.store.db, cloud.init.api_key.id, cloud.clock.now());
    expect(await authCode(token)).toBe(Code.Unauthenticated);
    await expect(signIn(cloud.url, cloud.init.api_key.id, cloud.init.api_key.key)).rejects.toThrow(/invalid credentials/);
  });

  it("are refused when svc-cloud did not sign them, whatever they claim", async () => {
    const real = await signIn(cloud.url, cloud.init.api_key.id, cloud.init.api_key.key);
    const { kid } = decodeProtectedHeader(real);
    const claims = decodeJwt(real);
    const foreign = await generateKeyPair("ES256", { extractable: true });
    const now = Math.floor(cloud.clock.now() / 1000);
    const forged = await new SignJWT({ ...claims }).setProtectedHeader({ alg: "ES256", kid }).setIssuedAt(now).setExpirationTime(now + 600).sign(foreign.privateKey);
    expect(await authCode(forged)).toBe(Code.Unauthenticated);
    const unsigned = `${Buffer.from(JSON.stringify({ alg: "none", kid })).toString("base64url")}.${Buffer.from(JSON.stringify(claims)).toString("base64url")}.`;
    expect(await authCode(unsigned)).toBe(Code.Unauthenticated);
    const hmac = await new SignJWT({ ...claims }).setProtectedHeader({ alg: "HS256", kid }).sign(new TextEncoder().encode(JSON.stringify(await exportJWK(foreign.publicKey))));
    expect(await authCode(hmac)).toBe(Code.Unauthenticated);
    const [header, , signature] = real.split(".");
    const otherSubject = `${header}.${Buffer.from(JSON.stringify({ ...claims, sub: "user:someone-else" })).toString("base64url")}.${signature}`;
    expect(await authCode(otherSubject)).toBe(Code.Unauthenticated);
    expect(await authCode("not-a-token")).toBe(Code.Unauthenticated);
  });
});

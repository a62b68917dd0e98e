// Signing in to svc-cloud: an API key becomes a JWT with `kid` and `exp`, over gRPC and gRPC-web;
// wrong, unknown and revoked keys are refused alike, and guessing is limited.
import { createClient } from "@connectrpc/connect";
import { decodeJwt, decodeProtectedHeader } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AuthService } from "../../proto/gen/proto/rpc/v1/auth_pb.js";
import { cloudTransport, signIn } from "../helpers/cloud-client.js";
import { startCloud, type CloudProcess } from "../helpers/cloud-process.js";

let cloud: CloudProcess;
beforeAll(async () => {
  cloud = await startCloud({ email: "owner@example.com", password: "correct horse" });
});
afterAll(() => cloud?.stop());

describe("Authenticate", () => {
  it("exchanges an organisation key for a token with kid, exp and a subject, over gRPC and gRPC-web", async () => {
    for (const wire of ["grpc", "grpc-web"] as const) {
      const token = await signIn(cloud.url, cloud.init.api_key.id, cloud.init.api_key.key, wire);
      expect(decodeProtectedHeader(token).kid).toBeTruthy();
      const claims = decodeJwt(token);
      expect(claims.exp! - claims.iat!).toBeGreaterThan(0);
      expect(claims.sub).toBe(`key:${cloud.init.api_key.id}`);
    }
  });

  it("exchanges a part key and a person's password", async () => {
    const machine = cloud.createMachine("signs-in");
    const token = await signIn(cloud.url, machine.cloud.api_key.id, machine.cloud.api_key.key);
    expect(decodeJwt(token).sub).toBe(`key:${machine.cloud.api_key.id}`);
    const auth = createClient(AuthService, cloudTransport(cloud.url));
    const person = await auth.authenticate({ entity: "OWNER@example.com", credentials: { type: "password", payload: "correct horse" } });
    expect(decodeJwt(person.accessToken).sub).toMatch(/^user:/);
  });

  it("refuses a wrong key, an unknown key id and a wrong password with the same answer", async () => {
    const auth = createClient(AuthService, cloudTransport(cloud.url));
    const attempts = [
      { entity: cloud.init.api_key.id, credentials: { type: "api-key", payload: "x".repeat(32) } },
      { entity: "no-such-key", credentials: { type: "api-key", payload: cloud.init.api_key.key } },
      { entity: "owner@example.com", credentials: { type: "password", payload: "wrong horse" } },
    ];
    for (const attempt of attempts) await expect(auth.authenticate(attempt)).rejects.toThrow(/\[unauthenticated\] invalid credentials/);
    await expect(auth.authenticate({ entity: "x", credentials: { type: "robot-secret", payload: "y" } })).rejects.toThrow(/\[invalid_argument\] unsupported credential type/);
    await expect(auth.authenticate({ entity: "x" })).rejects.toThrow(/unsupported credential type ""/);
  });

  it("locks an entity out after ten failures, even for the right key", async () => {
    const machine = cloud.createMachine("guessed");
    const auth = createClient(AuthService, cloudTransport(cloud.url));
    for (let i = 0; i < 10; i++) {
      await expect(auth.authenticate({ entity: machine.cloud.api_key.id, credentials: { type: "api-key", payload: `guess-${i}` } })).rejects.toThrow(/unauthenticated/);
    }
    await expect(signIn(cloud.url, machine.cloud.api_key.id, machine.cloud.api_key.key)).rejects.toThrow(/\[resource_exhausted\] too many failed sign-in attempts/);
  });
});

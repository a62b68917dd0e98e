// An open server on another interface than loopback is warned about; a loopback bind or any
// API key configured is not.
import { describe, expect, it } from "vitest";
import { plaintextCredentialsProblem, unauthenticatedBindWarning } from "../../../targets/linux/server/auth/index.js";

const open = { handlers: [] };
const withKeys = { handlers: [{ type: "api-key" as const, config: { k: "v" } }] };

describe("unauthenticatedBindWarning", () => {
  it("stays quiet on loopback binds", () => {
    for (const bind of ["localhost:8080", "127.0.0.1:8080", "127.0.0.2:0", "[::1]:8080"]) {
      expect(unauthenticatedBindWarning(bind, open), bind).toBeUndefined();
    }
  });

  it("warns for every interface and for other addresses, naming the bind and the fix", () => {
    for (const [bind, where] of [
      [":8080", "every network interface"],
      ["0.0.0.0:8080", "every network interface"],
      ["[::]:8080", "every network interface"],
      ["192.168.1.20:8080", "192.168.1.20"],
      ["robot.local:8080", "robot.local"],
    ]) {
      const warning = unauthenticatedBindWarning(bind!, open);
      expect(warning, bind).toContain(`bind_address ${JSON.stringify(bind)} listens on ${where} without authentication`);
      expect(warning).toContain("auth.handlers");
    }
  });

  it("stays quiet when API keys are configured", () => {
    expect(unauthenticatedBindWarning("0.0.0.0:8080", withKeys)).toBeUndefined();
  });
});

describe("plaintextCredentialsProblem", () => {
  it("accepts loopback, TLS and the insecure override; refuses plaintext from elsewhere", () => {
    expect(plaintextCredentialsProblem({ address: "127.0.0.1", secure: false }, false)).toBeUndefined();
    expect(plaintextCredentialsProblem({ address: "::1", secure: false }, false)).toBeUndefined();
    expect(plaintextCredentialsProblem({ address: "::ffff:127.0.0.1", secure: false }, false)).toBeUndefined();
    expect(plaintextCredentialsProblem({ address: "10.1.2.3", secure: true }, false)).toBeUndefined();
    expect(plaintextCredentialsProblem({ address: "10.1.2.3", secure: false }, true)).toBeUndefined();
    expect(plaintextCredentialsProblem({ address: "::ffff:10.1.2.3", secure: false }, false)).toContain("-allow-insecure-creds");
  });
});

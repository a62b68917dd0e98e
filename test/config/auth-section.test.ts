// The auth section fails closed: Viam's api-key format (ids and keys, the `keys` list of ids, and
// the legacy id-less `key` / `keys`) is read as written; anything in `auth` that asks for
// authentication svc-server cannot give exactly as written leaves no configuration at all, with
// the path of the problem, so no machine runs with less protection than its file asks for.
import { describe, expect, it } from "vitest";
import { parseMachineConfig } from "../../core/index.js";
import { error, parse } from "./helpers.js";

const refusedWhole = (input: object) => {
  const { config, issues } = parseMachineConfig(input);
  expect(config, JSON.stringify(input)).toBeNull();
  expect(issues[0]).toMatchObject({ path: "", severity: "error" });
  expect(issues[0]!.message).toContain("auth");
  return issues.slice(1);
};

describe("Viam's api-key handler format", () => {
  it("takes key ids with their keys, and the `keys` list naming those ids", () => {
    const { config, issues } = parse({
      auth: { handlers: [{ type: "api-key", config: { "id-1": "key-one", "id-2": "key-two", keys: ["id-1", "id-2"] } }] },
    });
    expect(issues).toEqual([]);
    expect(config.auth.handlers).toEqual([{ type: "api-key", config: { "id-1": "key-one", "id-2": "key-two" } }]);
  });

  it("takes the legacy id-less forms, `key` and `keys` of keys, as keys without an id", () => {
    const one = parse({ auth: { handlers: [{ type: "api-key", config: { key: "old-secret" } }] } });
    expect(one.issues).toEqual([]);
    expect(one.config.auth.handlers).toEqual([{ type: "api-key", config: {}, legacy_keys: ["old-secret"] }]);
    const many = parse({ auth: { handlers: [{ type: "api-key", config: { keys: ["first-secret", "second-secret"] } }] } });
    expect(many.config.auth.handlers).toEqual([{ type: "api-key", config: {}, legacy_keys: ["first-secret", "second-secret"] }]);
  });

  it("accepts an empty tls_auth_entities list and a null external_auth_config as nothing asked", () => {
    const { config, issues } = parse({ auth: { handlers: [], tls_auth_entities: [], external_auth_config: null } });
    expect(issues).toEqual([]);
    expect(config.auth).toEqual({ handlers: [] });
  });
});

describe("an auth section that cannot be used as written leaves no configuration", () => {
  const handler = (config: unknown, type: unknown = "api-key") => ({ auth: { handlers: [{ type, config }] } });

  it("a handler type svc-server does not serve (a typo, or another kind)", () => {
    expect(refusedWhole(handler({ id: "k" }, "api_key"))).toEqual([
      error("auth.handlers[0].type", 'must be "api-key" (found "api_key")'),
    ]);
    expect(refusedWhole(handler({ secret: "s" }, "robot-location-secret"))[0]?.path).toBe("auth.handlers[0].type");
  });

  it("a key that is not a string, without echoing it", () => {
    const issues = refusedWhole(handler({ id: 12345678 }));
    expect(issues).toEqual([error("auth.handlers[0].config.id", "must be a non-empty key (found a number value)")]);
    const listed = refusedWhole(handler({ keys: [98765432] }));
    expect(listed[0]?.path).toBe("auth.handlers[0].config.keys[0]");
    expect(JSON.stringify(listed)).not.toContain("98765432");
  });

  it("a misspelt key anywhere in auth", () => {
    const handlers = [{ type: "api-key", config: { id: "k" } }];
    expect(refusedWhole({ auth: { handler: handlers } })).toEqual([error("auth.handler", 'unknown key "handler"')]);
    expect(refusedWhole({ auth: { handlers: [{ typ: "api-key", type: "api-key", config: { id: "k" } }] } })).toEqual([
      error("auth.handlers[0].typ", 'unknown key "typ"'),
    ]);
  });

  it("an auth section of the wrong shape", () => {
    expect(refusedWhole({ auth: "api-key" })[0]?.path).toBe("auth");
    expect(refusedWhole({ auth: { handlers: {} } })[0]?.path).toBe("auth.handlers");
    expect(refusedWhole(handler(undefined))[0]).toEqual(error("auth.handlers[0].config", "is required"));
  });

  it("two api-key handlers", () => {
    const issues = refusedWhole({ auth: { handlers: [{ type: "api-key", config: { a: "k1" } }, { type: "api-key", config: { b: "k2" } }] } });
    expect(issues).toEqual([error("auth.handlers[1].type", '"api-key" is already configured by auth.handlers[0]')]);
  });

  it("a `keys` list naming something that is not a key id of the handler", () => {
    const issues = refusedWhole(handler({ "id-1": "key-one", keys: ["id-1", "looks-like-a-secret"] }));
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ path: "auth.handlers[0].config.keys[1]", severity: "error" });
    expect(issues[0]!.message).toContain("names no key id of this handler");
    expect(issues[0]!.message).not.toContain("looks-like-a-secret");
  });

  it("external_auth_config, which svc-server cannot verify, with the reason", () => {
    const issues = refusedWhole({ auth: { handlers: [], external_auth_config: { jwks: { keys: [] } } } });
    expect(issues).toHaveLength(1);
    expect(issues[0]!.path).toBe("auth.external_auth_config");
    expect(issues[0]!.message).toContain("cannot verify");
  });

  it("tls_auth_entities, which svc-server does not authenticate", () => {
    const issues = refusedWhole({ auth: { handlers: [{ type: "api-key", config: { a: "k" } }], tls_auth_entities: ["part-id"] } });
    expect(issues).toHaveLength(1);
    expect(issues[0]!.path).toBe("auth.tls_auth_entities");
    expect(issues[0]!.message).toContain("client certificates");
  });
});

describe("network names and origins", () => {
  it("default to none", () => {
    expect(parse({}).config.network).toMatchObject({ fqdn: "", local_fqdn: "", allowed_hosts: [], cors_origins: [] });
  });

  it("takes host names and origins as written", () => {
    const { config, issues } = parse({
      network: {
        fqdn: "robot-main.abc.viam.cloud",
        local_fqdn: "robot-main.abc.local.viam.cloud",
        allowed_hosts: ["robot.example.com", "10.1.2.3", "[fd00::1]"],
        cors_origins: ["https://app.example.com", "http://localhost:5173"],
      },
    });
    expect(issues).toEqual([]);
    expect(config.network).toMatchObject({
      fqdn: "robot-main.abc.viam.cloud",
      allowed_hosts: ["robot.example.com", "10.1.2.3", "[fd00::1]"],
      cors_origins: ["https://app.example.com", "http://localhost:5173"],
    });
  });

  it("leaves out an entry that is not a host name or an origin (less is allowed, never more)", () => {
    const { config, issues } = parse({
      network: { allowed_hosts: ["ok.example", "*", "evil.example:80"], cors_origins: ["*", "https://ok.example", "https://x.example/path"] },
    });
    expect(config.network.allowed_hosts).toEqual(["ok.example"]);
    expect(config.network.cors_origins).toEqual(["https://ok.example"]);
    expect(issues.map((i) => [i.path, i.severity])).toEqual([
      ["network.allowed_hosts[1]", "error"],
      ["network.allowed_hosts[2]", "error"],
      ["network.cors_origins[0]", "error"],
      ["network.cors_origins[2]", "error"],
    ]);
  });
});

// The provisioning API a mobile app uses, over real HTTP on loopback: status, networks, network
// and credentials submission with validation, and the errors a client can cause.
import { afterEach, describe, expect, it } from "vitest";
import { createCollectingSink, createLogEngine } from "../../../core/index.js";
import { createNodeClock } from "../../../targets/linux/logging/index.js";
import type { PortalSession } from "../../../targets/linux/agent/network/provisioning/index.js";
import { createCaptivePortalSeam } from "../../../targets/linux/agent/network/portal/index.js";
import { VISIBLE_NETWORKS, startPortalFixture, type PortalFixture } from "./portal-fixture.js";

let portal: PortalFixture | undefined;
afterEach(async () => {
  await portal?.stop();
  portal = undefined;
});

async function call(path: string, init: RequestInit = {}): Promise<{ status: number; body: any; headers: Headers }> {
  const res = await fetch(portal!.url + path, init);
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
}

function post(path: string, body: unknown): Promise<{ status: number; body: any; headers: Headers }> {
  return call(path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

describe("provisioning API", () => {
  it("reports the device, its fragment and whether it needs credentials", async () => {
    portal = await startPortalFixture({ fragmentId: "frag-42", needsCredentials: true });
    const { status, body } = await call("/api/v1/status");
    expect(status).toBe(200);
    expect(body).toEqual({
      manufacturer: "Acme Robotics",
      model: "Rover 3",
      fragment_id: "frag-42",
      needs_credentials: true,
      state: "waiting",
      last_error: null,
    });
  });

  it("lists the visible networks with strength and security", async () => {
    portal = await startPortalFixture();
    const { status, body } = await call("/api/v1/networks");
    expect(status).toBe(200);
    expect(body.networks[0]).toEqual({ ssid: "Home Net", strength: 82, security: "wpa-psk", secured: true, frequency_mhz: 5180 });
    expect(body.networks.map((n: { ssid: string }) => n.ssid)).toEqual(["Home Net", "Café <Libre>", "Office", "Neighbour"]);
    expect(body.networks[1].secured).toBe(false);
  });

  it("rejects bad network choices naming the field, and submits nothing", async () => {
    portal = await startPortalFixture();
    const cases: Array<[unknown, string, RegExp]> = [
      [{ ssid: "", psk: "password1" }, "ssid", /network name/],
      [{ ssid: "é".repeat(17), psk: "password1" }, "ssid", /34 bytes.*at most 32/],
      [{ ssid: "Home Net", psk: "short" }, "psk", /too short/],
      [{ ssid: "Home Net", psk: "" }, "psk", /empty only for an open network/],
      [{ ssid: "Not Seen", psk: "" }, "psk", /empty only for an open network/],
      [{ ssid: "Home Net", psk: "x".repeat(64) }, "psk", /only printable ASCII|too long/],
      [{ ssid: "Home Net", psk: "pässwörd123" }, "psk", /printable ASCII/],
      [{ ssid: "Office", psk: "password1" }, "ssid", /enterprise/],
      [{ ssid: 42, psk: "password1" }, "ssid", /ssid: must be a string/],
      [{ ssid: "Home\u0000Net", psk: "password1" }, "ssid", /may not contain control characters/],
      [{ ssid: "Home Net\nnew line", psk: "password1" }, "ssid", /may not contain control characters/],
      [{ ssid: "tab\there", psk: "password1" }, "ssid", /may not contain control characters/],
      [{ ssid: "del\u007f", psk: "password1" }, "ssid", /may not contain control characters/],
    ];
    for (const [body, field, message] of cases) {
      const answer = await post("/api/v1/network", body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.field, JSON.stringify(body)).toBe(field);
      expect(answer.body.error, JSON.stringify(body)).toMatch(message);
    }
    expect(portal.submitted).toEqual([]);
  });

  it("submits valid choices: WPA passphrase, 64 hex digits, and an open network without password", async () => {
    portal = await startPortalFixture();
    const hex = "0123456789abcdef".repeat(4);
    for (const choice of [
      { ssid: "Home Net", psk: "correct horse" },
      { ssid: "Neighbour", psk: hex },
      { ssid: "Café <Libre>", psk: "" },
    ]) {
      const answer = await post("/api/v1/network", choice);
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ ok: true });
    }
    expect(portal.submitted).toEqual([
      { ssid: "Home Net", psk: "correct horse" },
      { ssid: "Neighbour", psk: hex },
      { ssid: "Café <Libre>", psk: "" },
    ]);
    expect((await call("/api/v1/status")).body.state).toBe("connected");
  });

  it("answers a failed connection with its error, kept in the status", async () => {
    portal = await startPortalFixture();
    portal.submitAnswers.push({ ok: false, error: "Secrets were required, but not provided" });
    const answer = await post("/api/v1/network", { ssid: "Home Net", psk: "wrong password" });
    expect(answer.status).toBe(502);
    expect(answer.body).toEqual({ ok: false, error: "Secrets were required, but not provided" });
    const status = (await call("/api/v1/status")).body;
    expect(status.state).toBe("failed");
    expect(status.last_error).toBe("Secrets were required, but not provided");
  });

  it("refuses a second submit while one is connecting", async () => {
    let release: (r: { ok: true }) => void = () => {};
    portal = await startPortalFixture({ submit: () => new Promise((resolve) => (release = resolve)) });
    const first = post("/api/v1/network", { ssid: "Home Net", psk: "password1" });
    await expect.poll(async () => (await call("/api/v1/status")).body.state).toBe("connecting");
    const second = await post("/api/v1/network", { ssid: "Home Net", psk: "password1" });
    expect(second.status).toBe(409);
    release({ ok: true });
    expect((await first).status).toBe(200);
  });

  it("takes machine credentials, validating each field", async () => {
    portal = await startPortalFixture({ needsCredentials: true });
    const missing = await post("/api/v1/credentials", { part_id: "p-1", api_key_id: "k-1" });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ ok: false, error: "Enter the API key.", field: "api_key" });
    const spaced = await post("/api/v1/credentials", { part_id: "p 1", api_key_id: "k-1", api_key: "secret" });
    expect(spaced.body.field).toBe("part_id");
    expect(portal.savedCredentials).toEqual([]);

    // svc-cloud's address, when the app gives it, is svc-cloud alone: no path, no user, http or https.
    for (const address of ["ftp://cloud.example.com", "https://user:pw@cloud.example.com", "https://cloud.example.com/app?x=1", "not a url"]) {
      const bad = await post("/api/v1/credentials", { part_id: "p-1", api_key_id: "k-1", api_key: "s3cr3t-key", app_address: address });
      expect(bad.status).toBe(400);
      expect(bad.body.field).toBe("app_address");
    }
    expect(portal.savedCredentials).toEqual([]);

    const ok = await post("/api/v1/credentials", { part_id: "p-1", api_key_id: "k-1", api_key: "s3cr3t-key" });
    expect(ok.status).toBe(200);
    expect(portal.savedCredentials).toEqual([{ partId: "p-1", apiKeyId: "k-1", apiKey: "s3cr3t-key" }]);
    expect((await call("/api/v1/status")).body.needs_credentials).toBe(false);
    const withAddress = await post("/api/v1/credentials", { part_id: "p-1", api_key_id: "k-1", api_key: "s3cr3t-key", app_address: "https://cloud.example.com:8443" });
    expect(withAddress.status).toBe(200);
    expect(portal.savedCredentials.at(-1)?.appAddress).toBe("https://cloud.example.com:8443");
  });

  it("says when the device does not take credentials, or when saving them fails", async () => {
    portal = await startPortalFixture({ saveCredentials: undefined });
    const unsupported = await post("/api/v1/credentials", { part_id: "p", api_key_id: "k", api_key: "s" });
    expect(unsupported.status).toBe(501);
    await portal.stop();
    portal = await startPortalFixture({
      saveCredentials: async () => {
        throw new Error("read-only file system");
      },
    });
    const failed = await post("/api/v1/credentials", { part_id: "p", api_key_id: "k", api_key: "s" });
    expect(failed.status).toBe(500);
    expect(failed.body.error).toMatch(/could not be saved: read-only file system/);
  });

  it("answers a wrong method with 405 and the allowed ones", async () => {
    portal = await startPortalFixture();
    const get = await call("/api/v1/network");
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST");
    expect(get.body.error).toMatch(/GET is not allowed on \/api\/v1\/network; use POST/);
    const del = await call("/api/v1/status", { method: "DELETE" });
    expect(del.status).toBe(405);
    expect(del.headers.get("allow")).toBe("GET, HEAD");
    expect((await call("/api/v1/nothing")).status).toBe(404);
  });

  it("says where a JSON body is broken", async () => {
    portal = await startPortalFixture();
    const broken = await post("/api/v1/network", '{\n  "ssid": "Home Net",\n  "psk": }');
    expect(broken.status).toBe(400);
    expect(broken.body.error).toMatch(/not valid JSON: unexpected "}" at line 3, column 10/);
    const cut = await post("/api/v1/network", '{"ssid": "Home');
    expect(cut.body.error).toMatch(/not valid JSON: unexpected end of input/);
    const array = await post("/api/v1/network", "[]");
    expect(array.status).toBe(400);
    expect(array.body.error).toMatch(/must be a JSON object/);
    expect(portal.submitted).toEqual([]);
  });

  it("reads JSON only when sent as application/json, so a cross-site form cannot post it as text/plain", async () => {
    portal = await startPortalFixture({ needsCredentials: true });
    const choice = JSON.stringify({ ssid: "Home Net", psk: "password1" });
    for (const type of ["text/plain", "text/plain;charset=UTF-8", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", undefined]) {
      const answer = await call("/api/v1/network", { method: "POST", headers: type ? { "content-type": type } : {}, body: choice });
      expect(answer.status, String(type)).toBe(415);
      expect(answer.body.error, String(type)).toMatch(/must be sent as Content-Type: application\/json/);
    }
    const credentials = await call("/api/v1/credentials", {
      method: "POST",
      headers: { "content-type": "text/plain" },
      body: JSON.stringify({ part_id: "p-1", api_key_id: "k-1", api_key: "key-1" }),
    });
    expect(credentials.status).toBe(415);
    expect(credentials.body.error).toBe("the request body must be sent as Content-Type: application/json, not text/plain");
    expect(portal.submitted).toEqual([]);
    expect(portal.savedCredentials).toEqual([]);
    // With its charset, or in capitals, it is still JSON.
    const accepted = await call("/api/v1/network", { method: "POST", headers: { "content-type": "Application/JSON; charset=utf-8" }, body: choice });
    expect(accepted.status).toBe(200);
    expect(portal.submitted).toEqual([{ ssid: "Home Net", psk: "password1" }]);
  });

  it("refuses a body over the size limit without reading it all", async () => {
    portal = await startPortalFixture();
    const answer = await post("/api/v1/network", JSON.stringify({ ssid: "Home Net", psk: "x".repeat(100_000) }));
    expect(answer.status).toBe(413);
    expect(answer.body.error).toMatch(/larger than 16384 bytes/);
    // The portal still serves after it.
    expect((await call("/api/v1/status")).status).toBe(200);
  });

  it("counts every request as user activity and never logs a password or key", async () => {
    portal = await startPortalFixture({ needsCredentials: true });
    await call("/api/v1/status");
    await call("/api/v1/networks");
    await post("/api/v1/network", { ssid: "Home Net", psk: "hunter2hunter2" });
    await post("/api/v1/credentials", { part_id: "p-1", api_key_id: "k-1", api_key: "very-secret-key" });
    await fetch(portal.url + "/");
    expect(portal.activity.count).toBe(5);
    const logged = JSON.stringify(portal.logs);
    expect(logged).toContain("Home Net");
    expect(logged).not.toContain("hunter2hunter2");
    expect(logged).not.toContain("very-secret-key");
  });
});

describe("portal page routes", () => {
  it("answers operating-system probe URLs and unknown paths with the page when redirecting", async () => {
    portal = await startPortalFixture();
    for (const path of ["/", "/generate_204", "/hotspot-detect.html", "/connecttest.txt", "/some/unknown/page"]) {
      const res = await fetch(portal.url + path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/text\/html/);
      expect(await res.text()).toContain("Rover 3");
    }
  });

  it("serves only / when redirection is off", async () => {
    portal = await startPortalFixture({ redirectAll: false });
    expect((await fetch(portal.url + "/")).status).toBe(200);
    const probe = await fetch(portal.url + "/generate_204");
    expect(probe.status).toBe(404);
    expect(await probe.text()).toMatch(/setup page is at http:\/\/127\.0\.0\.1\//);
  });

  it("works without JavaScript: the form posts and the page shows the field error or the outcome", async () => {
    portal = await startPortalFixture();
    const form = (fields: Record<string, string>) =>
      fetch(portal!.url + "/", { method: "POST", body: new URLSearchParams(fields) });
    const rejected = await form({ ssid: "Home Net", psk: "short" });
    expect(rejected.status).toBe(400);
    const rejectedHtml = await rejected.text();
    expect(rejectedHtml).toMatch(/id="psk-error" role="alert">The password is too short/);
    expect(rejectedHtml).toContain('value="Home Net"');
    const accepted = await form({ ssid: "Home Net", psk: "password1" });
    expect(accepted.status).toBe(200);
    expect(await accepted.text()).toMatch(/class="result success"[^>]*>Saved\. The device is connecting to “Home Net”/);
    expect(portal.submitted).toEqual([{ ssid: "Home Net", psk: "password1" }]);
  });

  it("takes the form only as a form posts it, with the same checks on the SSID", async () => {
    portal = await startPortalFixture();
    const plain = await fetch(portal.url + "/", { method: "POST", headers: { "content-type": "text/plain" }, body: "ssid=Home Net&psk=password1" });
    expect(plain.status).toBe(415);
    expect(await plain.text()).toContain("must be sent as Content-Type: application/x-www-form-urlencoded, not text/plain");
    const newline = await fetch(portal.url + "/", { method: "POST", body: new URLSearchParams({ ssid: "Home\nNet", psk: "password1" }) });
    expect(newline.status).toBe(400);
    expect(await newline.text()).toMatch(/id="ssid-error" role="alert">The network name may not contain control characters/);
    expect(portal.submitted).toEqual([]);
  });
});

describe("portal driven by the network controller", () => {
  it("survives being stopped from inside a submit, and shows the last error when started again", async () => {
    const sink = createCollectingSink();
    const logger = createLogEngine({ clock: createNodeClock(), sink }).logger("agent.portal");
    let ports = { httpPort: 0, dnsPort: 0 };
    const seam = createCaptivePortalSeam({
      needsCredentials: () => false,
      logger,
      httpPort: 0,
      dnsPort: 0,
      onListening: (p) => (ports = p),
    });
    const session = (lastError: string | undefined): PortalSession => ({
      address: "127.0.0.1",
      interface: "wlan0",
      ssid: "svc-setup-rover",
      manufacturer: "Acme Robotics",
      model: "Rover 3",
      fragmentId: "",
      redirectAll: true,
      lastError,
      scan: async () => VISIBLE_NETWORKS,
      // As the controller does: the hotspot (and so the portal) goes down while the network is tried.
      async submit() {
        await seam.stop();
        return { ok: false, error: "no such network" };
      },
      onUserActivity: () => {},
    });
    try {
      await seam.start(session(undefined));
      const url = `http://127.0.0.1:${ports.httpPort}`;
      await expect(
        fetch(`${url}/api/v1/network`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ ssid: "Home Net", psk: "password1" }),
        }),
      ).rejects.toThrow();
      await expect(fetch(`${url}/api/v1/status`)).rejects.toThrow();

      await seam.start(session("no such network"));
      const again = `http://127.0.0.1:${ports.httpPort}`;
      const status = await (await fetch(`${again}/api/v1/status`)).json();
      expect(status).toMatchObject({ state: "failed", last_error: "no such network" });
      expect(await (await fetch(again)).text()).toContain("The last attempt did not connect: no such network");
    } finally {
      await seam.stop();
    }
    expect(sink.entries.filter((e) => e.level === "error")).toEqual([]);
  });
});

// The device side's plain HTTP routes: `GET /ca.pem`, svc-cloud's certificate authority (public:
// clients fetch it to trust machines' certificates), and `GET /api/json1/config?client=true&id=PART`
// with `key_id` and `key` headers, the machine's credentials file as the installer fetches it
// (the shape `svc-cloud machine create` prints). Only the part's own live key gets it; every
// refusal is the same 401, and failures count toward the sign-in limit; a provisioning key is told
// what it is for (403).
import { Code, SvcError } from "../../../core/index.js";
import type { CloudContext } from "../server/cloud-context.js";
import { peerOf, requestHeader, sendBody, sendJson, type HttpRequest, type HttpResponse, type HttpRoute } from "../server/http-routes.js";
import { findApiKey } from "../storage/api-keys.js";
import { ensureCertificateAuthority } from "../fleet/certificate-authority.js";
import { keyMatches } from "../storage/secrets.js";
import { provisioningKeyRefusal } from "../auth/provisioning-key.js";

const caRoute: HttpRoute = {
  method: "GET",
  path: "/ca.pem",
  async handle(_req, res, _url, cloud) {
    const authority = await ensureCertificateAuthority(cloud.store.db, cloud.clock.now());
    sendBody(res, 200, "application/x-pem-file", authority.certificate_pem, { "content-disposition": 'attachment; filename="svc-cloud-ca.pem"' });
  },
};

async function credentialsFile(req: HttpRequest, res: HttpResponse, url: URL, cloud: CloudContext): Promise<void> {
  const partId = url.searchParams.get("id") ?? "";
  const keyId = requestHeader(req, "key_id");
  const key = requestHeader(req, "key");
  if (partId === "" || keyId === "" || key === "") {
    sendJson(res, 400, { error: "needs ?id=<part id> and the part's key in the key_id and key headers" });
    return;
  }
  const peer = peerOf(req);
  try {
    await cloud.limiter.check(keyId, peer);
  } catch (thrown) {
    if (!(thrown instanceof SvcError) || thrown.code !== Code.ResourceExhausted) throw thrown;
    sendJson(res, 429, { error: thrown.message });
    return;
  }
  const found = await findApiKey(cloud.store.db, keyId);
  const matches = found !== undefined && found.revoked_at === null && keyMatches(key, found.key_hash);
  if (matches && found.scope === "provisioning") {
    sendJson(res, 403, { error: provisioningKeyRefusal().message });
    return;
  }
  const live = matches && found.scope === "part" && found.scope_id === partId;
  const part = live ? await cloud.store.db.selectFrom("parts").select("id").where("id", "=", partId).where("deleted_at", "is", null).executeTakeFirst() : undefined;
  if (part === undefined) {
    await cloud.limiter.failed(keyId, peer);
    sendJson(res, 401, { error: "invalid credentials: key_id and key must be a live key of this part" });
    return;
  }
  sendJson(res, 200, { cloud: { id: partId, api_key: { id: keyId, key }, app_address: cloud.publicUrl } });
}

const credentialsRoute: HttpRoute = { method: "GET", path: "/api/json1/config", handle: credentialsFile };

export const deviceRoutes: readonly HttpRoute[] = [caRoute, credentialsRoute];

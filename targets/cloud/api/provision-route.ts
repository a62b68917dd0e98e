// `POST /api/json1/provision`: the mobile app's way to make a machine. With a provisioning key in
// the `key_id` and `key` headers and `{"name": "...", "fragment_id": "..."}` (JSON, at most 4 KiB),
// it makes a machine of that name in the key's location with the key's fragment attached, and
// answers the new main part's credentials file (the shape `GET /api/json1/config` answers), 201.
// `fragment_id` is what the device's provisioning status says; it must be the key's own. A wrong,
// revoked or unknown key is 401 and counts against the sign-in limit (429 past it); any other key
// is 403, as is another fragment; a bad body or name is 400, 413 or 415, a name in use 409.
import { Code, SvcError } from "../../../core/index.js";
import { PROVISION_PATH } from "../auth/provisioning-key.js";
import { provisionMachine } from "../fleet/provision-machine.js";
import type { CloudContext } from "../server/cloud-context.js";
import { httpStatusOf } from "../server/http-status.js";
import { peerOf, requestHeader, sendJson, type HttpRequest, type HttpResponse, type HttpRoute } from "../server/http-routes.js";
import { BodyRefusal, readJsonObject } from "../server/json-body.js";
import { findApiKey } from "../storage/api-keys.js";
import { keyMatches } from "../storage/secrets.js";
import type { ApiKeysTable } from "../storage/tables.js";
import { checkName } from "./app-names.js";

const MAX_PROVISION_BYTES = 4096;
const FIELDS = ["name", "fragment_id"];
const SHAPE = '{"name": "...", "fragment_id": "..."}';

async function provision(req: HttpRequest, res: HttpResponse, cloud: CloudContext): Promise<void> {
  const key = await admittedKey(req, cloud);
  const body = await readJsonObject(req, MAX_PROVISION_BYTES);
  const name = provisionedName(body, key);
  const made = await provisionMachine(cloud.store.db, key, name, cloud.clock.now());
  sendJson(res, 201, { cloud: { id: made.partId, api_key: made.partKey, app_address: cloud.publicUrl } });
}

/** The live provisioning key of the request's headers, within the sign-in limit. */
async function admittedKey(req: HttpRequest, cloud: CloudContext): Promise<ApiKeysTable> {
  const keyId = requestHeader(req, "key_id");
  const secret = requestHeader(req, "key");
  if (keyId === "" || secret === "") throw new SvcError(Code.Unauthenticated, "needs a provisioning key in the key_id and key headers");
  const peer = peerOf(req);
  await cloud.limiter.check(keyId, peer);
  const key = await findApiKey(cloud.store.db, keyId);
  if (key === undefined || key.revoked_at !== null || !keyMatches(secret, key.key_hash)) {
    await cloud.limiter.failed(keyId, peer);
    throw new SvcError(Code.Unauthenticated, "invalid credentials: key_id and key must be a live provisioning key");
  }
  if (key.scope !== "provisioning") {
    const kind = key.scope === "part" ? "a part's own key, which reaches its own part's device API only" : "an organisation key";
    throw new SvcError(Code.PermissionDenied, `key ${keyId} is ${kind}: ${PROVISION_PATH} takes a provisioning key, made by an organisation's owner on the web app's Keys page or with CreateKey`);
  }
  return key;
}

/** The new machine's name, once the body asks for nothing but that and the key's own fragment. */
function provisionedName(body: Record<string, unknown>, key: ApiKeysTable): string {
  const unknown = Object.keys(body).find((field) => !FIELDS.includes(field));
  if (unknown !== undefined) throw new SvcError(Code.InvalidArgument, `${JSON.stringify(unknown)}: no such field; the body is ${SHAPE}`);
  const { name, fragment_id: fragmentId } = body;
  if (typeof name !== "string") throw new SvcError(Code.InvalidArgument, `name: the new machine's name is needed, as a string; the body is ${SHAPE}`);
  if (typeof fragmentId !== "string" || fragmentId === "") {
    throw new SvcError(Code.InvalidArgument, `fragment_id: the fragment the device's provisioning status names is needed, as a string; the body is ${SHAPE}`);
  }
  if (fragmentId !== key.fragment_id) throw new SvcError(Code.PermissionDenied, `fragment_id ${JSON.stringify(fragmentId)}: this provisioning key attaches fragment ${key.fragment_id} only`);
  return checkName("name", name);
}

export const provisionRoute: HttpRoute = {
  method: "POST",
  path: PROVISION_PATH,
  async handle(req, res, _url, cloud) {
    try {
      await provision(req, res, cloud);
    } catch (thrown) {
      if (thrown instanceof BodyRefusal) return sendJson(res, thrown.status, { error: thrown.message });
      if (thrown instanceof SvcError) return sendJson(res, httpStatusOf(thrown.code), { error: thrown.message });
      throw thrown;
    }
  },
};

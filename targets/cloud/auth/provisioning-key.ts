// What a provisioning key is for, said in one place: it makes machines through one plain route and
// signs in nowhere else. Authenticate, every call with a token and every other route answer a
// provisioning key with this refusal, so whoever holds one learns what it does instead of only
// that it failed.
import { Code, SvcError } from "../../../core/index.js";

/** The one route a provisioning key is taken by. */
export const PROVISION_PATH = "/api/json1/provision";

export function provisioningKeyRefusal(): SvcError {
  return new SvcError(
    Code.PermissionDenied,
    `a provisioning key only makes a machine in its location with its fragment attached (POST ${PROVISION_PATH} with the key_id and key headers); it signs in to nothing else`,
  );
}

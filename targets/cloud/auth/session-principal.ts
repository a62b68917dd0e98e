// The person a browser's session cookie signs in, while the session lasts, looked up as for a
// token, so a person's session is worth exactly what their token would be. Where the request must
// also come from svc-cloud's own pages (every API call and change) the caller checks its Origin.
import { Code, SvcError, type Clock } from "../../../core/index.js";
import type { Store } from "../storage/open-store.js";
import { webSessionUser } from "../storage/web-sessions.js";
import { userSubject, type Principal } from "./principal.js";
import { resolvePrincipal } from "./resolve-principal.js";

export async function sessionPrincipal(context: { store: Store; clock: Clock }, token: string): Promise<Principal> {
  const userId = await webSessionUser(context.store.db, token, context.clock.now());
  if (userId === undefined) throw new SvcError(Code.Unauthenticated, "the session has ended: sign in again");
  return resolvePrincipal(context.store, userSubject(userId));
}

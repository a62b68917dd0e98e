// Every call but the sign-in itself carries a Bearer token, or comes from svc-cloud's own pages
// with a browser's session cookie: the interceptor verifies it, looks its principal up as the
// store has it now and puts it in the call's context. A call without one, with a bad one, or whose
// key was revoked is refused before any handler runs.
import type { Interceptor } from "@connectrpc/connect";
import { Code, SvcError } from "../../../core/index.js";
import type { Principal } from "../auth/principal.js";
import { resolvePrincipal } from "../auth/resolve-principal.js";
import { sessionPrincipal } from "../auth/session-principal.js";
import { isSameOrigin, sessionTokenOf } from "../auth/web-session-cookie.js";
import { principalKey } from "./caller.js";
import type { CloudContext } from "./cloud-context.js";

/** Methods anyone may call, by "package.Service/Method"; an invitation's token is its own credential. */
const PUBLIC_METHODS = new Set(["proto.rpc.v1.AuthService/Authenticate", "svc.cloud.v1.CloudService/AcceptInvitation"]);
/** The same methods as request paths: their bodies are held to the smaller limit of calls anyone may make. */
export const PUBLIC_METHOD_PATHS: readonly string[] = [...PUBLIC_METHODS].map((name) => `/${name}`);

/** Services for people and scripts only: a part's key is refused on every call, whatever it asks. */
const USER_SIDE_SERVICES = new Set(["viam.app.v1.AppService"]);

export function createAuthInterceptor(context: CloudContext): Interceptor {
  return (next) => async (req) => {
    if (PUBLIC_METHODS.has(`${req.service.typeName}/${req.method.name}`)) return next(req);
    const principal = await callerPrincipal(context, req);
    if (principal.kind === "part-key" && USER_SIDE_SERVICES.has(req.service.typeName)) {
      throw new SvcError(Code.PermissionDenied, "a part's key reaches its own part's device API only");
    }
    req.contextValues.set(principalKey, principal);
    return next(req);
  };
}

async function callerPrincipal(context: CloudContext, req: Parameters<Parameters<Interceptor>[0]>[0]): Promise<Principal> {
  const header = req.header.get("authorization");
  if (header === null) {
    const session = sessionTokenOf(req.header.get("cookie"));
    if (session !== undefined) {
      if (!isSameOrigin(req.header.get("origin"), new URL(req.url).host)) {
        throw new SvcError(Code.Unauthenticated, "a browser's session signs in calls from svc-cloud's own pages only (this call's Origin is not this host); scripts use an access token");
      }
      return sessionPrincipal(context, session);
    }
  }
  const match = /^Bearer\s+(\S+)$/i.exec(header ?? "");
  if (match === null) throw new SvcError(Code.Unauthenticated, "this call needs an access token (Authorization: Bearer ...)");
  return resolvePrincipal(context.store, await context.issuer.verify(match[1]!));
}

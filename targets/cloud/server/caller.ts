// The principal of the call being served, put in the call's context by the auth interceptor and
// read by the handlers. A handler of a method that needs no credentials never asks for it.
import { createContextKey, type HandlerContext } from "@connectrpc/connect";
import { Code, SvcError } from "../../../core/index.js";
import type { Principal } from "../auth/principal.js";

export const principalKey = createContextKey<Principal | undefined>(undefined, { description: "svc-cloud principal" });
export const peerAddressKey = createContextKey<string>("", { description: "svc-cloud peer address" });

/** Who is calling; Unauthenticated when the call carries no valid credentials. */
export function callerOf(context: HandlerContext): Principal {
  const principal = context.values.get(principalKey);
  if (principal === undefined) throw new SvcError(Code.Unauthenticated, "this call needs an access token (Authorization: Bearer ...)");
  return principal;
}

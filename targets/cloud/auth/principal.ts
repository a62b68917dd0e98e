// Who is calling: a person signed in with a password, an organisation's API key (which acts as the
// organisation's owner, as Viam's organisation keys do) or a part's key (which reaches its own part
// only). A token names its principal by subject; the principal is looked up again on every call,
// so a revoked key or a removed person is refused at once, whatever tokens they still hold. A
// provisioning key is no principal: it signs in nowhere (provisioning-key.ts).

export type Principal =
  | { kind: "user"; subject: string; userId: string; email: string }
  | { kind: "organization-key"; subject: string; keyId: string; organizationId: string }
  | { kind: "part-key"; subject: string; keyId: string; organizationId: string; partId: string };

export function userSubject(userId: string): string {
  return `user:${userId}`;
}

export function keySubject(keyId: string): string {
  return `key:${keyId}`;
}

/** What a principal's name is in a history entry or a log. */
export function principalName(principal: Principal): string {
  return principal.kind === "user" ? principal.email : keyName(principal.keyId);
}

/** An API key's name in a history entry or a log. */
export function keyName(keyId: string): string {
  return `api-key:${keyId}`;
}


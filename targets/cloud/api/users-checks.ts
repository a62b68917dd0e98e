// What a person's details must be, and roles as svc.cloud.v1 carries them.
import { Code, SvcError } from "../../../core/index.js";
import { Role as WireRole } from "../../../proto/gen/svc/cloud/v1/cloud_pb.js";
import { MIN_PASSWORD_LENGTH } from "../commands/init.js";
import type { Role } from "../storage/tables.js";

/** The email, lower-cased (emails are matched without case); InvalidArgument when it is not one. */
export function checkEmail(email: string): string {
  if (email.length > 254 || !/^[^@\s]+@[^@\s]+$/.test(email)) throw new SvcError(Code.InvalidArgument, `email ${JSON.stringify(email.slice(0, 80))}: not an email address`);
  return email.toLowerCase();
}

export function checkPassword(password: string): string {
  if (password.length < MIN_PASSWORD_LENGTH) throw new SvcError(Code.InvalidArgument, `password: at least ${MIN_PASSWORD_LENGTH} characters`);
  if (password.length > 1024) throw new SvcError(Code.InvalidArgument, "password: at most 1024 characters");
  return password;
}

const FROM_WIRE: Partial<Record<WireRole, Role>> = { [WireRole.OWNER]: "owner", [WireRole.OPERATOR]: "operator", [WireRole.VIEWER]: "viewer" };
const TO_WIRE: Record<Role, WireRole> = { owner: WireRole.OWNER, operator: WireRole.OPERATOR, viewer: WireRole.VIEWER };

export function roleFromWire(role: WireRole): Role {
  const known = FROM_WIRE[role];
  if (known === undefined) throw new SvcError(Code.InvalidArgument, "role: must be ROLE_OWNER, ROLE_OPERATOR or ROLE_VIEWER");
  return known;
}

export function roleToWire(role: Role): WireRole {
  return TO_WIRE[role];
}

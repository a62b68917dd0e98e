// The roles a person holds in an organisation, in order: an owner may do all an operator may, an
// operator all a viewer may.
import type { Role } from "./tables.js";

const RANK: Record<Role, number> = { viewer: 0, operator: 1, owner: 2 };

/** Whether `held` allows what `needed` does. */
export function roleAllows(held: Role, needed: Role): boolean {
  return RANK[held] >= RANK[needed];
}

// The case table: every case the wire-conformance suite runs, each written once for every client.
import type { WireCase } from "../wire-case.js";
import { authCases } from "./auth-cases.js";
import { boundCases } from "./bound-cases.js";
import { callCases } from "./call-cases.js";
import { hostileCases } from "./hostile-cases.js";

export const wireCases: readonly WireCase[] = [...callCases, ...boundCases, ...authCases, ...hostileCases];

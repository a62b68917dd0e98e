// Public face of the server's authentication: API keys traded for signed, expiring tokens, the
// interceptor that requires them, AuthService, the browser access rules a configuration states,
// and the plaintext and open-bind policies.
export { authEntityKey, createApiKeyAuth, DEFAULT_TOKEN_TTL_MS } from "./api-key-auth.js";
export type { ApiKeyAuth, ApiKeyAuthOptions, AuthorizationCheck } from "./api-key-auth.js";
export { browserAccessRules } from "./browser-access-rules.js";
export { registerAuthService } from "./register-auth-service.js";
export { plaintextCredentialsProblem } from "./plaintext-credentials.js";
export { unauthenticatedBindWarning } from "./unauthenticated-bind-warning.js";

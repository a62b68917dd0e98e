// A server with no API keys answers anyone who can reach it; that is fine on loopback and worth
// a loud warning anywhere else.
import type { AuthConfig } from "../../../../core/index.js";
import { isLoopbackAddress, parseBindAddress } from "../transport/index.js";

/**
 * The warning to log when the server would listen beyond this machine without authentication;
 * undefined when there is nothing to warn about (keys are configured, or the bind is loopback).
 */
export function unauthenticatedBindWarning(bindAddress: string, auth: AuthConfig): string | undefined {
  if (auth.handlers.some((handler) => handler.type === "api-key")) return undefined;
  const bind = parseBindAddress(bindAddress);
  if (!bind.ok) return undefined;
  const host = bind.value.host;
  if (host !== undefined && isLoopbackAddress(host)) return undefined;
  const where = host === undefined || host === "0.0.0.0" || host === "::" ? "every network interface" : host;
  return (
    `bind_address ${JSON.stringify(bindAddress)} listens on ${where} without authentication: anyone who can reach ` +
    `this port controls the machine. Add an api-key handler under auth.handlers, or bind to "localhost:<port>".`
  );
}

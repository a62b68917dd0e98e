// First run from a browser: while svc-cloud has nobody (set up without `--email`), `GET
// /app/setup` says so and `POST /app/setup` with `{"email", "password"}` makes the first owner
// and signs them in. Only from this very computer (a loopback peer, through svc-cloud's own page):
// whoever reaches svc-cloud from the network before its owner must not become the owner.
import { Code, SvcError } from "../../../core/index.js";
import { isLoopback } from "../options.js";
import { peerOf, sendJson, type HttpRoute } from "../server/http-routes.js";
import { makeFirstOwner, needsFirstOwner } from "../storage/first-owner.js";
import { answerSignedIn, credentialsBody, fromOwnPage } from "./session-routes.js";
import { checkEmail, checkPassword } from "./users-checks.js";

export const SETUP_PATH = "/app/setup";

/** Whether a peer address is this computer (an IPv4 one mapped into IPv6 included). */
export function isLoopbackPeer(address: string): boolean {
  return isLoopback(address.replace(/^::ffff:/i, ""));
}

const setupNeeded: HttpRoute = {
  method: "GET",
  path: SETUP_PATH,
  async handle(req, res, _url, cloud) {
    sendJson(res, 200, { needed: (await needsFirstOwner(cloud.store.db)) && isLoopbackPeer(peerOf(req)) });
  },
};

const setUp: HttpRoute = {
  method: "POST",
  path: SETUP_PATH,
  async handle(req, res, _url, cloud) {
    if (!isLoopbackPeer(peerOf(req))) return sendJson(res, 403, { error: "the first owner is made from the computer svc-cloud runs on (or with svc-cloud init --email)" });
    if (!fromOwnPage(req)) return sendJson(res, 403, { error: "set up from svc-cloud's own page (this request's Origin is not this host)" });
    const credentials = await credentialsBody(req, res);
    if (credentials === undefined) return;
    const { email, password } = credentials;
    let userId: string;
    let address: string;
    try {
      address = checkEmail(email);
      userId = await makeFirstOwner(cloud.store.db, { email: address, password: checkPassword(password), now: cloud.clock.now() });
    } catch (thrown) {
      if (thrown instanceof SvcError) return sendJson(res, thrown.code === Code.FailedPrecondition ? 409 : 400, { error: thrown.message });
      throw thrown;
    }
    await answerSignedIn(req, res, cloud, userId, address);
  },
};

export const setupRoutes: readonly HttpRoute[] = [setupNeeded, setUp];

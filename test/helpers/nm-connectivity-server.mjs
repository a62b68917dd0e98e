// The "internet" NetworkManager's connectivity check reaches in tests: run inside the peer
// network namespace, it answers the check URI. Its mode is switched by lines on stdin:
// "full" answers the expected text, "portal" answers a 302 to a login page, "limited" closes the
// listener so the check is refused. Each applied mode is acknowledged with "mode <name>" on stdout.
import { createServer } from "node:http";
import { createInterface } from "node:readline";

const [host = "192.0.2.80", portText = "80", expected = "NetworkManager is online"] = process.argv.slice(2);
const port = Number(portText);
let mode = "limited";
let server;

function handle(request, response) {
  if (mode === "portal") {
    response.writeHead(302, { location: "http://portal.example/login" });
    response.end();
    return;
  }
  response.writeHead(200, { "content-type": "text/plain" });
  response.end(expected);
}

async function apply(next) {
  mode = next;
  if (next === "limited") {
    if (server) {
      const closing = server;
      server = undefined;
      closing.closeAllConnections();
      await new Promise((resolve) => closing.close(resolve));
    }
  } else if (!server) {
    server = createServer({ keepAlive: false }, handle);
    await new Promise((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, host, resolve);
    });
  }
  process.stdout.write(`mode ${next}\n`);
}

let queue = Promise.resolve();
createInterface({ input: process.stdin }).on("line", (line) => {
  const next = line.trim();
  if (next !== "full" && next !== "portal" && next !== "limited") return;
  queue = queue.then(() => apply(next)).catch((error) => {
    process.stderr.write(`${String(error)}\n`);
    process.exit(1);
  });
});
process.stdin.on("end", () => process.exit(0));

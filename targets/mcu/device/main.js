// The firmware's entry, built by mcconfig (not by esbuild): it hands Moddable's own modules to
// the svc-mcu bundle and starts the machine from its stored configuration. The configuration is
// the last one accepted over PUT /svc/config (kept in flash), or the machine.json built in.
// API keys need the platform's secure random bytes ("svc-random", per platform in the manifest)
// and `mcconfig ... allowInsecureCreds=true`: the device serves plain HTTP, so keys and tokens
// cross the network in clear text, as svc-server's -allow-insecure-creds allows.
import HTTPServer from "embedded:network/http/server";
import Listener from "embedded:io/socket/listener";
import Timer from "timer";
import Resource from "Resource";
import { File } from "file";
import config from "mc/config";
import randomBytes from "svc-random";
import { startDevice } from "svc-mcu";
import { advertiseRpc } from "rpc-mdns";

// A build may name its own folder for the stored configuration and its own port (the host
// simulator's tests do: `svcFileRoot=... svcPort=...` on mcconfig's command line).
const stored = `${config.svcFileRoot || config.file.root}machine.json`;
const port = Number(config.svcPort) || 8080;
// The device's name on the local network: http://<hostName>.local:<port> (`svcHostName=...`).
const hostName = config.svcHostName || "svc-mcu";

function readConfig() {
  if (File.exists(stored)) {
    const file = new File(stored);
    try {
      return file.read(String);
    } finally {
      file.close();
    }
  }
  return String.fromArrayBuffer(new Resource("machine.json").slice(0));
}

function saveConfig(text) {
  if (File.exists(stored)) File.delete(stored);
  const file = new File(stored, true);
  try {
    file.write(text);
  } finally {
    file.close();
  }
}

// Moddable's host simulator and some boards have no `device` global, or one without `io`:
// svc-mcu then boots without IO, and a board's IO call answers naming what is missing.
const host = globalThis.device;

// The names a key without an id may be given for; the name mDNS claims joins them when a
// conflict on the link makes it another (`svc-mcu-2`).
const hostNames = [hostName, `${hostName}.local`];

startDevice({
  io: host?.io,
  pins: host?.pin,
  HTTPServer,
  Listener,
  Timer,
  config: readConfig(),
  port,
  trace,
  saveConfig,
  randomBytes,
  allowInsecureCreds: config.allowInsecureCreds === true || config.allowInsecureCreds === "true",
  hostNames,
});

// Without mDNS (no multicast on the network, the port taken) the device still serves its address.
try {
  advertiseRpc({
    hostName,
    port,
    trace,
    onClaimed(name) {
      if (!hostNames.includes(name)) hostNames.push(name, `${name}.local`);
    },
  });
} catch (error) {
  trace(`warning svc.mdns: cannot advertise ${hostName}.local: ${error}\n`);
}

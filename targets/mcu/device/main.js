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

const stored = `${config.file.root}machine.json`;

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

startDevice({
  io: device.io,
  pins: device.pin,
  HTTPServer,
  Listener,
  Timer,
  config: readConfig(),
  port: 8080,
  trace,
  saveConfig,
  randomBytes,
  allowInsecureCreds: config.allowInsecureCreds === true || config.allowInsecureCreds === "true",
});

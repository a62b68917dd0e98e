// A self-signed certificate for localhost and 127.0.0.1, made by the real openssl, for tests of
// what svc serves over TLS. The files are written into `dir`, which the caller removes.
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { requireTools } from "./system-tools.js";

export function makeSelfSignedCertificate(dir: string): { certFile: string; keyFile: string } {
  requireTools("openssl");
  const certFile = join(dir, "cert.pem");
  const keyFile = join(dir, "key.pem");
  const made = spawnSync("openssl", [
    "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
    "-keyout", keyFile, "-out", certFile, "-days", "1", "-subj", "/CN=localhost",
    "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
  ]);
  if (made.status !== 0) throw new Error(`openssl could not make a certificate: ${made.stderr}`);
  return { certFile, keyFile };
}

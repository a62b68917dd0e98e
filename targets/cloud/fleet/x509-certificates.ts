// X.509 certificates for svc-cloud's own certificate authority and the parts it certifies. Node
// makes keys but cannot write certificates, so node-forge builds and signs them: it is pure
// JavaScript with no dependencies and no global set-up at import (@peculiar/x509, the other
// choice, needs a Reflect polyfill installed process-wide), and it is among the most used
// X.509 writers on npm. forge signs only with RSA, so the keys are RSA-2048, made by Node's own
// crypto (forge's JavaScript key generation takes seconds).
import { generateKeyPairSync, randomBytes } from "node:crypto";
import forge from "node-forge";

export interface IssuedCertificate {
  certificatePem: string;
  privateKeyPem: string;
  notAfter: number;
}

/** How long the authority's certificate lasts. */
const CA_LIFETIME_MS = 20 * 365 * 24 * 60 * 60_000;
/** How long a part's certificate lasts (the longest browsers accept). */
export const PART_CERTIFICATE_LIFETIME_MS = 397 * 24 * 60 * 60_000;

function newKeys(): { publicKey: forge.pki.rsa.PublicKey; privateKey: forge.pki.rsa.PrivateKey; privateKeyPem: string } {
  const pair = generateKeyPairSync("rsa", { modulusLength: 2048, publicKeyEncoding: { type: "spki", format: "pem" }, privateKeyEncoding: { type: "pkcs8", format: "pem" } });
  return {
    publicKey: forge.pki.publicKeyFromPem(pair.publicKey) as forge.pki.rsa.PublicKey,
    privateKey: forge.pki.privateKeyFromPem(pair.privateKey) as forge.pki.rsa.PrivateKey,
    privateKeyPem: pair.privateKey,
  };
}

// A positive serial of 128 random bits, as RFC 5280 asks (at most 20 octets, never negative).
function serialNumber(): string {
  const bytes = randomBytes(16);
  bytes[0]! &= 0x7f;
  bytes[0]! |= 0x01;
  return bytes.toString("hex");
}

function dated(cert: forge.pki.Certificate, now: number, lifetimeMs: number): number {
  // A minute back, so a machine whose clock is a little behind accepts it at once.
  cert.validity.notBefore = new Date(now - 60_000);
  cert.validity.notAfter = new Date(now + lifetimeMs);
  return now + lifetimeMs;
}

/** A new self-signed authority, `CN=<name>`. */
export function makeAuthority(name: string, now: number): IssuedCertificate {
  const keys = newKeys();
  const cert = forge.pki.createCertificate();
  cert.publicKey = keys.publicKey;
  cert.serialNumber = serialNumber();
  const notAfter = dated(cert, now, CA_LIFETIME_MS);
  const subject = [{ name: "commonName", value: name }, { name: "organizationName", value: "svc-cloud" }];
  cert.setSubject(subject);
  cert.setIssuer(subject);
  cert.setExtensions([
    { name: "basicConstraints", cA: true, pathLenConstraint: 0, critical: true },
    { name: "keyUsage", keyCertSign: true, cRLSign: true, critical: true },
    { name: "subjectKeyIdentifier" },
  ]);
  cert.sign(keys.privateKey, forge.md.sha256.create());
  return { certificatePem: forge.pki.certificateToPem(cert), privateKeyPem: keys.privateKeyPem, notAfter };
}

/** A server and client certificate for `names` (the first is its common name), signed by `authority`. */
export function issueCertificate(authority: { certificatePem: string; privateKeyPem: string }, names: readonly string[], now: number): IssuedCertificate {
  const ca = forge.pki.certificateFromPem(authority.certificatePem);
  const caKey = forge.pki.privateKeyFromPem(authority.privateKeyPem);
  const keys = newKeys();
  const cert = forge.pki.createCertificate();
  cert.publicKey = keys.publicKey;
  cert.serialNumber = serialNumber();
  const notAfter = Math.min(dated(cert, now, PART_CERTIFICATE_LIFETIME_MS), ca.validity.notAfter.getTime());
  cert.validity.notAfter = new Date(notAfter);
  cert.setSubject([{ name: "commonName", value: names[0] }]);
  cert.setIssuer(ca.subject.attributes);
  cert.setExtensions([
    { name: "basicConstraints", cA: false, critical: true },
    { name: "keyUsage", digitalSignature: true, keyEncipherment: true, critical: true },
    { name: "extKeyUsage", serverAuth: true, clientAuth: true },
    { name: "subjectAltName", altNames: names.map((value) => ({ type: 2, value })) },
    { name: "subjectKeyIdentifier" },
    { name: "authorityKeyIdentifier", keyIdentifier: ca.generateSubjectKeyIdentifier().getBytes() },
  ]);
  cert.sign(caKey, forge.md.sha256.create());
  return { certificatePem: forge.pki.certificateToPem(cert), privateKeyPem: keys.privateKeyPem, notAfter };
}

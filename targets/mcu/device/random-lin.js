// Secure random bytes on Moddable's host simulator (lin): Linux's getrandom(2), through
// random-lin.c. Mapped to "svc-random" for the lin platform in the manifest.
function fill(buffer) @ "svc_random_fill";

export default function randomBytes(count) {
  const buffer = new ArrayBuffer(count);
  fill(buffer);
  return new Uint8Array(buffer);
}

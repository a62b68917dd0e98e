// Moddable's DNS serializer writes every TXT entry as `key=value`, so a key given with an empty
// value goes out as `key=`. svc-server sends a boolean attribute as its bare key (RFC 6763 6.4),
// which is what Viam's clients look for. This rewrites, in a whole DNS packet, each TXT record
// that holds only `key=` into one holding `key` and an empty string: the same number of bytes,
// so the packet's compressed names, which point at offsets, stay true.

/** `packet` (an ArrayBuffer) with every TXT rdata that is exactly `key=` made `key` and "". */
export function bareTxt(packet, key) {
  const bytes = new Uint8Array(packet.slice(0));
  const entry = [0, key.length + 2, key.length + 1];
  for (let i = 0; i < key.length; i++) entry.push(key.charCodeAt(i));
  entry.push(0x3d);
  for (let i = 0; i + entry.length <= bytes.length; i++) {
    let match = true;
    for (let j = 0; match && j < entry.length; j++) match = bytes[i + j] === entry[j];
    if (match) {
      bytes[i + 2] = key.length;
      bytes[i + entry.length - 1] = 0;
      i += entry.length - 1;
    }
  }
  return bytes.buffer;
}

// The TXT record of `_rpc._tcp`: `grpc`, and `webrtc` when WebRTC is on (-webrtc), each a key
// without a value (RFC 6763 6.4: a boolean attribute is its key alone), which is what Viam's
// clients look for. ciao writes every entry as `key=value`, so the entries are set on the service
// as they go on the wire, before it is advertised.
import type { CiaoService } from "@homebridge/ciao/lib/CiaoService.js";

export function rpcTxtFlags(webrtc: boolean): string[] {
  return webrtc ? ["grpc", "webrtc"] : ["grpc"];
}

/** Sets `service`'s TXT entries to `flags`, each as it is; call before `advertise()`. */
export function setFlagTxt(service: CiaoService, flags: readonly string[]): void {
  (service as unknown as { txt: Buffer[] }).txt = flags.map((flag) => Buffer.from(flag, "utf8"));
}

// mDNS on the host simulator (lin): none. Moddable 8.2.3's sockets there refuse every multicast
// address (modules/network/socket/lin/modSocket.c tests inet_pton's success as failure), and a
// socket that fails half-made is not something to leave to the garbage collector, so no
// responder is started; the firmware says so and is reached by its address.
export function advertiseRpc() {
  throw new Error("this platform's sockets (Moddable's lin) take no multicast address");
}

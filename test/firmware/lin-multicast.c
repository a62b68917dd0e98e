/*
 * Multicast for Moddable 8.2.3's lin sockets, preloaded (LD_PRELOAD) into mcsim by the firmware's
 * mDNS test. modules/network/socket/lin/modSocket.c reads inet_pton's 1 (a valid address) as a
 * failure, so a UDP socket given `multicast` always throws "invalid multicast IP address". This
 * answers 0 to the firmware's own calls (from mc.so) for a valid IPv4 multicast address, with the
 * address written as inet_pton writes it: the socket then joins the group and binds its port as
 * the SDK means it to. Every other call, and every call from any other library, is inet_pton's.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <dlfcn.h>
#include <string.h>

typedef int (*inet_pton_fn)(int, const char *, void *);

static int called_from_firmware(const void *caller) {
  Dl_info info;
  if (!dladdr(caller, &info) || !info.dli_fname) return 0;
  size_t length = strlen(info.dli_fname);
  return length >= 6 && strcmp(info.dli_fname + length - 6, "/mc.so") == 0;
}

int inet_pton(int family, const char *text, void *address) {
  static inet_pton_fn real;
  if (!real) real = (inet_pton_fn)dlsym(RTLD_NEXT, "inet_pton");
  int result = real(family, text, address);
  int multicast = result == 1 && family == AF_INET && (((unsigned char *)address)[0] & 0xf0) == 0xe0;
  if (multicast && called_from_firmware(__builtin_return_address(0))) return 0;
  return result;
}

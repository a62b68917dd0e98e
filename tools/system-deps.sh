#!/bin/sh
# Installs the Debian packages svc's tests and hardware backends use, once.
# Idempotent: packages already present are skipped; without root it only says what is missing.
# It runs as the package's preinstall, so libgpiod-dev is there before node-libgpiod compiles.
# systemd: systemd-analyze verifies the unit --aix-install writes; openssl: TLS test certificates;
# libgpiod-dev: the GPIO backend's addon; socat: serial tests over a pty pair; qemu-system-x86,
# linux-image-amd64, busybox-static: the I2C tests against the kernel's i2c-stub in a small guest;
# network-manager, dbus, iproute2, dnsmasq-base: the agent's network tests against a real
# NetworkManager on a private bus in network namespaces; chromium: the provisioning portal in a
# headless browser; bind9-dnsutils: dig queries the portal's DNS responder; unattended-upgrades:
# the agent's apt settings read back by the real tool.
PACKAGES="systemd openssl libgpiod-dev socat qemu-system-x86 linux-image-amd64 busybox-static
  network-manager dbus iproute2 dnsmasq-base chromium bind9-dnsutils unattended-upgrades"
missing=""
for p in $PACKAGES; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" != "0" ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "svc: these system packages are missing:$missing (install them as root with apt-get)" >&2
  exit 0
fi
echo "svc: installing system packages:$missing" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null && apt-get install -y -qq --no-install-recommends $missing >/dev/null

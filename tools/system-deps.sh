#!/bin/sh
# Installs the Debian packages svc needs, once: `runtime` for what svc-server needs to run (the
# package's postinstall, before the native addons are built), `test` for what the test suite
# drives besides (the test command). Idempotent: packages already present are skipped; without
# root or apt-get it only says what is missing.
#
# runtime: libgpiod-dev, the GPIO backend's addon (node-libgpiod) builds against it.
# test: systemd (systemd-analyze verifies the units svc writes); openssl (TLS test
# certificates, and verifying the ones svc-cloud issues); socat (serial tests over a pty pair);
# qemu-system-x86, linux-image-amd64,
# busybox-static (the I2C tests against the kernel's i2c-stub in a small guest); network-manager,
# dbus, iproute2, dnsmasq-base (the agent's network tests against a real NetworkManager on a
# private bus in network namespaces); chromium (pages in a headless browser); bind9-dnsutils (dig
# queries the portal's DNS responder); unattended-upgrades (the agent's apt settings read back by
# the real tool); curl (the API port called under other host names and from other addresses);
# gcc-aarch64-linux-gnu, g++-aarch64-linux-gnu and libgpiod-dev:arm64 (`npm run package` builds
# the arm64 artifacts' native addons with them; the :arm64 package comes through Debian's
# multiarch, which is enabled first); qemu-user-static and libstdc++6:arm64 (the arm64 artifact
# runs under qemu-aarch64-static with the arm64 Node.js, which links libstdc++); postgresql-15
# (svc-cloud's store suite and its processes run on a real PostgreSQL 15, each test file's own
# cluster made by initdb in a temporary folder, and svc-cloud's backup and restore run its pg_dump
# and pg_restore).
#
# NetworkManager is installed masked: the tests start their own daemons on private buses, and the
# host's networking must never be taken over by a package the tests needed. PostgreSQL likewise:
# its units are masked and Debian's postgresql-common is told, before the package arrives, not to
# create its "main" cluster, so installing it neither makes nor starts a database on the host.
set -u

RUNTIME="libgpiod-dev"
TEST="systemd openssl socat qemu-system-x86 linux-image-amd64 busybox-static network-manager dbus
  iproute2 dnsmasq-base chromium bind9-dnsutils unattended-upgrades curl gcc-aarch64-linux-gnu
  g++-aarch64-linux-gnu libgpiod-dev:arm64 qemu-user-static libstdc++6:arm64 postgresql-15"
# Units of the test packages that must never run on the host.
MASKED_UNITS="NetworkManager.service NetworkManager-wait-online.service NetworkManager-dispatcher.service"
POSTGRES_UNITS="postgresql.service postgresql@.service"

case "${1:-}" in
  runtime) PACKAGES="$RUNTIME" ;;
  test) PACKAGES="$RUNTIME $TEST" ;;
  list-runtime) echo $RUNTIME; exit 0 ;;
  list-test) echo $TEST; exit 0 ;;
  *) echo "usage: sh tools/system-deps.sh runtime|test|list-runtime|list-test" >&2; exit 2 ;;
esac

missing=""
for p in $PACKAGES; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" != "0" ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "svc: these system packages are missing:$missing (install them as root with apt-get)" >&2
  exit 0
fi

# Masking a unit is a link to /dev/null in /etc/systemd/system; it holds whether or not systemd
# runs, and it is done before the package arrives so its scripts cannot start it.
mask() {
  mkdir -p /etc/systemd/system
  for unit in "$@"; do
    [ -e "/etc/systemd/system/$unit" ] || ln -s /dev/null "/etc/systemd/system/$unit"
  done
}
case " $missing " in
  *" network-manager "*) mask $MASKED_UNITS ;;
esac

# postgresql-common reads create_main_cluster from createcluster.conf when postgresql-15 is
# configured; the setting is there first (a conffile dpkg then keeps: --force-confold below).
case " $missing " in
  *" postgresql-15 "*)
    mask $POSTGRES_UNITS
    conf=/etc/postgresql-common/createcluster.conf
    mkdir -p /etc/postgresql-common
    if grep -q '^[[:space:]]*create_main_cluster' "$conf" 2>/dev/null; then
      sed -i 's/^[[:space:]]*create_main_cluster.*/create_main_cluster = false/' "$conf"
    else
      echo "create_main_cluster = false" >> "$conf"
    fi
    ;;
esac

# A package named pkg:arm64 comes from Debian's multiarch: dpkg must know the architecture before
# apt-get update, or apt finds no such package.
case " $missing " in
  *":arm64 "*)
    dpkg --print-foreign-architectures | grep -qx arm64 || dpkg --add-architecture arm64
    ;;
esac

echo "svc: installing system packages:$missing" >&2
export DEBIAN_FRONTEND=noninteractive
if ! { apt-get update -qq >/dev/null && apt-get install -y -qq --no-install-recommends -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold $missing >/dev/null; }; then
  echo "svc: apt-get could not install:$missing" >&2
  exit 1
fi

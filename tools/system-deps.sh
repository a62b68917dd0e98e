#!/bin/sh
# Installs the Debian packages svc's tests and hardware backends use, once.
# Idempotent: packages already present are skipped; without root it only says what is missing.
# systemd: systemd-analyze verifies the unit --aix-install writes; openssl: TLS test certificates.
PACKAGES="systemd openssl"
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

#!/bin/sh
# Installs what the unary bench needs to build its grpc-go reference server, once, from Debian's
# packages: the Go toolchain, grpc-go and Go protobuf as sources for GOPATH mode (under
# /usr/share/gocode), protoc and its Go plugins. Nothing is fetched by Go itself, so the build
# works offline. Idempotent: packages already present are skipped. Without root or apt-get it
# says what is missing and fails: the bench then fails with that message rather than skipping
# the comparison.
set -u

PACKAGES="golang-go golang-google-grpc-dev golang-google-protobuf-dev protoc-gen-go protoc-gen-go-grpc protobuf-compiler"

case "${1:-}" in
  list) echo $PACKAGES; exit 0 ;;
  "") ;;
  *) echo "usage: sh tools/bench/setup-go.sh [list]" >&2; exit 2 ;;
esac

missing=""
for p in $PACKAGES; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" != "0" ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "unary bench: the grpc-go reference server needs these Debian packages:$missing (install them as root: apt-get install$missing)" >&2
  exit 1
fi
echo "unary bench: installing$missing" >&2
export DEBIAN_FRONTEND=noninteractive
# A fresh machine may have no package lists yet; an update failing is reported by the install.
apt-get install -y -q --no-install-recommends $missing >/dev/null 2>&1 || {
  apt-get update -q >/dev/null 2>&1
  apt-get install -y -q --no-install-recommends $missing >&2 || {
    echo "unary bench: apt-get could not install$missing" >&2
    exit 1
  }
}

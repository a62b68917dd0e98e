# make server: builds the svc-server artifact of this checkout for this machine's architecture and
# unpacks it into bin/<arch>/, runnable as `bin/<arch>/svc-server -config <path>` (Node.js 20+).
# The version is package.json's unless VERSION=x.y.z is given.

ARCH := $(shell uname -m | sed -e 's/^x86_64$$/amd64/' -e 's/^aarch64$$/arm64/')
VERSION ?= $(shell node -p "require('./package.json').version")
PACKAGES := dist/packages

.PHONY: server
server:
	node tools/package/index.mjs --only svc-server --arch $(ARCH) --version $(VERSION) --out $(PACKAGES) --quiet
	rm -rf bin/$(ARCH)
	mkdir -p bin/$(ARCH)
	tar -xzf $(PACKAGES)/svc-server-$(VERSION)-linux-$(ARCH).tar.gz -C bin/$(ARCH)
	@echo "bin/$(ARCH)/svc-server ($(VERSION)): run it with -config <path>"

#!/usr/bin/env bash
# Builds the Pango peer of `cellbench text` into OUTDIR (default: this directory).
#   Benchmarks/pango/build.sh [OUTDIR]
# Needs the Debian packages libpango1.0-dev and pkg-config (scripts/bootstrap installs them).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="${1:-$here}"
mkdir -p "$out"
cc="${CC:-cc}"

if ! pkg-config --exists pangoft2 fontconfig; then
  echo "build.sh: pkg-config cannot find pangoft2/fontconfig; install libpango1.0-dev (scripts/bootstrap)" >&2
  exit 1
fi

# Rebuild only when the source is newer than the binary.
if [ ! -x "$out/pango_layout" ] || [ "$here/pango_layout.c" -nt "$out/pango_layout" ]; then
  # shellcheck disable=SC2046  # pkg-config output is meant to split into flags
  "$cc" -O2 -Wall -Wextra -o "$out/pango_layout" "$here/pango_layout.c" \
    $(pkg-config --cflags --libs pangoft2 fontconfig)
fi
echo "$out/pango_layout"

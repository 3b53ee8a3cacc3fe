#!/usr/bin/env bash
# Print the Debian mirror this machine's apt sources name (the first `deb` source whose suite
# is bookworm), read at run time so that no registry host is written into the repository.
# Reads both formats: one-line `deb URI SUITE ...` (sources.list, *.list) and deb822 (*.sources).
# Override with DEBIAN_MIRROR=... when the machine has no apt sources.
set -euo pipefail
SUITE="${1:-bookworm}"
if [ -n "${DEBIAN_MIRROR:-}" ]; then echo "$DEBIAN_MIRROR"; exit 0; fi

files=()
for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] && files+=("$f")
done
[ ${#files[@]} -gt 0 ] || { echo "no apt sources found; set DEBIAN_MIRROR" >&2; exit 1; }

mirror="$(awk -v suite="$SUITE" '
    # one-line format: deb [options] URI SUITE COMPONENTS...
    FILENAME !~ /\.sources$/ && $1 == "deb" {
        i = 2
        if ($i ~ /^\[/) { while ($i !~ /\]$/) i++; i++ }
        if ($(i + 1) == suite) { print $i; exit }
        next
    }
    # deb822 format: stanzas separated by blank lines
    FILENAME ~ /\.sources$/ {
        if ($0 ~ /^[ \t]*$/) { types = uris = suites = ""; next }
        if ($1 == "Types:")  types  = " " $0 " "
        if ($1 == "URIs:")   uris   = $2
        if ($1 == "Suites:") suites = " " $0 " "
        if (types ~ / deb / && uris != "" && suites ~ (" " suite " ")) { print uris; exit }
    }
' "${files[@]}")"
[ -n "$mirror" ] || { echo "no apt source for suite $SUITE; set DEBIAN_MIRROR" >&2; exit 1; }
echo "$mirror"

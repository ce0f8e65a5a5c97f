#!/usr/bin/env bash
# The work-precision comparison with Simbody (docs/performance.md, "Work-precision against
# Simbody"): installs Simbody (Debian libsimbody-dev, needed by this benchmark only) when missing,
# then what scripts/setup.sh installs and builds (the configuration finds Simbody and adds
# noether_simbody_work_precision), then runs benchmarks/work_precision/report with the arguments
# given, e.g. --quick, or -- --case nfourbar:40. Run as root; safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! dpkg-query -W -f='${Status}' libsimbody-dev 2>/dev/null | grep -q "install ok installed"; then
  echo "Installing libsimbody-dev (for this benchmark only)"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends libsimbody-dev
fi
bash scripts/setup.sh
benchmarks/work_precision/report "$@"

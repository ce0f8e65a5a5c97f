#!/usr/bin/env bash
# The work-precision comparison with Simbody (docs/performance.md, "Work-precision against
# Simbody"): installs Simbody (Debian libsimbody-dev, needed by this benchmark only) when missing,
# then what `scripts/setup.sh all` installs and builds (the configuration finds Simbody and adds
# noether_simbody_work_precision), then runs benchmarks/work_precision/report with the arguments
# given, e.g. --quick, or -- --case nfourbar:40. Run as root; safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/install_packages.sh libsimbody-dev
bash scripts/setup.sh all
benchmarks/work_precision/report "$@"

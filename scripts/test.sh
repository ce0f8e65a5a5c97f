#!/usr/bin/env bash
# The tests: install what is missing, build Release (warnings are errors), run the whole suite.
# The sanitizer pass (AddressSanitizer and UndefinedBehaviorSanitizer) is scripts/sanitize.sh, run
# on its own (README, "Sanitizers"); it is not part of this command yet (its build is too long).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
ctest --test-dir build --output-on-failure -j"$(nproc)"

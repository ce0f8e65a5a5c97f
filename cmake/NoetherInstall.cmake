# Installation: public headers under include/noether/<layer>/ and a CMake package exporting
# Noether::noether (filled in with the multibody layer).

#!/bin/sh
# Line coverage of the builder, executor and decoder by the unit tests.
#   scripts/coverage.sh   (needs gcovr)
set -eu
cd "$(dirname "$0")/.."
cmake -S . -B build-cov -DUVIO_COVERAGE=ON -DCMAKE_BUILD_TYPE=Debug >/dev/null
cmake --build build-cov -j"$(nproc)" >/dev/null
ctest --test-dir build-cov -L unit >/dev/null
gcovr -r . build-cov --filter 'lib/cmd/cmd.c' --filter 'lib/cmd/decode.c' --filter 'lib/report/names.c' \
	--filter 'include/uvio/cmd.h' --filter 'lib/device/path.c' --print-summary

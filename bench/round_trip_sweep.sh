#!/bin/sh
# The round-trip property tests (tests/core/export/round_trip_property_test.cpp) with more random plans: every model
# of the zoo x TensorRT 8.6, 10 weak, 10 strong, 11 x (default, all FP16 but one, SEEDS random plans). `make test`
# runs one random plan per model and target; this runs SEEDS (default 25). A failure names model, target and seed.
#   bench/round_trip_sweep.sh [SEEDS] [BUILD_DIR]
set -eu
seeds=${1:-25}
build=${2:-build}
QL_ROUND_TRIP_SEEDS=$seeds exec "$build/tests/core/export/core_export_tests" --gtest_filter='Zoo/RoundTrip.*'

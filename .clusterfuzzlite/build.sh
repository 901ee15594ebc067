#!/bin/bash -eu
# ClusterFuzzLite / OSS-Fuzz entry point: the engine sets $CC, $CFLAGS,
# $LIB_FUZZING_ENGINE and $OUT; fuzz/build.sh does the rest.
exec bash "$SRC/irqsim/fuzz/build.sh"

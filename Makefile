# The two commands of README.md. Both install what is missing, then build with CMake + Ninja.
BUILD_DIR ?= build
JOBS ?= 2
SAMPLE ?= resources/samples/digits_cnn.onnx
CMAKE_FLAGS ?= -DCMAKE_BUILD_TYPE=Release -DQL_WERROR=ON

.PHONY: run test build deps deps-clang configure screenshots clean format fuzz package check-package test-asan test-tsan

deps:
	@sh packaging/install-deps.sh

configure: deps
	@cmake -S . -B $(BUILD_DIR) -G Ninja $(CMAKE_FLAGS) >/dev/null

build: configure
	cmake --build $(BUILD_DIR) -j $(JOBS)

run: build
	./$(BUILD_DIR)/app/quantlens $(SAMPLE)

test: build
	cd $(BUILD_DIR) && ctest --output-on-failure -j $(JOBS)

# The README's screenshots: the window after a calibration of the sample, light and dark, under xvfb with a
# fresh settings folder (so no saved window layout applies).
screenshots: build
	@cfg=$$(mktemp -d); for theme in light dark; do \
	  XDG_CONFIG_HOME=$$cfg xvfb-run -a -s "-screen 0 1600x1000x24" ./$(BUILD_DIR)/tests/ui/ql_calibration_snapshot \
	    docs/quantlens-$$theme.png $$([ $$theme = dark ] && echo --dark) || exit 1; \
	done; rm -rf $$cfg

# The Debian package (CPack): build/quantlens_<version>_<arch>.deb.
package: build
	cd $(BUILD_DIR) && cpack -G DEB

# Installs that package into a clean Debian 12 root (debootstrap, needs Debian's mirror) and runs both binaries there.
check-package: package
	sh packaging/check_package.sh $(BUILD_DIR)/quantlens_*.deb

format:
	git ls-files '*.cpp' '*.h' | xargs clang-format -i

clean:
	rm -rf $(BUILD_DIR)

# Runs every libFuzzer target (clang + libFuzzer + ASan/UBSan) for FUZZ_SECONDS each on its seed corpus,
# tests/fuzz/corpus/<target>/; what a run finds is kept in build-fuzz/corpus/<target>/, crashes in build-fuzz/.
FUZZ_SECONDS ?= 600
FUZZ_TARGETS ?= model_loader npy npz image calibration_file trt_cache ort_calibration precision_plan project \
  engine_report qdq_import
fuzz: deps deps-clang
	CXX=clang++ cmake -S . -B build-fuzz -G Ninja -DQL_BUILD_FUZZ=ON -DQL_BUILD_GUI=OFF -DQL_BUILD_TESTS=OFF \
	  -DQL_BUILD_BENCH=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DCMAKE_CXX_FLAGS="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined" >/dev/null
	cmake --build build-fuzz -j $(JOBS) --target $(addprefix fuzz_,$(FUZZ_TARGETS))
	@for t in $(FUZZ_TARGETS); do \
	  echo "== fuzz_$$t ($(FUZZ_SECONDS) s)"; mkdir -p build-fuzz/corpus/$$t; \
	  ./build-fuzz/tests/fuzz/fuzz_$$t build-fuzz/corpus/$$t tests/fuzz/corpus/$$t -max_total_time=$(FUZZ_SECONDS) \
	    -rss_limit_mb=4096 -timeout=10 -artifact_prefix=build-fuzz/$$t- -print_final_stats=1 || exit 1; \
	done

# The whole suite (unit, CLI, Qt offscreen, conformance) under AddressSanitizer + UndefinedBehaviorSanitizer, and
# the threaded parts under ThreadSanitizer, each in its own build folder.
# -O1 -g1 and assertions on: about half the compile time of -O2 -g, and library assertions (nlohmann's) catch misuse.
SANITIZE_FLAGS = -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g1" -DQL_WERROR=ON -DQL_BUILD_BENCH=OFF
test-asan: deps
	cmake -S . -B build-asan -G Ninja $(SANITIZE_FLAGS) \
	  -DCMAKE_CXX_FLAGS="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer" >/dev/null
	cmake --build build-asan -j $(JOBS)
	cd build-asan && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
	  LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp ctest --output-on-failure -j $(JOBS)

# Threaded parts: the parallel kernels (OpenMP), the observation queue and calibration, tuning, and the GUI workers
# (calibration, tuning, layout, model loading, engine reports). Built with clang and LLVM's OpenMP runtime, whose
# TSan tool (Archer, OMP_TOOL_LIBRARIES) tells TSan about OpenMP's barriers: GCC's libgomp is not instrumented, so
# every parallel loop would be reported. tests/tsan.supp lists what is suppressed and why.
TSAN_TARGETS ?= core_exec_tests core_quant_tests core_quant_tuning_tests quantlens-cli cli_calibrate_compare_tests \
  ui_calibration_runner_test ui_calibration_dialog_test ui_tune_test ui_model_switch_test ui_graph_view_test \
  ui_engine_report_test ui_import_export_test
TSAN_TESTS ?= Executor|ConvTest|GemmTest|MatMulTest|PoolKernelTest|ReduceKernelTest|ResizeKernelTest|Arithmetic|\
  ObservationQueue|Calibrat|HistogramObserver|SubgraphCalibration|Tune|ui_calibration|ui_tune|ui_model_switch|\
  ui_graph_view|ui_engine_report|ui_import_export
ARCHER = /usr/lib/llvm-14/lib/libarcher.so
test-tsan: deps deps-clang
	CXX=clang++ cmake -S . -B build-tsan -G Ninja $(SANITIZE_FLAGS) -DCMAKE_CXX_FLAGS="-fsanitize=thread" >/dev/null
	cmake --build build-tsan -j $(JOBS) --target $(TSAN_TARGETS)
	cd build-tsan && OMP_TOOL_LIBRARIES=$(ARCHER) ARCHER_OPTIONS=verbose=0 \
	  TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 ignore_noninstrumented_modules=1 suppressions=$(CURDIR)/tests/tsan.supp" \
	  ctest --output-on-failure -j $(JOBS) -R '$(subst $(eval) ,,$(TSAN_TESTS))' -E '_NOT_BUILT'

# clang, libFuzzer and LLVM's OpenMP runtime with Archer: what `make fuzz` and `make test-tsan` need beyond `deps`.
deps-clang:
	@QL_EXTRA_PACKAGES="clang libclang-rt-14-dev libomp-14-dev" sh packaging/install-deps.sh

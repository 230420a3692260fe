# The two commands of README.md. Both install what is missing, then build with CMake + Ninja.
BUILD_DIR ?= build
JOBS ?= 2
SAMPLE ?= resources/samples/digits_cnn.onnx
CMAKE_FLAGS ?= -DCMAKE_BUILD_TYPE=Release -DQL_WERROR=ON

.PHONY: run test build deps configure screenshots clean format fuzz package check-package

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

# Runs the model-loader fuzzer (clang + libFuzzer) for FUZZ_SECONDS on the seed corpus.
FUZZ_SECONDS ?= 600
fuzz:
	CXX=clang++ cmake -S . -B build-fuzz -G Ninja -DQL_BUILD_FUZZ=ON -DQL_BUILD_GUI=OFF -DQL_BUILD_TESTS=OFF \
	  -DQL_BUILD_BENCH=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DCMAKE_CXX_FLAGS="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined" >/dev/null
	cmake --build build-fuzz -j $(JOBS) --target fuzz_model_loader
	mkdir -p build-fuzz/corpus
	./build-fuzz/tests/fuzz/fuzz_model_loader build-fuzz/corpus tests/fuzz/corpus -max_total_time=$(FUZZ_SECONDS) \
	  -rss_limit_mb=4096 -timeout=10 -artifact_prefix=build-fuzz/

# The two commands of README.md. Both install what is missing, then build with CMake + Ninja.
BUILD_DIR ?= build
JOBS ?= 2
SAMPLE ?= resources/samples/digits_cnn.onnx
CMAKE_FLAGS ?= -DCMAKE_BUILD_TYPE=Release -DQL_WERROR=ON

.PHONY: run test build deps configure screenshots clean format

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

format:
	git ls-files '*.cpp' '*.h' | xargs clang-format -i

clean:
	rm -rf $(BUILD_DIR)

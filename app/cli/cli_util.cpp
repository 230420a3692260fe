#include "app/cli/cli_util.h"

#include <iostream>

namespace ql::cli {

void printError(const std::string& message) {
    std::string line = message;
    for (char& c : line)
        if (c == '\n') c = ' ';
    std::cerr << "quantlens-cli: " << line << std::endl;
}

int failWith(const Status& status) {
    printError(status.message());
    return kExitBadInput;
}

std::unique_ptr<Model> loadModelOrReport(const std::string& path) {
    auto model = Model::load(path);
    if (!model) {
        printError(model.status().message());
        return nullptr;
    }
    return std::move(model).value();
}

}  // namespace ql::cli

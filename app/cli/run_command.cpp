// quantlens-cli run MODEL --input NAME=FILE.npy... [--out DIR] [--threads N]
// Runs a model on CPU with inputs from .npy files; prints each output's type and shape and, with --out,
// writes DIR/<output name>.npy.
#include <filesystem>
#include <iostream>

#include "app/cli/cli_util.h"
#include "app/cli/commands.h"
#include "core/data/npy.h"
#include "core/exec/executor.h"

namespace ql::cli {

namespace {

struct RunCommandOptions {
    std::string model;
    std::vector<std::string> inputs;  // NAME=FILE.npy
    std::string outDir;
    int threads = 1;
};

Result<NamedTensors> readInputs(const std::vector<std::string>& specs) {
    NamedTensors inputs;
    for (const auto& spec : specs) {
        const auto eq = spec.find('=');
        if (eq == std::string::npos || eq == 0 || eq + 1 == spec.size())
            return invalidArgument("--input '" + spec + "' must look like NAME=FILE.npy");
        QL_ASSIGN_OR_RETURN(Tensor t, readNpy(spec.substr(eq + 1)));
        inputs.emplace_back(spec.substr(0, eq), std::move(t));
    }
    return inputs;
}

// Output names may hold '/', ':' and such: keep only characters that are safe in a file name.
std::string safeFileName(const std::string& name) {
    std::string out = name.empty() ? std::string("_") : name;
    for (char& c : out)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '-' && c != '_') c = '_';
    if (out == "." || out == "..") out = "_";
    return out;
}

Status writeOutputs(const std::string& dir, const NamedTensors& outputs) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) return ioError("cannot create output folder '" + dir + "': " + ec.message());
    for (const auto& [name, tensor] : outputs) {
        const std::string path = (std::filesystem::path(dir) / (safeFileName(name) + ".npy")).string();
        QL_RETURN_IF_ERROR(writeNpy(path, tensor));
    }
    return Status::ok();
}

int runModel(const RunCommandOptions& options) {
    auto model = loadModelOrReport(options.model);
    if (!model) return kExitBadInput;
    auto inputs = readInputs(options.inputs);
    if (!inputs) return failWith(inputs.status());
    auto executor = Executor::create(model->graph(), {options.threads});
    if (!executor) return failWith(executor.status());
    auto outputs = (*executor)->run(*inputs);
    if (!outputs) return failWith(outputs.status());
    for (const auto& [name, tensor] : *outputs)
        std::cout << name << ": " << dataTypeName(tensor.dtype()) << " " << shapeString(tensor.shape()) << std::endl;
    if (!options.outDir.empty())
        if (Status s = writeOutputs(options.outDir, *outputs); !s) return failWith(s);
    return kExitOk;
}

}  // namespace

void addRunCommand(CLI::App& app, int& exitCode) {
    auto options = std::make_shared<RunCommandOptions>();
    auto* cmd = app.add_subcommand("run", "Run a model on CPU with inputs from .npy files");
    cmd->add_option("MODEL", options->model, "ONNX model file")->required();
    cmd->add_option("--input", options->inputs, "NAME=FILE.npy for each model input (repeat)");
    cmd->add_option("--out", options->outDir, "Write each output to DIR/<output name>.npy");
    cmd->add_option("--threads", options->threads, "CPU threads")->check(CLI::Range(1, 256));
    cmd->callback([options, &exitCode] { exitCode = runModel(*options); });
}

}  // namespace ql::cli

#include "core/data/open_data.h"

#include <algorithm>
#include <filesystem>

#include "core/data/input_data.h"
#include "core/data/npy.h"
#include "core/data/npz.h"

namespace ql {
namespace {

namespace fs = std::filesystem;

std::string joinNames(const std::vector<std::string>& names) {
    std::string s;
    for (const auto& n : names) s += (s.empty() ? "'" : ", '") + n + "'";
    return s;
}

Result<std::unique_ptr<InputData>> openFolder(const std::string& path, const InputSpec& spec,
                                              const ImagePreprocess& image, const DataLimits& limits) {
    QL_ASSIGN_OR_RETURN(SampleFolder folder, listSampleFolder(path));
    if (!folder.images) return std::unique_ptr<InputData>(new FileListInput(std::move(folder.files), readNpy, spec));
    QL_ASSIGN_OR_RETURN(ImageGeometry geometry, imageGeometry(spec, image));
    SampleLoader loader = [image, geometry, limits](const std::string& file) {
        return loadImage(file, image, geometry, limits);
    };
    return std::unique_ptr<InputData>(new FileListInput(std::move(folder.files), std::move(loader), spec));
}

Result<Tensor> npzMember(const std::string& path, const InputSpec& spec, bool onlyInput, const DataLimits& limits) {
    QL_ASSIGN_OR_RETURN(NpzArrays arrays, readNpz(path, limits));
    for (auto& [name, tensor] : arrays)
        if (name == spec.name) return std::move(tensor);
    if (onlyInput && arrays.size() == 1) return std::move(arrays.front().second);
    std::vector<std::string> names;
    for (const auto& member : arrays) names.push_back(member.first);
    return invalidArgument(path + ": has no array named '" + spec.name + "' (it holds " + joinNames(names) +
                           "); save one array per model input with np.savez(path, " + spec.name + "=...)");
}

Result<std::unique_ptr<InputData>> openPath(const DataSpec& data, const InputSpec& spec, bool onlyInput,
                                            const DataLimits& limits) {
    std::error_code ec;
    if (fs::is_directory(data.path, ec)) return openFolder(data.path, spec, data.image, limits);
    if (!fs::exists(data.path, ec)) return notFound(data.path + ": no such file or folder");
    if (!data.path.ends_with(".npz")) {  // a .npy stays in its mapped file: memory does not grow with it
        QL_ASSIGN_OR_RETURN(MappedNpy npy, mapNpy(data.path));
        QL_ASSIGN_OR_RETURN(auto input, ArrayInput::create(std::move(npy.array), spec, data.path, std::move(npy.file)));
        return std::unique_ptr<InputData>(std::move(input));
    }
    QL_ASSIGN_OR_RETURN(Tensor array, npzMember(data.path, spec, onlyInput, limits));
    QL_ASSIGN_OR_RETURN(auto input,
                        ArrayInput::create(std::move(array), spec, data.path + " (array '" + spec.name + "')"));
    return std::unique_ptr<InputData>(std::move(input));
}

// The spec that feeds `input`: the one naming it, else an unnamed one that can serve it.
const DataSpec* specFor(const InputSpec& input, const std::vector<DataSpec>& specs, bool onlyInput) {
    for (const DataSpec& d : specs)
        if (d.input == input.name) return &d;
    for (const DataSpec& d : specs)
        if (d.input.empty() && (onlyInput || d.path.ends_with(".npz"))) return &d;
    return nullptr;
}

}  // namespace

Result<std::unique_ptr<DataSource>> openDataSource(const std::vector<InputSpec>& inputs,
                                                   const std::vector<DataSpec>& specs, const DataLimits& limits) {
    std::vector<std::string> names;
    for (const InputSpec& in : inputs) names.push_back(in.name);
    for (const DataSpec& d : specs) {
        if (!d.input.empty() && std::find(names.begin(), names.end(), d.input) == names.end())
            return notFound("data given for '" + d.input +
                            "', which is not a model input (inputs: " + joinNames(names) + ")");
    }
    MultiInputSource::Inputs sources;
    const bool onlyInput = inputs.size() == 1;
    for (const InputSpec& in : inputs) {
        const DataSpec* d = specFor(in, specs, onlyInput);
        if (!d) return invalidArgument("no data for model input '" + in.name + "'; give it as " + in.name + "=PATH");
        QL_ASSIGN_OR_RETURN(auto data, openPath(*d, in, onlyInput, limits));
        sources.emplace_back(in.name, std::move(data));
    }
    QL_ASSIGN_OR_RETURN(auto source, MultiInputSource::create(std::move(sources)));
    return std::unique_ptr<DataSource>(std::move(source));
}

Result<SampleFolder> listSampleFolder(const std::string& path) {
    std::vector<std::string> arrays, images;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(path, ec)) {
        const std::string name = entry.path().filename().string();
        if (name.starts_with(".") || !entry.is_regular_file(ec)) continue;
        if (name.ends_with(".npy")) arrays.push_back(entry.path().string());
        if (isImageFile(name)) images.push_back(entry.path().string());
    }
    if (ec) return ioError(path + ": cannot list the folder: " + ec.message());
    if (!arrays.empty() && !images.empty()) {
        return invalidArgument(path + ": the folder mixes .npy files and images; keep one kind of sample per folder");
    }
    if (arrays.empty() && images.empty()) {
        return invalidArgument(path + ": the folder holds no .npy files and no images (.png .jpg .jpeg .bmp)");
    }
    SampleFolder folder;
    folder.images = !images.empty();
    folder.files = folder.images ? std::move(images) : std::move(arrays);
    std::sort(folder.files.begin(), folder.files.end());
    return folder;
}

Result<std::vector<int64_t>> readLabels(const std::string& path, int64_t sampleCount) {
    QL_ASSIGN_OR_RETURN(Tensor t, readNpy(path));
    const DataType d = t.dtype();
    const bool integer = d == DataType::Int8 || d == DataType::Int16 || d == DataType::Int32 || d == DataType::Int64 ||
                         d == DataType::UInt8 || d == DataType::UInt16 || d == DataType::UInt32;
    if (!integer) {
        return invalidArgument(path + ": labels must be integers but the array holds " + numpyDtypeName(d) +
                               "; save class indices with arr.astype(np.int64)");
    }
    const bool column = t.rank() == 1 || (t.rank() == 2 && t.dim(1) == 1);
    if (!column || t.dim(0) != sampleCount) {
        return invalidArgument(path + ": labels have shape " + shapeString(t.shape()) + " but the data holds " +
                               std::to_string(sampleCount) + " samples; expected shape [" +
                               std::to_string(sampleCount) + "]");
    }
    return t.toInt64s();
}

}  // namespace ql

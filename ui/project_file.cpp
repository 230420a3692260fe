#include "ui/project_file.h"

#include <QDir>
#include <QFileInfo>
#include <algorithm>

#include "core/common/atomic_file.h"
#include "core/common/json_file.h"
#include "core/common/json_util.h"
#include "core/engine/latency_model.h"
#include "core/quant/analysis_file.h"
#include "core/quant/calibration_file.h"
#include "ui/engine/engine_run.h"

namespace ql::ui {
namespace {

constexpr const char* kFormat = "quantlens-project";
constexpr int kVersion = 1;

// The output scatter's points: {"fp32": [...], "quantized": [...]}.
nlohmann::json outputPairsJson(const std::vector<OutputPair>& pairs) {
    nlohmann::json fp32 = nlohmann::json::array(), quantized = nlohmann::json::array();
    for (const OutputPair& p : pairs) {
        fp32.push_back(p.fp32);
        quantized.push_back(p.quantized);
    }
    return {{"fp32", fp32}, {"quantized", quantized}};
}

std::vector<OutputPair> outputPairsFromJson(const nlohmann::json& analysis, const std::string& key = "output_pairs") {
    const auto pairs = analysis.find(key);
    if (pairs == analysis.end() || !pairs->is_object()) return {};
    const auto fp32 = pairs->find("fp32"), quantized = pairs->find("quantized");
    if (fp32 == pairs->end() || quantized == pairs->end() || !fp32->is_array() || !quantized->is_array()) return {};
    std::vector<OutputPair> out;
    for (size_t i = 0; i < std::min(fp32->size(), quantized->size()); ++i)
        if ((*fp32)[i].is_number() && (*quantized)[i].is_number())
            out.push_back({(*fp32)[i].get<float>(), (*quantized)[i].get<float>()});
    return out;
}

nlohmann::json analysesJson(const ModelDocument& document, const Graph& graph) {
    nlohmann::json analyses = nlohmann::json::object();
    for (AnalysisMode mode : {AnalysisMode::Accumulated, AnalysisMode::Isolated})
        if (const auto report = document.analysis(mode)) {
            nlohmann::json json = analysisToJson(graph, *report);
            if (!report->outputPairs.empty()) json["output_pairs"] = outputPairsJson(report->outputPairs);
            // Every output's scatter, by output name ("output_pairs" stays the first output's, as older
            // projects have it).
            nlohmann::json perOutput = nlohmann::json::object();
            for (const OutputError& out : report->outputErrors)
                if (!out.pairs.empty()) perOutput[graph.value(out.output).name] = outputPairsJson(out.pairs);
            if (!perOutput.empty()) json["output_pairs_per_output"] = std::move(perOutput);
            analyses[analysisModeName(mode)] = std::move(json);
        }
    return analyses;
}

// A file the project names (`key`, e.g. "model"): relative to the project's folder first, then the absolute path
// saved beside it (`key` + "_absolute").
QString resolvePath(const nlohmann::json& project, const std::string& key, const QString& projectPath) {
    if (!project.is_object()) return {};
    const QDir folder = QFileInfo(projectPath).absoluteDir();
    const QString relative = QString::fromStdString(project.value(key, ""));
    if (!relative.isEmpty() && QFileInfo::exists(folder.absoluteFilePath(relative)))
        return QDir::cleanPath(folder.absoluteFilePath(relative));
    const QString absolute = QString::fromStdString(project.value(key + "_absolute", ""));
    if (!absolute.isEmpty() && QFileInfo::exists(absolute)) return absolute;
    return {};
}

QString resolveModelPath(const nlohmann::json& project, const QString& projectPath) {
    return resolvePath(project, "model", projectPath);
}

// `key` and `key`_absolute for `file`, as the model is saved.
void addPath(nlohmann::json& object, const std::string& key, const QString& file, const QString& projectPath) {
    const QString absolute = QFileInfo(file).absoluteFilePath();
    object[key] = QFileInfo(projectPath).absoluteDir().relativeFilePath(absolute).toStdString();
    object[key + "_absolute"] = absolute.toStdString();
}

nlohmann::json engineJson(const EngineRun& engine, const QString& projectPath) {
    nlohmann::json json = nlohmann::json::object();
    addPath(json, "layers", engine.layersPath, projectPath);
    if (!engine.profilePath.isEmpty()) addPath(json, "profile", engine.profilePath, projectPath);
    return json;
}

// The engine report the project names, read again for the loaded model and plan.
void restoreEngine(const nlohmann::json& project, const QString& projectPath, LoadedModel& loaded) {
    const auto engine = project.find("engine");
    if (engine == project.end() || !engine->is_object()) return;
    const QString layers = resolvePath(*engine, "layers", projectPath);
    if (layers.isEmpty()) {
        loaded.engineError = QObject::tr("%1: the engine report '%2' was not found; import it again.")
                                 .arg(projectPath, QString::fromStdString(engine->value("layers", "")));
        return;
    }
    QStringList paths{layers};
    if (const QString profile = resolvePath(*engine, "profile", projectPath); !profile.isEmpty()) paths << profile;
    const EngineLoad load =
        loadEngineRun(paths, loaded.model, plannedFromPlan(loaded.model->graph(), loaded.plan, loaded.lint));
    loaded.engine = load.run;
    loaded.engineError = load.error;
}

Result<nlohmann::json> readProjectJson(const std::string& path) {
    QL_ASSIGN_OR_RETURN(nlohmann::json project, readJsonFile(path, "QuantLens project"));
    if (!project.is_object())
        return invalidArgument(path + ": not a JSON object; is this a QuantLens project (.qlproj)?");
    if (memberString(project, "format") != kFormat)
        return invalidArgument(path + ": \"format\" is not \"" + kFormat +
                               "\"; is this a QuantLens project (.qlproj)?");
    if (memberInt(project, "version", 0) != kVersion)
        return invalidArgument(path + ": project version " + project.value("version", nlohmann::json()).dump() +
                               " is not supported (this QuantLens reads version 1)");
    return project;
}

// "trt" and "typing". Projects from before "typing" (or with a typing the version cannot build) get the version's
// default; an unreadable "trt" gets 10.x, what those projects were made for.
TrtTarget projectTarget(const nlohmann::json& project) {
    TrtTarget target;
    target.version = parseTrtVersion(memberString(project, "trt")).value_or(TrtVersion::Trt10);
    const std::string typing = memberString(project, "typing");
    target.typing = typing == "weak"     ? TrtTyping::Weak
                    : typing == "strong" ? TrtTyping::Strong
                                         : defaultTyping(target.version);
    if (!supportsTyping(target.version, target.typing)) target.typing = defaultTyping(target.version);
    return target;
}

// Plan, calibration and analyses of the project, on top of the freshly loaded model.
Status restoreWork(const nlohmann::json& project, const std::string& label, LoadedModel& loaded) {
    const Graph& graph = loaded.model->graph();
    if (const auto plan = project.find("plan"); plan != project.end() && !plan->is_null()) {
        QL_ASSIGN_OR_RETURN(loaded.plan, PrecisionPlan::fromJson(graph, *plan, label + " (plan)"));
    }
    if (const auto calibration = project.find("calibration"); calibration != project.end() && !calibration->is_null()) {
        QL_ASSIGN_OR_RETURN(CalibrationResult result,
                            calibrationFromJson(graph, *calibration, label + " (calibration)"));
        loaded.calibration = std::make_shared<const CalibrationResult>(std::move(result));
    }
    if (const auto analyses = project.find("analysis"); analyses != project.end() && analyses->is_object()) {
        for (const auto& [key, value] : analyses->items()) {
            QL_ASSIGN_OR_RETURN(AnalysisReport report, analysisFromJson(graph, value, label + " (analysis)"));
            report.outputPairs = outputPairsFromJson(value);
            if (const auto perOutput = value.find("output_pairs_per_output");
                perOutput != value.end() && perOutput->is_object())
                for (OutputError& out : report.outputErrors)
                    out.pairs = outputPairsFromJson(*perOutput, graph.value(out.output).name);
            // A project from before per-output pairs: the first output's scatter is all it kept.
            if (!report.outputErrors.empty() && report.outputErrors.front().pairs.empty() && !graph.outputs().empty() &&
                report.outputErrors.front().output == graph.outputs().front())
                report.outputErrors.front().pairs = report.outputPairs;
            auto shared = std::make_shared<const AnalysisReport>(std::move(report));
            (shared->mode == AnalysisMode::Accumulated ? loaded.accumulated : loaded.isolated) = shared;
        }
    }
    if (const auto measured = project.find("analysis_plan"); measured != project.end() && measured->is_object()) {
        QL_ASSIGN_OR_RETURN(loaded.analysisPlan, PrecisionPlan::fromJson(graph, *measured, label + " (analysis_plan)"));
    }
    loaded.analysisStaleReason = QString::fromStdString(memberString(project, "analysis_stale"));
    if (const auto gpu = project.find("gpu_profile"); gpu != project.end() && !gpu->is_null()) {
        QL_ASSIGN_OR_RETURN(GpuProfile profile, gpuProfileFromJson(*gpu, label + " (gpu_profile)"));
        profile.file = label;
        loaded.gpuProfile = std::make_shared<const GpuProfile>(std::move(profile));
    }
    loaded.dataSettings = project.value("data", nlohmann::json::object());
    if (const auto rules = project.find("silenced_rules"); rules != project.end() && rules->is_array())
        for (const auto& rule : *rules)
            if (rule.is_string()) loaded.silencedRules.append(QString::fromStdString(rule.get<std::string>()));
    return {};
}

}  // namespace

Status saveProject(const ModelDocument& document, const QString& path) {
    const Model* model = document.model();
    if (!model) return invalidArgument("There is no model to save in a project.");
    const Graph& graph = model->graph();
    const QString modelPath = QFileInfo(document.filePath()).absoluteFilePath();
    nlohmann::json project = {
        {"format", kFormat},
        {"version", kVersion},
        {"model", QFileInfo(path).absoluteDir().relativeFilePath(modelPath).toStdString()},
        {"model_absolute", modelPath.toStdString()},
        {"trt", trtVersionName(document.trtTarget().version)},
        {"typing", trtTypingName(document.trtTarget().typing)},
        {"plan", document.plan().toJson(graph)},
        {"data", document.dataSettings()},
    };
    if (!document.silencedRules().isEmpty()) {
        nlohmann::json rules = nlohmann::json::array();
        for (const QString& rule : document.silencedRules()) rules.push_back(rule.toStdString());
        project["silenced_rules"] = rules;
    }
    if (const auto calibration = document.calibration())
        project["calibration"] = calibrationToJson(graph, *calibration);
    if (nlohmann::json analyses = analysesJson(document, graph); !analyses.empty()) {
        project["analysis"] = analyses;
        // Never an analysis under another plan without saying so: the plan it measured, and why it is stale.
        if (const PrecisionPlan* measured = document.analysisPlan()) project["analysis_plan"] = measured->toJson(graph);
        if (const QString stale = document.analysisStaleReason(); !stale.isEmpty())
            project["analysis_stale"] = stale.toStdString();
    }
    if (const auto engine = document.engineRun()) project["engine"] = engineJson(*engine, path);
    if (const auto gpu = document.gpuProfile()) project["gpu_profile"] = gpuProfileToJson(*gpu);
    return writeFileAtomically(path.toStdString(), dumpJson(project) + "\n");
}

std::shared_ptr<LoadedModel> loadProject(const QString& path, const QString& locatedModel) {
    const std::string label = path.toStdString();
    auto project = readProjectJson(label);
    if (!project) {
        auto failed = std::make_shared<LoadedModel>();
        failed->path = path;
        failed->error = QString::fromStdString(project.status().message());
        return failed;
    }
    const QString modelPath = locatedModel.isEmpty() ? resolveModelPath(*project, path) : locatedModel;
    if (modelPath.isEmpty()) {
        auto failed = std::make_shared<LoadedModel>();
        failed->path = path;
        failed->missingModel = QString::fromStdString(project->value("model_absolute", project->value("model", "")));
        failed->error = QObject::tr(
                            "%1: the model '%2' was not found (neither relative to the project nor at %3). "
                            "Locate it, or move the model back.")
                            .arg(path, QString::fromStdString(project->value("model", "")),
                                 QString::fromStdString(project->value("model_absolute", "")));
        return failed;
    }
    const TrtTarget target = projectTarget(*project);
    auto loaded = ModelDocument::load(modelPath, target);
    if (!loaded->model) return loaded;
    if (Status s = restoreWork(*project, label, *loaded); !s.isOk()) {
        loaded->model.reset();
        loaded->error = QString::fromStdString(s.message());
        return loaded;
    }
    ModelDocument::decidePrecisions(*loaded, target);  // again: the project's plan, and its calibration's guard
    restoreEngine(*project, path, *loaded);
    loaded->projectPath = QFileInfo(path).absoluteFilePath();
    loaded->modelRelocated = !locatedModel.isEmpty();
    return loaded;
}

}  // namespace ql::ui

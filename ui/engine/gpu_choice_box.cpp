#include "ui/engine/gpu_choice_box.h"

#include <algorithm>

#include "core/engine/latency_model.h"
#include "ui/engine/prediction_text.h"
#include "ui/model_document.h"

namespace ql::ui {

namespace {

// Item data: the table GPU's key, this for the document's own profile, empty for none.
const QString kOwnProfile = QStringLiteral(":profile");

bool sameTerms(const ClassTerms& a, const ClassTerms& b) {
    return a.computeEfficiency == b.computeEfficiency && a.memoryEfficiency == b.memoryEfficiency &&
           a.overheadUs == b.overheadUs && a.int8Efficiency == b.int8Efficiency &&
           a.int8MemoryEfficiency == b.int8MemoryEfficiency && a.int8OverheadUs == b.int8OverheadUs;
}

// A profile that is not just a table row's defaults (a project keeps a table GPU as its defaults): fitted, or with
// terms or figures of its own.
bool isOwnProfile(const GpuProfile& profile) {
    const GpuSpec* row = findGpu(profile.gpu.name);
    if (profile.fit || !row) return true;
    const GpuProfile defaults = defaultGpuProfile(*row);
    for (size_t i = 0; i < defaults.classes.size(); ++i)
        if (!sameTerms(defaults.classes[i], profile.classes[i])) return true;
    const GpuSpec& a = profile.gpu;
    return a.int8Tops != row->int8Tops || a.fp16Tflops != row->fp16Tflops || a.memoryGBs != row->memoryGBs ||
           a.l2MB != row->l2MB || a.sms != row->sms;
}

}  // namespace

GpuChoiceBox::GpuChoiceBox(ModelDocument* document, QWidget* parent) : QComboBox(parent), mDocument(document) {
    setObjectName(QStringLiteral("GpuChoiceBox"));
    setSizeAdjustPolicy(QComboBox::AdjustToContents);
    setToolTip(
        tr("The GPU to predict the TensorRT engine's latency on (estimates, docs/performance-model.md): the "
           "Predicted ms and INT8 gain columns, the graph's View > Color Nodes By > Predicted INT8 gain and the "
           "status bar follow it. A profile fitted to your engine reports (quantlens-cli fit-gpu) predicts best."));
    connect(document, &ModelDocument::gpuProfileChanged, this, &GpuChoiceBox::rebuild);
    connect(this, &QComboBox::activated, this, &GpuChoiceBox::chosen);
    rebuild();
}

void GpuChoiceBox::rebuild() {
    const auto profile = mDocument->gpuProfile();
    if (profile && isOwnProfile(*profile)) mOwnProfile = profile;
    mRebuilding = true;
    clear();
    addItem(tr("No GPU: choose one to predict latency"), QString());
    if (mOwnProfile)
        addItem(tr("%1 (%2 profile)").arg(gpuLabel(mOwnProfile->gpu), mOwnProfile->fit ? tr("fitted") : tr("loaded")),
                kOwnProfile);
    for (const GpuSpec& gpu : gpuSpecs()) addItem(gpuLabel(gpu), QString::fromStdString(gpu.name));
    int current = 0;
    if (profile && profile == mOwnProfile)
        current = 1;
    else if (profile)
        current = std::max(0, findData(QString::fromStdString(profile->gpu.name)));
    setCurrentIndex(current);
    mRebuilding = false;
}

bool GpuChoiceBox::chooseGpu(const QString& name) {
    const int index = findData(name);
    if (index < 0) return false;
    setCurrentIndex(index);
    chosen(index);
    return true;
}

void GpuChoiceBox::chosen(int index) {
    if (mRebuilding) return;
    const QString key = itemData(index).toString();
    if (key.isEmpty()) {
        mDocument->setGpuProfile(nullptr);
    } else if (key == kOwnProfile) {
        mDocument->setGpuProfile(mOwnProfile);
    } else if (const GpuSpec* gpu = findGpu(key.toStdString())) {
        const auto current = mDocument->gpuProfile();
        if (current && current != mOwnProfile && current->gpu.name == gpu->name) return;  // already its defaults
        mDocument->setGpuProfile(std::make_shared<const GpuProfile>(defaultGpuProfile(*gpu)));
    }
}

}  // namespace ql::ui

#include "ui/calibration/image_preprocess_editor.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpression>
#include <QSettings>
#include <QSpinBox>
#include <optional>

namespace ql::ui {

namespace {

QString threeNumbers(const std::array<float, 3>& v) {
    return QStringLiteral("%1, %2, %3").arg(v[0]).arg(v[1]).arg(v[2]);
}

// "0.485, 0.456, 0.406" (commas or spaces); nullopt unless exactly three numbers.
std::optional<std::array<float, 3>> parseThree(const QString& text) {
    static const QRegularExpression separators(QStringLiteral("[,;\\s]+"));
    const QStringList parts = text.split(separators, Qt::SkipEmptyParts);
    if (parts.size() != 3) return std::nullopt;
    std::array<float, 3> out{};
    for (int i = 0; i < 3; ++i) {
        bool ok = false;
        out[static_cast<size_t>(i)] = parts[i].toFloat(&ok);
        if (!ok) return std::nullopt;
    }
    return out;
}

struct Preset {
    const char* name;
    float scale;
    std::array<float, 3> mean, stddev;
};

// The normalisations most vision models expect (torchvision's ImageNet numbers, in RGB order).
constexpr Preset kPresets[] = {
    {"[0, 1]: pixel / 255", 1.0f / 255.0f, {0, 0, 0}, {1, 1, 1}},
    {"ImageNet mean/std", 1.0f / 255.0f, {0.485f, 0.456f, 0.406f}, {0.229f, 0.224f, 0.225f}},
    {"[-1, 1]: (pixel / 127.5) - 1", 1.0f / 127.5f, {1, 1, 1}, {1, 1, 1}},
    {"Raw pixels [0, 255]", 1.0f, {0, 0, 0}, {1, 1, 1}},
};

QSpinBox* sizeBox(QWidget* parent, const QString& zeroText) {
    auto* box = new QSpinBox(parent);
    box->setRange(0, 8192);
    box->setSpecialValueText(zeroText);
    return box;
}

}  // namespace

ImagePreprocessEditor::ImagePreprocessEditor(QWidget* parent)
    : QGroupBox(tr("Image preprocessing (folders of images only)"), parent) {
    auto* form = new QFormLayout(this);
    mPreset = new QComboBox(this);
    mPreset->addItem(tr("Custom"));
    for (const Preset& p : kPresets) mPreset->addItem(tr(p.name));
    connect(mPreset, &QComboBox::activated, this, &ImagePreprocessEditor::applyPreset);
    form->addRow(tr("Preset:"), mPreset);

    mResize = new QComboBox(this);
    mResize->addItem(tr("Shorter side, then centre crop"), static_cast<int>(ResizeMode::ShorterSideThenCenterCrop));
    mResize->addItem(tr("Exact size (stretch)"), static_cast<int>(ResizeMode::Exact));
    mShorterSide = sizeBox(this, tr("auto (crop / 0.875)"));
    auto* resizeRow = new QHBoxLayout;
    resizeRow->addWidget(mResize, 1);
    resizeRow->addWidget(mShorterSide);
    form->addRow(tr("Resize:"), resizeRow);
    connect(mResize, &QComboBox::currentIndexChanged, this,
            [this] { mShorterSide->setEnabled(mResize->currentIndex() == 0); });

    mWidth = sizeBox(this, tr("model"));
    mHeight = sizeBox(this, tr("model"));
    auto* sizeRow = new QHBoxLayout;
    sizeRow->addWidget(mWidth);
    sizeRow->addWidget(mHeight);
    form->addRow(tr("Width x height:"), sizeRow);

    mOrder = new QComboBox(this);
    mOrder->addItem(QStringLiteral("RGB"), static_cast<int>(ChannelOrder::Rgb));
    mOrder->addItem(QStringLiteral("BGR"), static_cast<int>(ChannelOrder::Bgr));
    mLayout = new QComboBox(this);
    mLayout->addItem(tr("Auto (from the model input)"), static_cast<int>(ImageLayout::Auto));
    mLayout->addItem(QStringLiteral("NCHW"), static_cast<int>(ImageLayout::Nchw));
    mLayout->addItem(QStringLiteral("NHWC"), static_cast<int>(ImageLayout::Nhwc));
    auto* orderRow = new QHBoxLayout;
    orderRow->addWidget(mOrder);
    orderRow->addWidget(mLayout, 1);
    form->addRow(tr("Channels, layout:"), orderRow);

    mScale = new QDoubleSpinBox(this);
    mScale->setDecimals(8);
    mScale->setRange(1e-8, 1e4);
    form->addRow(tr("Scale:"), mScale);
    mMean = new QLineEdit(this);
    mStd = new QLineEdit(this);
    form->addRow(tr("Mean (per channel):"), mMean);
    form->addRow(tr("Std (per channel):"), mStd);
    form->addRow(new QLabel(tr("value = (pixel x scale - mean) / std, in the channel order above"), this));
    for (QLineEdit* edit : {mMean, mStd})
        connect(edit, &QLineEdit::textEdited, this, [this] { mPreset->setCurrentIndex(0); });
    connect(mScale, &QDoubleSpinBox::valueChanged, this, [this] {
        if (mScale->hasFocus()) mPreset->setCurrentIndex(0);
    });
    setValue(ImagePreprocess{});
}

ImagePreprocess ImagePreprocessEditor::value() const {
    ImagePreprocess v;
    v.resize = static_cast<ResizeMode>(mResize->currentData().toInt());
    v.shorterSide = mShorterSide->value();
    v.width = mWidth->value();
    v.height = mHeight->value();
    v.order = static_cast<ChannelOrder>(mOrder->currentData().toInt());
    v.layout = static_cast<ImageLayout>(mLayout->currentData().toInt());
    v.scale = static_cast<float>(mScale->value());
    v.mean = parseThree(mMean->text()).value_or(v.mean);
    v.stddev = parseThree(mStd->text()).value_or(v.stddev);
    return v;
}

void ImagePreprocessEditor::setValue(const ImagePreprocess& v) {
    mResize->setCurrentIndex(mResize->findData(static_cast<int>(v.resize)));
    mShorterSide->setValue(v.shorterSide);
    mWidth->setValue(v.width);
    mHeight->setValue(v.height);
    mOrder->setCurrentIndex(mOrder->findData(static_cast<int>(v.order)));
    mLayout->setCurrentIndex(mLayout->findData(static_cast<int>(v.layout)));
    mScale->setValue(v.scale);
    mMean->setText(threeNumbers(v.mean));
    mStd->setText(threeNumbers(v.stddev));
    mPreset->setCurrentIndex(0);
}

QString ImagePreprocessEditor::validate() const {
    if (!parseThree(mMean->text()))
        return tr("Image preprocessing: the mean must be three numbers, e.g. 0.485, 0.456, 0.406.");
    const auto stddev = parseThree(mStd->text());
    if (!stddev) return tr("Image preprocessing: the std must be three numbers, e.g. 0.229, 0.224, 0.225.");
    for (float s : *stddev)
        if (s == 0.0f) return tr("Image preprocessing: a std of 0 would divide by zero.");
    return {};
}

void ImagePreprocessEditor::applyPreset(int index) {
    if (index <= 0) return;
    const Preset& p = kPresets[index - 1];
    mScale->setValue(p.scale);
    mMean->setText(threeNumbers(p.mean));
    mStd->setText(threeNumbers(p.stddev));
    mPreset->setCurrentIndex(index);
}

nlohmann::json ImagePreprocessEditor::toJson() const {
    const ImagePreprocess v = value();
    return {{"resize", static_cast<int>(v.resize)},
            {"shorterSide", v.shorterSide},
            {"width", v.width},
            {"height", v.height},
            {"order", static_cast<int>(v.order)},
            {"layout", static_cast<int>(v.layout)},
            {"scale", static_cast<double>(v.scale)},
            {"mean", mMean->text().toStdString()},
            {"std", mStd->text().toStdString()}};
}

void ImagePreprocessEditor::setFromJson(const nlohmann::json& json) {
    if (!json.is_object()) return;
    const ImagePreprocess defaults;
    const auto number = [&json](const char* key, double fallback) {
        const auto it = json.find(key);
        return it != json.end() && it->is_number() ? it->get<double>() : fallback;
    };
    const auto text = [&json](const char* key) {
        const auto it = json.find(key);
        return it != json.end() && it->is_string() ? QString::fromStdString(it->get<std::string>()) : QString();
    };
    ImagePreprocess v;
    v.resize = static_cast<ResizeMode>(static_cast<int>(number("resize", static_cast<int>(defaults.resize))));
    v.shorterSide = static_cast<int>(number("shorterSide", defaults.shorterSide));
    v.width = static_cast<int>(number("width", defaults.width));
    v.height = static_cast<int>(number("height", defaults.height));
    v.order = static_cast<ChannelOrder>(static_cast<int>(number("order", static_cast<int>(defaults.order))));
    v.layout = static_cast<ImageLayout>(static_cast<int>(number("layout", static_cast<int>(defaults.layout))));
    v.scale = static_cast<float>(number("scale", static_cast<double>(defaults.scale)));
    v.mean = parseThree(text("mean")).value_or(defaults.mean);
    v.stddev = parseThree(text("std")).value_or(defaults.stddev);
    setValue(v);
}

void ImagePreprocessEditor::save(QSettings& s) const {
    const nlohmann::json values = toJson();
    for (const auto& [key, value] : values.items())
        s.setValue(QString::fromStdString(key), value.is_string()
                                                    ? QVariant(QString::fromStdString(value.get<std::string>()))
                                                    : QVariant(value.get<double>()));
}

void ImagePreprocessEditor::restore(const QSettings& s) {
    nlohmann::json json = nlohmann::json::object();
    const nlohmann::json keys = toJson();
    for (const auto& [key, value] : keys.items()) {
        const QVariant stored = s.value(QString::fromStdString(key));
        if (!stored.isValid()) continue;
        if (value.is_string())
            json[key] = stored.toString().toStdString();
        else
            json[key] = stored.toDouble();
    }
    setFromJson(json);
}

}  // namespace ql::ui

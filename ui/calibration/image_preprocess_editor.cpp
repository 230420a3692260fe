#include "ui/calibration/image_preprocess_editor.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSettings>
#include <QSpinBox>
#include <optional>
#include <tuple>

namespace ql::ui {

namespace {

QString channelValuesText(const std::vector<float>& values) {
    QStringList parts;
    for (float v : values) parts.append(QString::number(v));
    return parts.join(QStringLiteral(", "));
}

// The numbers of a mean or std field; nullopt when a word is not a number (validate() says which).
std::optional<std::vector<float>> parseValues(const QString& text) {
    auto values = parseChannelValues(text.toStdString(), "values");
    return values.isOk() ? std::optional(std::move(values).value()) : std::nullopt;
}

struct Preset {
    const char* name;
    float scale;
    const char* mean;
    const char* stddev;
};

// The normalisations most vision models expect (torchvision's ImageNet numbers, in RGB order). One value where
// every channel takes the same, so they suit grayscale models too.
constexpr Preset kPresets[] = {
    {"[0, 1]: pixel / 255", 1.0f / 255.0f, "0", "1"},
    {"ImageNet mean/std", 1.0f / 255.0f, "0.485, 0.456, 0.406", "0.229, 0.224, 0.225"},
    {"[-1, 1]: (pixel / 127.5) - 1", 1.0f / 127.5f, "1", "1"},
    {"Raw pixels [0, 255]", 1.0f, "0", "1"},
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
    mResize->addItem(tr("Centre crop (shorter side, then crop)"),
                     static_cast<int>(ResizeMode::ShorterSideThenCenterCrop));
    mResize->addItem(tr("Stretch (exact size)"), static_cast<int>(ResizeMode::Exact));
    mResize->addItem(tr("Letterbox (keep aspect, pad)"), static_cast<int>(ResizeMode::Letterbox));
    mShorterSide = sizeBox(this, tr("auto (crop / 0.875)"));
    mShorterSide->setToolTip(tr("Centre crop: the shorter side is resized to this, then the middle is cut out"));
    auto* resizeRow = new QHBoxLayout;
    resizeRow->addWidget(mResize, 1);
    resizeRow->addWidget(mShorterSide);
    form->addRow(tr("Resize:"), resizeRow);
    mPadValue = new QDoubleSpinBox(this);
    mPadValue->setRange(0.0, 255.0);
    mPadValue->setDecimals(1);
    mPadValue->setToolTip(tr("Letterbox: the border's pixel value (0-255), normalised like the image's pixels"));
    form->addRow(tr("Pad value:"), mPadValue);
    connect(mResize, &QComboBox::currentIndexChanged, this, &ImagePreprocessEditor::updateEnabled);

    mWidth = sizeBox(this, tr("model"));
    mHeight = sizeBox(this, tr("model"));
    auto* sizeRow = new QHBoxLayout;
    sizeRow->addWidget(mWidth);
    sizeRow->addWidget(mHeight);
    form->addRow(tr("Width x height:"), sizeRow);

    mOrder = new QComboBox(this);
    mOrder->setObjectName(QStringLiteral("channelOrder"));
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
    mMean->setToolTip(tr("One value for every channel, or one per channel"));
    mStd->setToolTip(mMean->toolTip());
    form->addRow(tr("Mean (1 or per channel):"), mMean);
    form->addRow(tr("Std (1 or per channel):"), mStd);
    form->addRow(new QLabel(tr("value = (pixel x scale - mean) / std, in the channel order above"), this));
    for (QLineEdit* edit : {mMean, mStd})
        connect(edit, &QLineEdit::textEdited, this, [this] { mPreset->setCurrentIndex(0); });
    connect(mScale, &QDoubleSpinBox::valueChanged, this, [this] {
        if (mScale->hasFocus()) mPreset->setCurrentIndex(0);
    });
    for (QComboBox* box : {mResize, mOrder, mLayout})
        connect(box, &QComboBox::currentIndexChanged, this, &ImagePreprocessEditor::changed);
    for (QSpinBox* box : {mShorterSide, mWidth, mHeight})
        connect(box, &QSpinBox::valueChanged, this, &ImagePreprocessEditor::changed);
    for (QDoubleSpinBox* box : {mScale, mPadValue})
        connect(box, &QDoubleSpinBox::valueChanged, this, &ImagePreprocessEditor::changed);
    for (QLineEdit* edit : {mMean, mStd}) connect(edit, &QLineEdit::textChanged, this, &ImagePreprocessEditor::changed);
    setValue(ImagePreprocess{});
}

void ImagePreprocessEditor::setChannels(int channels) {
    mChannels = channels;
    mOrder->setEnabled(channels != 1);
    mOrder->setToolTip(channels == 1 ? tr("The model input has one channel: images are read as gray.") : QString());
}

void ImagePreprocessEditor::updateEnabled() {
    const auto mode = static_cast<ResizeMode>(mResize->currentData().toInt());
    mShorterSide->setEnabled(mode == ResizeMode::ShorterSideThenCenterCrop);
    mPadValue->setEnabled(mode == ResizeMode::Letterbox);
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
    v.padValue = static_cast<float>(mPadValue->value());
    v.mean = parseValues(mMean->text()).value_or(v.mean);
    v.stddev = parseValues(mStd->text()).value_or(v.stddev);
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
    mPadValue->setValue(v.padValue);
    mMean->setText(channelValuesText(v.mean));
    mStd->setText(channelValuesText(v.stddev));
    mPreset->setCurrentIndex(0);
    updateEnabled();
}

QString ImagePreprocessEditor::validate() const {
    const auto prefixed = [this](const Status& status) {
        return tr("Image preprocessing: %1.").arg(QString::fromStdString(status.message()));
    };
    ImagePreprocess v = value();
    for (auto [edit, what, values] : {std::tuple{mMean, "mean", &v.mean}, std::tuple{mStd, "std", &v.stddev}}) {
        auto parsed = parseChannelValues(edit->text().toStdString(), what);
        if (!parsed.isOk()) return prefixed(parsed.status());
        *values = std::move(parsed).value();
    }
    if (Status status = checkNormalization(v, mChannels); !status.isOk()) return prefixed(status);
    return {};
}

void ImagePreprocessEditor::applyPreset(int index) {
    if (index <= 0) return;
    const Preset& p = kPresets[index - 1];
    mScale->setValue(p.scale);
    mMean->setText(QString::fromLatin1(p.mean));
    mStd->setText(QString::fromLatin1(p.stddev));
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
            {"padValue", static_cast<double>(v.padValue)},
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
    v.padValue = static_cast<float>(number("padValue", static_cast<double>(defaults.padValue)));
    v.mean = parseValues(text("mean")).value_or(defaults.mean);
    v.stddev = parseValues(text("std")).value_or(defaults.stddev);
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

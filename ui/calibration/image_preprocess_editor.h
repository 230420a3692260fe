#pragma once
// The image preprocessing of a folder of images, with the options of the CLI's DataSpec: resize (centre crop,
// stretch, or letterbox with its pad value), size, RGB/BGR, scale, mean and std (one value, or one per channel),
// NCHW/NHWC. Presets fill in the common normalisations (ImageNet, [0, 1], [-1, 1]).
#include <QGroupBox>

#include <nlohmann/json.hpp>

#include "core/data/image_loader.h"

class QComboBox;
class QDoubleSpinBox;
class QLineEdit;
class QSettings;
class QSpinBox;

namespace ql::ui {

class ImagePreprocessEditor : public QGroupBox {
    Q_OBJECT
public:
    explicit ImagePreprocessEditor(QWidget* parent = nullptr);

    ImagePreprocess value() const;
    void setValue(const ImagePreprocess& value);
    // The model input's channel count, which the mean and std are checked against (1 value, or 1 per channel). With
    // one channel the images are read as gray: the channel order (RGB, BGR) is disabled, and says so.
    void setChannels(int channels);
    // Empty when valid, else what is wrong (e.g. a mean of two values for three channels).
    QString validate() const;

    // The settings as JSON (project files) and in QSettings, under the same keys.
    nlohmann::json toJson() const;
    void setFromJson(const nlohmann::json& json);
    void save(QSettings& settings) const;
    void restore(const QSettings& settings);

signals:
    void changed();  // any setting, by the user or by setValue()

private:
    void applyPreset(int index);
    void updateEnabled();

    QComboBox* mResize;
    QSpinBox* mShorterSide;
    QDoubleSpinBox* mPadValue;
    QSpinBox* mWidth;
    QSpinBox* mHeight;
    QComboBox* mOrder;
    QComboBox* mLayout;
    QDoubleSpinBox* mScale;
    QLineEdit* mMean;
    QLineEdit* mStd;
    QComboBox* mPreset;
    int mChannels = 3;
};

}  // namespace ql::ui

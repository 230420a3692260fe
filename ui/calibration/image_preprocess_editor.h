#pragma once
// The image preprocessing of a folder of images, with the options of the CLI's DataSpec: resize (shorter side
// then centre crop, or exact), size, RGB/BGR, scale, mean and std per channel, NCHW/NHWC. Presets fill
// in the common normalisations (ImageNet, [0, 1], [-1, 1]).
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
    // Empty when valid, else what is wrong (e.g. a mean that is not three numbers).
    QString validate() const;

    // The settings as JSON (project files) and in QSettings, under the same keys.
    nlohmann::json toJson() const;
    void setFromJson(const nlohmann::json& json);
    void save(QSettings& settings) const;
    void restore(const QSettings& settings);

private:
    void applyPreset(int index);

    QComboBox* mResize;
    QSpinBox* mShorterSide;
    QSpinBox* mWidth;
    QSpinBox* mHeight;
    QComboBox* mOrder;
    QComboBox* mLayout;
    QDoubleSpinBox* mScale;
    QLineEdit* mMean;
    QLineEdit* mStd;
    QComboBox* mPreset;
};

}  // namespace ql::ui

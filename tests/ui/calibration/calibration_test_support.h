#pragma once
// Models, data and results shared by the calibration and plot tests.
#include <QDir>
#include <QString>
#include <QWidget>
#include <memory>
#include <string>

#include "ui/calibration/calibration_request.h"
#include "ui/model_document.h"

namespace ql::ui {
class CalibrationRunner;
class MainWindow;
}  // namespace ql::ui

namespace ql::test {

QString sampleModelPath();
std::string sampleDataPath(const char* file);  // resources/samples/<file>

// Loads the bundled sample model into `document` (default plan, TensorRT policies).
void loadSample(ui::ModelDocument& document);

// A conv net slow enough (several ms per sample) to cancel mid-run: x [N,3,64,64] -> 6 x (Conv 3x3, Relu).
std::shared_ptr<Model> slowConvNet();
// `samples` seeded random samples of shape [3, 64, 64] written as one .npy at `path`.
void writeConvNetData(const std::string& path, int64_t samples);

// The sample's calibration data (and evaluation data with labels when `analyze`).
ui::CalibrationRequest sampleRequest(bool analyze, int64_t samples = 64);

// Calibrates (with `method`, on `samples` samples) and analyses the sample synchronously and hands the results
// to `document`.
void calibrateSampleNow(ui::ModelDocument& document, CalibrationMethod method = CalibrationMethod::Entropy,
                        int64_t samples = 64);

// The snapshot tools' run: the sample's calibration and analysis of 256 samples, or with `data` (a .npy) a
// calibration of it alone, through `runner` as the window runs it; false after `timeoutMs`.
bool calibrateForSnapshot(ui::CalibrationRunner* runner, const QString& data, int timeoutMs);
// Selects in `window`'s graph the node named `select`, or the second Conv when empty (its histogram is the one
// the snapshots show).
void selectForSnapshot(ui::MainWindow& window, const QString& select);

// Saves a PNG of `widget` as DIR/NAME and prints its path (the snapshot tools, for looking at windows).
bool saveSnapshot(QWidget* widget, const QDir& dir, const char* name);

}  // namespace ql::test

#pragma once
// The calibration dialog's preview pane: the first sample of the calibration data as the model will receive it
// (core/data/sample_preview.h): the picture, its shape and layout, the channel order and min/max per channel.
// Reading it decodes an image, so it runs off the GUI thread, a moment after the last change (typing a mean
// does not decode an image per key); a result for settings changed since is dropped.
#include <QFutureWatcher>
#include <QGroupBox>
#include <QImage>
#include <QTimer>
#include <optional>

#include "core/data/sample_preview.h"

class QLabel;

namespace ql::ui {

class PreprocessPreview : public QGroupBox {
    Q_OBJECT
public:
    explicit PreprocessPreview(QWidget* parent = nullptr);
    ~PreprocessPreview() override;

    // Shows the first sample `data` gives `input` once it is read; a previous request not yet read is replaced.
    void showFirstSampleOf(const InputSpec& input, const DataSpec& data);
    // Nothing to show (no data path yet): says so.
    void showNothing(const QString& why);

    bool isUpdating() const;  // a request waits or is being read
    QImage image() const { return mImage; }
    QSize pictureSize() const;  // on screen
    QString shapeText() const;
    QString orderText() const;
    QString rangeText() const;
    QString messageText() const;

signals:
    void updated();  // a request was read (shown, or its error)

private:
    void startReading();
    void readingFinished();
    void show(const SamplePreview& preview);

    struct Request {
        InputSpec input;
        DataSpec data;
    };
    std::optional<Request> mPending;  // waits for the delay, or for the running read to end
    QTimer mDelay;
    // Set from the start of a read until its result is handled: the future ends before finished() is delivered.
    bool mReading = false;
    QFutureWatcher<Result<SamplePreview>> mWatcher;
    QImage mImage;
    QLabel* mPicture;
    QLabel* mShape;
    QLabel* mOrder;
    QLabel* mRanges;
    QLabel* mMessage;
};

}  // namespace ql::ui

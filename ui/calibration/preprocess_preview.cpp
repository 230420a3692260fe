#include "ui/calibration/preprocess_preview.h"

#include <QFileInfo>
#include <QFormLayout>
#include <QLabel>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

namespace ql::ui {

namespace {

constexpr int kDelayMs = 200;      // after the last change: one read per pause in typing
constexpr int kPictureSide = 160;  // the picture's longer side on screen, in pixels

QString layoutName(ImageLayout layout, size_t rank) {
    if (layout == ImageLayout::Nchw) return QStringLiteral("CHW");
    if (layout == ImageLayout::Nhwc) return QStringLiteral("HWC");
    return rank == 3 ? QObject::tr("no channel axis of 1 or 3") : QObject::tr("not an image");
}

// "R, G, B" in the order of the channel axis; "gray" for one channel.
QStringList channelNames(const SamplePreview& p) {
    if (p.minimum.size() == 1 && p.layout != ImageLayout::Auto) return {QObject::tr("gray")};
    if (p.minimum.size() == 3 && p.fromImage)
        return p.order == ChannelOrder::Bgr
                   ? QStringList{QStringLiteral("B"), QStringLiteral("G"), QStringLiteral("R")}
                   : QStringList{QStringLiteral("R"), QStringLiteral("G"), QStringLiteral("B")};
    QStringList names;
    for (size_t c = 0; c < p.minimum.size(); ++c)
        names.append(p.layout == ImageLayout::Auto ? QObject::tr("all") : QObject::tr("channel %1").arg(c));
    return names;
}

}  // namespace

PreprocessPreview::PreprocessPreview(QWidget* parent)
    : QGroupBox(tr("Preview: the first sample as the model gets it"), parent) {
    mPicture = new QLabel(this);
    mPicture->setFixedSize(kPictureSide, kPictureSide);
    mPicture->setAlignment(Qt::AlignCenter);
    // The palette's role, not a style sheet's palette(mid): a style sheet kept the old theme's grey after a switch.
    mPicture->setAutoFillBackground(true);
    mPicture->setBackgroundRole(QPalette::Mid);
    mShape = new QLabel(this);
    mOrder = new QLabel(this);
    mRanges = new QLabel(this);
    mMessage = new QLabel(this);
    mMessage->setWordWrap(true);
    for (QLabel* label : {mShape, mOrder, mRanges, mMessage}) label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* form = new QFormLayout;
    form->addRow(tr("Shape:"), mShape);
    form->addRow(tr("Channels:"), mOrder);
    form->addRow(tr("Min / max:"), mRanges);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(mPicture, 0, Qt::AlignHCenter);
    layout->addLayout(form);
    layout->addWidget(mMessage);

    mDelay.setSingleShot(true);
    mDelay.setInterval(kDelayMs);
    connect(&mDelay, &QTimer::timeout, this, &PreprocessPreview::startReading);
    connect(&mWatcher, &QFutureWatcher<Result<SamplePreview>>::finished, this, &PreprocessPreview::readingFinished);
    showNothing(tr("Choose the calibration data to see its first sample."));
}

// A read in flight finishes on its own (it holds copies of everything it reads); its result is not shown.
PreprocessPreview::~PreprocessPreview() = default;

void PreprocessPreview::showFirstSampleOf(const InputSpec& input, const DataSpec& data) {
    mPending = Request{input, data};
    mDelay.start();
}

void PreprocessPreview::showNothing(const QString& why) {
    mPending.reset();
    mDelay.stop();
    mImage = QImage();
    mPicture->clear();
    mPicture->setFixedSize(kPictureSide, kPictureSide);
    for (QLabel* label : {mShape, mOrder, mRanges}) label->clear();
    mMessage->setText(why);
}

bool PreprocessPreview::isUpdating() const {
    return mPending.has_value() || mReading;
}

void PreprocessPreview::startReading() {
    if (!mPending || mReading) return;  // readingFinished() starts the next one
    const Request request = std::move(*mPending);
    mPending.reset();
    mReading = true;
    mWatcher.setFuture(QtConcurrent::run([request] { return previewFirstSample(request.input, request.data); }));
}

void PreprocessPreview::readingFinished() {
    mReading = false;
    if (mPending) {  // the settings changed while reading: that result is already out of date
        if (!mDelay.isActive()) startReading();
        return;
    }
    const Result<SamplePreview> result = mWatcher.result();
    if (result.isOk()) {
        show(*result);
    } else {
        showNothing(tr("Cannot preview: %1").arg(QString::fromStdString(result.status().message())));
    }
    emit updated();
}

void PreprocessPreview::show(const SamplePreview& p) {
    QStringList dims;
    for (int64_t d : p.shape) dims.append(QString::number(d));
    mShape->setText(
        QStringLiteral("[%1] (%2)").arg(dims.join(QStringLiteral(", ")), layoutName(p.layout, p.shape.size())));
    const QStringList names = channelNames(p);
    mOrder->setText(names.join(QStringLiteral(", ")));
    QStringList ranges;
    for (size_t c = 0; c < p.minimum.size(); ++c)
        ranges.append(QStringLiteral("%1: %2 .. %3")
                          .arg(names.value(static_cast<qsizetype>(c)))
                          .arg(static_cast<double>(p.minimum[c]), 0, 'g', 4)
                          .arg(static_cast<double>(p.maximum[c]), 0, 'g', 4));
    mRanges->setText(ranges.join(QLatin1Char('\n')));
    mMessage->setText(p.fromImage ? tr("%1, preprocessed; the picture undoes the mean and std.")
                                        .arg(QFileInfo(QString::fromStdString(p.source)).fileName())
                                  : tr("Arrays are used as stored; the picture spans the sample's own range."));
    if (p.rgb.empty()) {
        mImage = QImage();
        mPicture->clear();
        mPicture->setFixedSize(kPictureSide, kPictureSide);
        return;
    }
    mImage = QImage(p.rgb.data(), p.width, p.height, p.width * 3, QImage::Format_RGB888).copy();
    // The picture takes the sample's shape: bands of the frame around it would read as letterbox padding.
    const QSize side = mImage.size().scaled(kPictureSide, kPictureSide, Qt::KeepAspectRatio);
    mPicture->setFixedSize(side);
    // Small inputs (a 28x28 digit) are enlarged pixel by pixel, so the pixels the model sees stay visible.
    const bool enlarge = std::max(p.width, p.height) < kPictureSide;
    mPicture->setPixmap(QPixmap::fromImage(
        mImage.scaled(side, Qt::IgnoreAspectRatio, enlarge ? Qt::FastTransformation : Qt::SmoothTransformation)));
}

QSize PreprocessPreview::pictureSize() const {
    return mPicture->size();
}

QString PreprocessPreview::shapeText() const {
    return mShape->text();
}

QString PreprocessPreview::orderText() const {
    return mOrder->text();
}

QString PreprocessPreview::rangeText() const {
    return mRanges->text();
}

QString PreprocessPreview::messageText() const {
    return mMessage->text();
}

}  // namespace ql::ui

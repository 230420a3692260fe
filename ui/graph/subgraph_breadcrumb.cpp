#include "ui/graph/subgraph_breadcrumb.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QToolButton>

namespace ql::ui {

namespace {

const QString kSeparator = QStringLiteral(" \u203a ");
// Exported names can be long ("If_0_then_branch__Inline_0__/decoder/If_1"): a crumb shows this many characters.
constexpr int kCrumbCharacters = 36;

// Later, not now: the button clicked may be the one whose signal is being handled.
void clearRow(QHBoxLayout* row) {
    while (QLayoutItem* item = row->takeAt(0)) {
        if (QWidget* widget = item->widget()) {
            widget->hide();
            widget->deleteLater();
        }
        delete item;
    }
}

}  // namespace

SubgraphBreadcrumb::SubgraphBreadcrumb(QWidget* parent)
    : QWidget(parent),
      mCrumbRow(new QHBoxLayout),
      mNoteLabel(new QLabel(this)),
      // Where a body's precisions are set: the precision table's body rows (PrecisionPlan::bodies, body_export.h).
      mNote(tr("This body's layers are planned on their rows of the precision table, after their If/Loop; the "
               "export quantizes them as planned.")) {
    setObjectName(QStringLiteral("SubgraphBreadcrumb"));
    setAutoFillBackground(true);
    setBackgroundRole(QPalette::Window);
    mCrumbRow->setSpacing(0);
    mNoteLabel->setObjectName(QStringLiteral("SubgraphNote"));
    mNoteLabel->setForegroundRole(QPalette::PlaceholderText);
    mNoteLabel->setToolTip(mNote);
    mNoteLabel->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    mNoteLabel->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    mNoteLabel->installEventFilter(this);
    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(6, 2, 8, 2);
    row->setSpacing(12);
    row->addLayout(mCrumbRow);
    row->addWidget(mNoteLabel, 1);
}

void SubgraphBreadcrumb::setCrumbs(const QVector<Crumb>& crumbs) {
    mCrumbs = crumbs;
    clearRow(mCrumbRow);
    for (qsizetype i = 0; i < crumbs.size(); ++i) {
        if (i > 0) addCrumbWidget(new QLabel(kSeparator, this));
        addCrumbWidget(i + 1 == crumbs.size() ? currentCrumb(crumbs[i]) : crumbButton(crumbs[i]));
    }
}

// Shown now, so that the strip is measured (its height for the view) with the widgets as they will be drawn.
void SubgraphBreadcrumb::addCrumbWidget(QWidget* widget) {
    mCrumbRow->addWidget(widget);
    widget->show();
}

QString SubgraphBreadcrumb::elided(const QString& text) const {
    return fontMetrics().elidedText(text, Qt::ElideMiddle, kCrumbCharacters * fontMetrics().averageCharWidth());
}

QWidget* SubgraphBreadcrumb::currentCrumb(const Crumb& crumb) {
    auto* current = new QLabel(elided(crumb.text), this);
    current->setToolTip(crumb.text);
    QFont bold = current->font();
    bold.setBold(true);
    current->setFont(bold);
    return current;
}

QWidget* SubgraphBreadcrumb::crumbButton(const Crumb& crumb) {
    auto* button = new QToolButton(this);
    button->setText(elided(crumb.text));
    button->setAutoRaise(true);
    QPalette link = button->palette();  // reads as a link: it goes somewhere
    link.setColor(QPalette::ButtonText, link.color(QPalette::Link));
    button->setPalette(link);
    button->setCursor(Qt::PointingHandCursor);
    button->setToolTip(crumb.text + QStringLiteral("\n") +
                       (crumb.level == 0 ? tr("Back to the main graph") : tr("Back to this body")));
    const int level = crumb.level;
    connect(button, &QToolButton::clicked, this, [this, level] { emit levelRequested(level); });
    return button;
}

QString SubgraphBreadcrumb::text() const {
    QStringList parts;
    for (const Crumb& crumb : mCrumbs) parts << crumb.text;
    return parts.join(kSeparator);
}

bool SubgraphBreadcrumb::eventFilter(QObject* watched, QEvent* event) {
    if (watched == mNoteLabel && event->type() == QEvent::Resize) elideNote();
    return QWidget::eventFilter(watched, event);
}

void SubgraphBreadcrumb::elideNote() {
    mNoteLabel->setText(mNoteLabel->fontMetrics().elidedText(mNote, Qt::ElideRight, mNoteLabel->width()));
}

}  // namespace ql::ui

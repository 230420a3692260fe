#include "ui/graph/graph_search_bar.h"

#include <QAction>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QStyle>
#include <QToolButton>

#include "ui/graph/graph_view.h"

namespace ql::ui {

namespace {

QToolButton* buttonFor(QAction* action, QWidget* parent) {
    auto* button = new QToolButton(parent);
    button->setDefaultAction(action);
    button->setAutoRaise(true);
    return button;
}

}  // namespace

GraphSearchBar::GraphSearchBar(GraphView* view, QWidget* parent)
    : QWidget(parent), mView(view), mEdit(new QLineEdit(this)), mCount(new QLabel(this)) {
    mEdit->setPlaceholderText(tr("Find node, op type or tensor (Ctrl+F)"));
    mEdit->setClearButtonEnabled(true);
    mEdit->setMaximumWidth(320);
    mEdit->installEventFilter(this);
    mCount->setObjectName(QStringLiteral("SearchCount"));
    mCount->setMinimumWidth(fontMetrics().horizontalAdvance(QStringLiteral("888 of 888")));
    mPrevious = new QAction(style()->standardIcon(QStyle::SP_ArrowUp), tr("Find &Previous"), this);
    mPrevious->setShortcut(QKeySequence::FindPrevious);
    mNext = new QAction(style()->standardIcon(QStyle::SP_ArrowDown), tr("Find &Next"), this);
    mNext->setShortcut(QKeySequence::FindNext);
    connect(mNext, &QAction::triggered, this, [this] { mView->findNext(mEdit->text()); });
    connect(mPrevious, &QAction::triggered, this, [this] { mView->findPrevious(mEdit->text()); });
    connect(mView, &GraphView::searchChanged, this, &GraphSearchBar::showCount);
    connect(mEdit, &QLineEdit::textEdited, mCount, &QLabel::clear);
    connect(mView, &GraphView::graphReplaced, this, &GraphSearchBar::clear);
    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(0, 0, 0, 0);
    row->setSpacing(2);
    row->addWidget(mEdit);
    row->addWidget(buttonFor(mPrevious, this));
    row->addWidget(buttonFor(mNext, this));
    row->addWidget(mCount);
}

QString GraphSearchBar::countText() const {
    return mCount->text();
}

void GraphSearchBar::activate() {
    mEdit->setFocus();
    mEdit->selectAll();
}

void GraphSearchBar::clear() {
    mEdit->clear();
    mCount->clear();
}

void GraphSearchBar::showCount(int current, int count) {
    if (mView->search().text().isEmpty()) {
        mCount->clear();
        return;
    }
    mCount->setText(count == 0 ? tr("No matches") : tr("%1 of %2").arg(current + 1).arg(count));
}

// Enter: the next match; Shift+Enter: the previous one.
bool GraphSearchBar::eventFilter(QObject* watched, QEvent* event) {
    if (watched == mEdit && event->type() == QEvent::KeyPress) {
        const auto* key = static_cast<QKeyEvent*>(event);
        if (key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter) {
            if (key->modifiers() & Qt::ShiftModifier)
                mPrevious->trigger();
            else
                mNext->trigger();
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

}  // namespace ql::ui

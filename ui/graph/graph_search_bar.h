#pragma once
// The search box of the graph view: a line edit, previous/next buttons and the match count ("3 of 12").
// Enter goes to the next match, Shift+Enter to the previous one; its actions (F3 / Shift+F3) go in a menu.
//
//   auto* bar = new GraphSearchBar(graphView, toolbar);
//   toolbar->addWidget(bar);
//   viewMenu->addAction(bar->findNextAction());
#include <QWidget>

class QAction;
class QLabel;
class QLineEdit;

namespace ql::ui {

class GraphView;

class GraphSearchBar : public QWidget {
    Q_OBJECT
public:
    explicit GraphSearchBar(GraphView* view, QWidget* parent = nullptr);

    QLineEdit* lineEdit() const { return mEdit; }
    QAction* findNextAction() const { return mNext; }
    QAction* findPreviousAction() const { return mPrevious; }
    QString countText() const;
    // Puts the focus in the box with its text selected (Ctrl+F).
    void activate();
    // Empties the box and its count (the view shows another graph).
    void clear();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void showCount(int current, int count);

    GraphView* mView;
    QLineEdit* mEdit;
    QLabel* mCount;
    QAction* mNext;
    QAction* mPrevious;
};

}  // namespace ql::ui

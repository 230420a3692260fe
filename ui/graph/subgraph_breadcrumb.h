#pragma once
// The strip above the graph while a subgraph body is open (Netron's path): "model › If_0 › then_branch", each part
// but the last a button that goes back to its level (a node's part to the level that holds it, where it is
// selected), and a note, elided when narrow, that the precision plan does not reach inside bodies.
//
//   breadcrumb->setCrumbs({{"model", 0}, {"If_0", 0}, {"then_branch", 1}});
//   connect(breadcrumb, &SubgraphBreadcrumb::levelRequested, view, &GraphView::closeSubgraphs);
#include <QString>
#include <QVector>
#include <QWidget>

class QHBoxLayout;
class QLabel;

namespace ql::ui {

class SubgraphBreadcrumb : public QWidget {
    Q_OBJECT
public:
    struct Crumb {
        QString text;
        int level = 0;  // 0: the main graph; n: n bodies deep
    };

    explicit SubgraphBreadcrumb(QWidget* parent = nullptr);

    void setCrumbs(const QVector<Crumb>& crumbs);
    // The crumbs as shown: "model › If_0 › then_branch".
    QString text() const;
    QString note() const { return mNote; }

signals:
    void levelRequested(int level);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void addCrumbWidget(QWidget* widget);
    QString elided(const QString& text) const;
    QWidget* currentCrumb(const Crumb& crumb);
    QWidget* crumbButton(const Crumb& crumb);
    void elideNote();

    QHBoxLayout* mCrumbRow;
    QLabel* mNoteLabel;
    QString mNote;
    QVector<Crumb> mCrumbs;
};

}  // namespace ql::ui

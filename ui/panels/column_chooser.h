#pragma once
// The columns of a table the user chooses to see: the header's context menu has a checkable entry per column
// (a column that must stay, like the row's name, has none), and the choice is remembered in QSettings under
// `settingsGroup`, by a key per column that does not change with the header's text ("SQNR (stale)"). Only the
// columns the user changed are stored, so a column the user never touched follows the default. A column can
// also be unavailable (the engine's columns before an engine report is imported): hidden whatever the choice, its
// entry disabled, and shown again at the user's choice once it has data.
#include <QList>
#include <QObject>
#include <QString>
#include <vector>

class QMenu;
class QPoint;
class QTableView;

namespace ql::ui {

struct ChoosableColumn {
    int column = 0;
    QString key;    // in the settings: stays when the label changes
    QString label;  // in the menu
    bool shownByDefault = true;
};

class ColumnChooser : public QObject {
    Q_OBJECT
public:
    // `columns`: the ones the user may hide or show; every other column of `view` is left as it is.
    ColumnChooser(QTableView* view, const QString& settingsGroup, std::vector<ChoosableColumn> columns,
                  QObject* parent = nullptr);

    // The user's choice (or the default): shown when available.
    bool isChosen(int column) const;
    // Shows or hides `column` (when available) and remembers the choice.
    void setChosen(int column, bool chosen);
    void setAvailable(int column, bool available);
    bool isAvailable(int column) const;
    // The header's context menu: a checkable entry per column, in the header's visual order.
    QMenu* createMenu(QWidget* parent);

signals:
    // A column became visible (chosen and available): the owner may size it to its contents.
    void columnShown(int column);

private:
    const ChoosableColumn* find(int column) const;
    void apply(int column);
    void showMenu(const QPoint& pos);

    QTableView* mView;
    QString mGroup;
    std::vector<ChoosableColumn> mColumns;
    QList<int> mUnavailable;
};

}  // namespace ql::ui

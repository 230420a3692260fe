#pragma once
// The optional class labels of evaluation data: a .npy path with a File... button. Shared by the calibration
// dialog (accuracy in the error analysis) and the tune dialog (the accuracy-drop target).
#include <QWidget>

class QLineEdit;

namespace ql::ui {

class LabelsPathEdit : public QWidget {
    Q_OBJECT
public:
    explicit LabelsPathEdit(QWidget* parent = nullptr);

    QString path() const;  // trimmed; empty when none
    void setPath(const QString& path);
    // Empty when there is no path or the file exists, else a message naming it.
    QString validate() const;
    // Where File... starts while there is no path (the model's folder).
    void setDialogFolder(const QString& folder) { mDialogFolder = folder; }

signals:
    void pathChanged();

private:
    void browse();

    QLineEdit* mEdit;
    QString mDialogFolder;
};

}  // namespace ql::ui

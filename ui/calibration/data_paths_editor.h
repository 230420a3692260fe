#pragma once
// One path per model input (a .npy or .npz file, or a folder of .npy files or images), each with File... and
// Folder... buttons; turns them into the DataSpecs that openDataSource reads. A single .npz in the first row
// feeds every input of a multi-input model.
#include <QStringList>
#include <QWidget>
#include <vector>

#include "core/data/open_data.h"

class QLineEdit;

namespace ql::ui {

class DataPathsEditor : public QWidget {
    Q_OBJECT
public:
    explicit DataPathsEditor(const QStringList& inputNames, QWidget* parent = nullptr);
    // The names of the model's inputs that data feeds (the rows for `graph`).
    static QStringList inputNamesOf(const Graph& graph);

    QStringList inputNames() const { return mInputNames; }
    QStringList paths() const;
    void setPath(int input, const QString& path);
    void setPaths(const QStringList& paths);
    bool isEmpty() const;  // no path in any row
    // Where File... and Folder... start while a row is empty (the model's folder); a row's own path wins.
    void setDialogFolder(const QString& folder) { mDialogFolder = folder; }

    // The DataSpecs of the rows (empty rows left out), each with `image` for folders of images.
    std::vector<DataSpec> specs(const ImagePreprocess& image) const;
    // Empty when the paths can be read: every input has a path (or one .npz covers all) and every path
    // exists. Otherwise a message naming the input and the file; `what` names the data ("Calibration data").
    QString validate(const QString& what) const;

signals:
    void pathsChanged();

private:
    void browse(int input, bool folder);
    bool singleArchiveForAll() const;

    QStringList mInputNames;
    QList<QLineEdit*> mEdits;
    QString mDialogFolder;
};

// Files the data rows take (for file dialogs).
QString dataFileFilter();
// Where a picker of a path field starts: the folder of its path, else `fallback` (never the process's folder).
QString pickerFolder(const QString& path, const QString& fallback);

}  // namespace ql::ui

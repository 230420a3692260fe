#pragma once
// English plurals without a translation file: tr()'s %n leaves "layer(s)" as written unless a .qm supplies the
// forms, so counts are phrased whole.
#include <QString>

namespace ql::ui {

// `one` when n is 1, else `many` with %1 replaced by n: counted(3, tr("1 layer"), tr("%1 layers")) is "3 layers".
inline QString counted(qint64 n, const QString& one, const QString& many) {
    return n == 1 ? one : many.arg(n);
}

}  // namespace ql::ui

#pragma once
// A message for the user that does not block: the box is shown window-modal with open() and deletes itself on
// close, so no nested event loop runs (a background result arriving meanwhile is handled normally, and tests
// never hang on it).
#include <QMessageBox>

namespace ql::ui {

inline void showMessage(QWidget* parent, QMessageBox::Icon icon, const QString& title, const QString& text) {
    auto* box = new QMessageBox(icon, title, text, QMessageBox::Ok, parent);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

}  // namespace ql::ui

#pragma once
// Light and dark themes: the Fusion style with a light or dark palette, so the window looks the same on every
// desktop and a dark theme exists where the platform offers none. Node colours (node_style.h) read well on
// both; text colours come from the palette.
#include <QString>
#include <optional>

namespace ql::ui {

enum class Theme { Light, Dark };

std::optional<Theme> parseTheme(const QString& name);  // "light", "dark"
QString themeName(Theme theme);
// Applies to the running QApplication (existing widgets repaint).
void applyTheme(Theme theme);

}  // namespace ql::ui

#pragma once
// Puts widgets into a grid layout row by row, `columns` to a row, each cell
// stretching alike; the stretch left by an earlier, wider or taller
// arrangement is cleared first, or its empty rows and columns keep room.
// For views that re-arrange their panes or charts as their shape changes.

#include <QGridLayout>

#include <vector>

namespace schedscope::gui {

template <class Widget> void arrange_in_grid(QGridLayout *grid, const std::vector<Widget *> &widgets, int columns)
{
    for (Widget *w : widgets)
        grid->removeWidget(w);
    for (int r = 0; r < grid->rowCount(); ++r)
        grid->setRowStretch(r, 0);
    for (int c = 0; c < grid->columnCount(); ++c)
        grid->setColumnStretch(c, 0);
    for (std::size_t i = 0; i < widgets.size(); ++i) {
        const int row = static_cast<int>(i) / columns, column = static_cast<int>(i) % columns;
        grid->addWidget(widgets[i], row, column);
        grid->setRowStretch(row, 1);
        grid->setColumnStretch(column, 1);
    }
}

} // namespace schedscope::gui

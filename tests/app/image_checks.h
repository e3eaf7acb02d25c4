#pragma once
// What the screenshot and render tests ask of an image: that it has real
// content (many colours, not a blank window) and shows a given fill.

#include <QImage>
#include <QSet>

namespace schedscope::test {

inline int distinct_colours(const QImage &image)
{
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x)
            colours.insert(image.pixel(x, y));
    return static_cast<int>(colours.size());
}

inline bool has_colour(const QImage &image, QRgb rgb)
{
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x)
            if ((image.pixel(x, y) & 0xffffff) == (rgb & 0xffffff))
                return true;
    return false;
}

} // namespace schedscope::test

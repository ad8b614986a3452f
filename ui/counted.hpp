// "1 record", "3 records": the app loads no translations, so Qt's %n plural forms would
// print "record(s)".
#pragma once

#include <QString>

namespace ppsynth::ui {

inline QString counted(long long n, const QString& one, const QString& many) {
    return QString::number(n) + QLatin1Char(' ') + (n == 1 ? one : many);
}

}  // namespace ppsynth::ui

// File names between Qt and core: core takes paths in the local 8-bit encoding (UTF-8 on
// Linux), Qt holds them as QString.
#pragma once

#include <QFile>
#include <QString>
#include <string>

namespace ppsynth::ui {

inline std::string localPath(const QString& path) {
    return QFile::encodeName(path).toStdString();
}

inline QString fromLocalPath(const std::string& path) {
    return QFile::decodeName(QByteArray::fromStdString(path));
}

}  // namespace ppsynth::ui

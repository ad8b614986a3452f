// Where UI tests write what a person should look at (screenshots, exported files):
// $PPSYNTH_TEST_OUTPUT/<sub>, or <temp>/ppsynth-test-output/<sub>; created on demand.
#pragma once

#include <QDir>
#include <QString>

namespace ppsynth::testing {

inline QString outputDir(const QString& sub) {
    QString base = qEnvironmentVariable("PPSYNTH_TEST_OUTPUT");
    if (base.isEmpty()) base = QDir::tempPath() + QStringLiteral("/ppsynth-test-output");
    const QString dir = base + QLatin1Char('/') + sub;
    QDir().mkpath(dir);
    return dir;
}

}  // namespace ppsynth::testing

// Runs ppsynth-cli (PPSYNTH_CLI, set per test target) as a user would, for the CLI tests:
// its exit code and what it printed, as the text type the test compares with.
#pragma once

#include <QByteArray>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <string>
#include <type_traits>

namespace ppsynth::test {

template <class Text>
struct CliOutput {
    int code = -1;  // -1: crashed or still running after the timeout (then killed)
    Text out, err;
};

template <class Text = QByteArray>
CliOutput<Text> runCli(const QStringList& args, int timeoutMs = 300000) {
    QProcess p;
    p.start(QStringLiteral(PPSYNTH_CLI), args);
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
        return {};
    }
    const auto text = [](const QByteArray& bytes) {
        if constexpr (std::is_same_v<Text, QString>)
            return QString::fromUtf8(bytes);
        else if constexpr (std::is_same_v<Text, std::string>)
            return bytes.toStdString();
        else
            return bytes;
    };
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
            text(p.readAllStandardOutput()), text(p.readAllStandardError())};
}

}  // namespace ppsynth::test

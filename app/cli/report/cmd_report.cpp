// `ppsynth-cli report RUNDIR --out report.html|report.pdf [--overwrite] [--data FILE]`: the
// confidential disclosure-review report of a finished run. --overwrite replaces only a report
// ppsynth wrote (recognised by its HTML generator tag or PDF Creator). Charts are Qt Charts
// rendered offscreen, so this command needs ppsynth_ui (built with PPSYNTH_BUILD_UI) but no
// display: without one it selects Qt's offscreen platform itself.
#include <QApplication>
#include <QFont>
#include <cstdlib>
#include <iostream>

#include "../cli_commands.hpp"
#include "../cli_guard.hpp"
#include "../cli_progress.hpp"
#include "ui/report/report_writer.hpp"

namespace ppsynth::cli {

namespace {

struct ReportArgs {
    std::string runDir, out, data;
    bool overwrite = false;
};

bool haveDisplay() {
    for (const char* v : {"DISPLAY", "WAYLAND_DISPLAY"})
        if (const char* s = std::getenv(v); s && *s) return true;
    return false;
}

int runReport(const ReportArgs& a) {
    if (int refused = refuseInsideBundle(a.out, "--out", "the disclosure-review report");
        refused != 0)
        return refused;
    if (int refused = refuseUnwritable(a.out, "--out", DestinationUse::Replaced); refused != 0)
        return refused;
    warnAboutLeftovers(a.out);
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") && !haveDisplay())
        qputenv("QT_QPA_PLATFORM", "offscreen");
    static int argc = 1;
    static char name[] = "ppsynth-cli";
    static char* argv[] = {name, nullptr};
    QApplication app(argc, argv);
    QApplication::setFont(QFont(QStringLiteral("DejaVu Sans"), 10));
    const auto& cancel = installCancelHandler();
    ui::report::ReportOptions o;
    o.dataPath = QString::fromStdString(a.data);
    o.overwrite = a.overwrite;
    o.progress = stderrProgress(cancel);
    auto written =
        ui::report::writeReport(QString::fromStdString(a.runDir), QString::fromStdString(a.out), o);
    if (!written) {
        if (cancel.load()) return std::cerr << "cancelled: nothing was written\n", 130;
        std::cerr << "error: " << written.message();
        if (!a.overwrite && written.kind() == ErrorKind::AlreadyExists)
            std::cerr << " (--overwrite replaces it)";
        return std::cerr << "\n", 1;
    }
    std::cerr << "wrote " << written->path.toStdString();
    if (written->pages > 0) std::cerr << " (" << written->pages << " pages)";
    std::cerr << ", " << written->figures << " charts\n";
    return 0;
}

const RegisterCommand registerReport([](CLI::App& app, int& exitCode) {
    auto args = std::make_shared<ReportArgs>();
    auto* cmd = app.add_subcommand(
        "report",
        "Write the confidential disclosure-review report of a finished run (HTML or PDF)");
    cmd->add_option("rundir", args->runDir, "Run folder written by 'ppsynth-cli run --out'")
        ->required()
        ->check(CLI::ExistingDirectory);
    cmd->add_option("--out", args->out, "report.html or report.pdf")->required();
    cmd->add_flag("--overwrite", args->overwrite,
                  "Replace an existing report that ppsynth wrote (another program's file is "
                  "never replaced)");
    cmd->add_option("--data", args->data,
                    "The run's data file, when it moved (its contents must be unchanged)");
    cmd->callback([args, &exitCode] { exitCode = runReport(*args); });
});

}  // namespace
}  // namespace ppsynth::cli

#include "ui/report/report_writer.hpp"

#include <unistd.h>

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>
#include <QStringList>
#include <algorithm>
#include <filesystem>

#include "ppsynth/study/run_loader.hpp"
#include "ui/local_path.hpp"
#include "ui/report/report_charts.hpp"
#include "ui/report/report_html.hpp"
#include "ui/report/report_pdf.hpp"
#include "ui/report/report_utility.hpp"

namespace ppsynth::ui::report {

namespace {

enum class Format { Html, Pdf };

Expected<Format> formatOf(const QString& path) {
    const QString ext = QFileInfo(path).suffix().toLower();
    if (ext == QLatin1String("html") || ext == QLatin1String("htm")) return Format::Html;
    if (ext == QLatin1String("pdf")) return Format::Pdf;
    return Error{"'" + path.toStdString() +
                 "': a report is written as .html or .pdf; name the file accordingly"};
}

const Error kWriterCancelled = Error::cancelled();

Expected<WrittenReport> writeHtml(const ReportDocument& doc, WrittenReport out,
                                  const ProgressCallback& progress) {
    if (ppsynth::report(progress, {"writing the report", 0, 0, 2}) == Continue::Stop)
        return kWriterCancelled;
    const QByteArray bytes = toHtml(doc).toUtf8();
    QSaveFile file(out.path);
    if (!file.open(QIODevice::WriteOnly))
        return Error::io("could not write '" + out.path.toStdString() +
                         "': " + file.errorString().toStdString());
    file.write(bytes);
    // The last chance to stop: an uncommitted QSaveFile leaves nothing behind.
    if (ppsynth::report(progress, {"writing the report", 0, 1, 2}) == Continue::Stop)
        return kWriterCancelled;
    if (!file.commit())
        return Error::io("could not write '" + out.path.toStdString() +
                         "': " + file.errorString().toStdString());
    return out;
}

// QPdfWriter writes a path: a temporary beside the target, renamed into place.
Expected<WrittenReport> writePdfFile(const ReportDocument& doc, WrittenReport out,
                                     const ProgressCallback& progress) {
    const QString temp = out.path + QStringLiteral(".partial-%1").arg(::getpid());
    auto pages = writePdf(doc, temp, progress);
    std::error_code ec;
    if (pages && ppsynth::report(progress, {"writing pages", 0, double(*pages), double(*pages)}) ==
                     Continue::Stop)
        pages = kWriterCancelled;
    if (!pages) {
        std::filesystem::remove(localPath(temp), ec);
        return pages.error();
    }
    std::filesystem::rename(localPath(temp), localPath(out.path), ec);
    if (ec) {
        std::filesystem::remove(localPath(temp), ec);
        return Error::io("could not move the report into '" + out.path.toStdString() + "'");
    }
    out.pages = *pages;
    return out;
}

// The folders that making `dir` creates, innermost first; none when it exists.
QStringList missingFolders(const QString& dir) {
    QStringList missing;
    for (QString d = QDir(dir).absolutePath(); !QFileInfo::exists(d);) {
        missing << d;
        const QString parent = QFileInfo(d).absolutePath();
        if (parent == d) break;
        d = parent;
    }
    return missing;
}

// Undoes missingFolders' creation after a stopped or failed write, so that `report --out
// NEW/report.html` leaves no empty NEW behind. rmdir removes only empty folders, so nothing
// put there meanwhile is lost, and folders that existed before are never in the list.
void removeMadeFolders(const QStringList& innermostFirst) {
    for (const QString& d : innermostFirst)
        if (!QDir().rmdir(d)) break;
}

Expected<WrittenReport> writeFile(const ReportDocument& doc, Format format, WrittenReport out,
                                  const ProgressCallback& progress) {
    if (format == Format::Html) return writeHtml(doc, std::move(out), progress);
    return writePdfFile(doc, std::move(out), progress);
}

}  // namespace

ReportDocument textReport(const study::RunResult& run, const RunSource& source,
                          const ReportOptions& options) {
    ReportDocument doc;
    // Several sensitive variables are named together ("income, exp_food").
    QString synthesized;
    for (const auto& t : run.config.data.targets.empty()
                             ? std::vector<std::string>{run.config.data.target}
                             : run.config.data.targets)
        synthesized +=
            (synthesized.isEmpty() ? QString() : QStringLiteral(", ")) + QString::fromStdString(t);
    doc.title = QStringLiteral("Disclosure review: %1 synthesized by %2 synthesizers")
                    .arg(synthesized)
                    .arg(run.synthesizers.size());
    doc.subtitle = QStringLiteral("Run folder %1; report made %2 with ppsynth %3")
                       .arg(source.runDir, QDateTime::currentDateTimeUtc().toString(Qt::ISODate),
                            QStringLiteral(PPSYNTH_VERSION));
    doc.confidentialNotice = QStringLiteral(
        "For the disclosure review board only. This report holds record-level values derived "
        "from the confidential data (risks, weights, bounds, original values); it must never "
        "be released or attached to a release bundle.");
    doc.sections.push_back(configurationSection(run, source));
    doc.sections.push_back(epsilonSection(run));
    doc.sections.push_back(riskSection(run, options.topK));
    doc.sections.push_back(utilitySection(run));
    doc.sections.push_back(diagnosticsSection(run));
    return doc;
}

Expected<ReportDocument> buildReport(const study::RunResult& run, const RunSource& source,
                                     const ReportOptions& options,
                                     std::shared_ptr<const data::Table> table) {
    ReportDocument doc = textReport(run, source, options);
    auto drawn = drawCharts(run, options.progress, std::move(table));
    if (!drawn) return drawn.error();
    auto charts = chartsSection(*drawn, options.progress);
    if (!charts) return charts.error();
    doc.sections.push_back(std::move(*charts));
    return doc;
}

bool isReportFile(const QString& path) {
    // The marks are near the start (the HTML head, the PDF's document information, which Qt
    // writes first); a PDF's end is read too, where other writers put that information.
    constexpr qint64 kRead = 64 * 1024;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) return false;
    const QByteArray start = file.read(kRead);
    if (!start.startsWith("%PDF-")) return isHtmlReport(start);
    QByteArray end;
    if (file.size() > kRead && file.seek(std::max(kRead, file.size() - kRead)))
        end = file.readAll();
    return isPdfReport(start, end);
}

Status checkReportTarget(const QString& outPath, bool overwrite, bool replaceAnyFile) {
    if (auto format = formatOf(outPath); !format) return format.error();
    const QFileInfo target(outPath);
    if (!target.exists() && !target.isSymLink()) return {};
    if (!overwrite)
        return Error::alreadyExists("'" + outPath.toStdString() +
                                    "' already exists; choose another file or allow overwriting");
    if (!target.isFile())
        return Error{"'" + outPath.toStdString() +
                     "' exists and is not a file; it is not replaced"};
    if (!replaceAnyFile && !isReportFile(outPath))
        return Error{"'" + outPath.toStdString() +
                     "' exists and is not a report ppsynth wrote; it is not replaced (only an "
                     "earlier ppsynth report is): choose another file name or move that file "
                     "away first"};
    return {};
}

Expected<WrittenReport> writeDocument(const ReportDocument& doc, const QString& outPath,
                                      const ReportOptions& options) {
    if (auto s = checkReportTarget(outPath, options.overwrite, options.replaceAnyFile); !s)
        return s.error();
    const QFileInfo target(outPath);
    WrittenReport out;
    out.path = target.absoluteFilePath();
    for (const auto& s : doc.sections)
        for (const auto& b : s.blocks)
            if (b.kind == ReportBlock::Kind::Figure) ++out.figures;
    const QStringList made = missingFolders(target.absolutePath());
    if (!QDir().mkpath(target.absolutePath())) {
        removeMadeFolders(made);
        return Error::io("could not create the folder '" + target.absolutePath().toStdString() +
                         "'");
    }
    auto written = writeFile(doc, *formatOf(outPath), std::move(out), options.progress);
    if (!written) removeMadeFolders(made);
    return written;
}

Expected<WrittenReport> writeReport(const QString& runDir, const QString& outPath,
                                    const ReportOptions& options) {
    if (auto s = checkReportTarget(outPath, options.overwrite, options.replaceAnyFile); !s)
        return s.error();
    study::LoadOptions lo;
    lo.dataPath = localPath(options.dataPath);
    lo.progress = options.progress;
    auto loaded = study::loadRunFolder(localPath(runDir), lo);
    if (!loaded) return loaded.error();
    const RunSource source{QDir(runDir).absolutePath(), QString::fromStdString(loaded->dataPath),
                           loaded->dataVerified};
    auto doc = buildReport(loaded->run, source, options,
                           std::make_shared<const data::Table>(std::move(loaded->table)));
    if (!doc) return doc.error();
    return writeDocument(*doc, outPath, options);
}

}  // namespace ppsynth::ui::report

#include "ui/report/report_writer.hpp"

#include <unistd.h>

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>
#include <filesystem>

#include "ppsynth/study/run_loader.hpp"
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

std::string local(const QString& path) {
    return QFile::encodeName(path).toStdString();
}

}  // namespace

Expected<ReportDocument> buildReport(const study::RunResult& run, const RunSource& source,
                                     const ReportOptions& options) {
    ReportDocument doc;
    doc.title = QStringLiteral("Disclosure review: %1 synthesized by %2 synthesizers")
                    .arg(QString::fromStdString(run.config.data.target))
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
    auto charts = chartsSection(run);
    if (!charts) return charts.error();
    doc.sections.push_back(std::move(*charts));
    return doc;
}

Expected<WrittenReport> writeReport(const QString& runDir, const QString& outPath,
                                    const ReportOptions& options) {
    auto format = formatOf(outPath);
    if (!format) return format.error();
    const QFileInfo target(outPath);
    if (target.exists() && !options.overwrite)
        return Error{"'" + outPath.toStdString() +
                     "' already exists; choose another file or allow overwriting"};
    if (target.exists() && !target.isFile())
        return Error{"'" + outPath.toStdString() +
                     "' exists and is not a file; it is not replaced"};

    study::LoadOptions lo;
    lo.dataPath = local(options.dataPath);
    lo.progress = options.progress;
    auto loaded = study::loadRunFolder(local(runDir), lo);
    if (!loaded) return loaded.error();
    return writeReport(*loaded, runDir, outPath, options);
}

Expected<WrittenReport> writeReport(const study::LoadedRun& loaded, const QString& runDir,
                                    const QString& outPath, const ReportOptions& options) {
    auto format = formatOf(outPath);
    if (!format) return format.error();
    const QFileInfo target(outPath);
    if (target.exists() && !options.overwrite)
        return Error{"'" + outPath.toStdString() +
                     "' already exists; choose another file or allow overwriting"};
    if (target.exists() && !target.isFile())
        return Error{"'" + outPath.toStdString() +
                     "' exists and is not a file; it is not replaced"};
    const RunSource source{QDir(runDir).absolutePath(), QString::fromStdString(loaded.dataPath),
                           loaded.dataVerified};
    auto doc = buildReport(loaded.run, source, options);
    if (!doc) return doc.error();

    WrittenReport out;
    out.path = target.absoluteFilePath();
    for (const auto& s : doc->sections)
        for (const auto& b : s.blocks)
            if (b.kind == ReportBlock::Kind::Figure) ++out.figures;
    if (!QDir().mkpath(target.absolutePath()))
        return Error{"could not create the folder '" + target.absolutePath().toStdString() + "'"};

    if (*format == Format::Html) {
        QSaveFile file(out.path);
        if (!file.open(QIODevice::WriteOnly))
            return Error{"could not write '" + outPath.toStdString() +
                         "': " + file.errorString().toStdString()};
        file.write(toHtml(*doc).toUtf8());
        if (!file.commit())
            return Error{"could not write '" + outPath.toStdString() +
                         "': " + file.errorString().toStdString()};
        return out;
    }
    // QPdfWriter writes a path: a temporary beside the target, renamed into place.
    const QString temp = out.path + QStringLiteral(".partial-%1").arg(::getpid());
    auto pages = writePdf(*doc, temp);
    std::error_code ec;
    if (!pages) {
        std::filesystem::remove(local(temp), ec);
        return pages.error();
    }
    std::filesystem::rename(local(temp), local(out.path), ec);
    if (ec) {
        std::filesystem::remove(local(temp), ec);
        return Error{"could not move the report into '" + outPath.toStdString() + "'"};
    }
    out.pages = *pages;
    return out;
}

}  // namespace ppsynth::ui::report

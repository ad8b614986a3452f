// The disclosure-review report: the HTML holds every section, the run's own figures and
// CONFIDENTIAL top and bottom, with nothing loaded from outside the file; the PDF has
// CONFIDENTIAL and its page number on every page (checked by text extraction with
// pdftotext); bad names and existing files are refused, and with overwrite only a report
// ppsynth wrote is replaced; `ppsynth-cli report` works without a display and refuses a file
// inside a release bundle.
#include <QApplication>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTest>
#include <filesystem>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>

#include "../core/run_fixture.hpp"
#include "../core/run_maker.hpp"
#include "../core/test_files.hpp"
#include "ppsynth/study/run_data.hpp"
#include "ppsynth/study/run_output.hpp"
#include "ui/report/report_sections.hpp"
#include "ui/report/report_writer.hpp"

using namespace ppsynth;
namespace fs = std::filesystem;

namespace {

QString q(const fs::path& p) {
    return QString::fromStdString(p.string());
}

QString slurp(const fs::path& path) {
    return QString::fromStdString(test::slurp(path));
}

}  // namespace

class TstReport : public QObject {
    Q_OBJECT
    fs::path base_;
    study::RunResult run_;
    fs::path small_;  // a one-synthesizer run: few charts, for the checks that write often

    static study::RunResult makeRun(const fs::path& dir, const std::string& configPath) {
        auto made = fixture::runConfig(configPath);
        fixture::writeRun(made, dir / "run");
        return std::move(made.run);
    }

  private slots:
    void initTestCase() {
        QApplication::setFont(QFont(QStringLiteral("DejaVu Sans"), 10));
        base_ = test::outputDir("report");
        fs::remove_all(base_);
        run_ = makeRun(base_, fixture::writeInputs(base_, 3));
        small_ = base_ / "small";
        makeRun(small_, fixture::writeLargeInputs(small_, 200, 2));
    }

    void htmlHasEverySectionAndConfidential() {
        const fs::path out = base_ / "report.html";
        auto written = ui::report::writeReport(q(base_ / "run"), q(out));
        QVERIFY2(written.hasValue(), written.hasValue() ? "" : written.message().c_str());
        const QString html = slurp(out);
        for (const char* id :
             {"configuration", "epsilon", "risk", "utility", "diagnostics", "charts"})
            QVERIFY2(html.contains(QStringLiteral("<section id=\"%1\">").arg(id)), id);
        QVERIFY(html.contains("<div class=\"banner top\">CONFIDENTIAL"));
        QVERIFY(html.contains("<div class=\"banner bottom\">CONFIDENTIAL"));
        QVERIFY(html.startsWith("<!DOCTYPE html>"));
        // Self-contained: nothing fetched from elsewhere.
        QVERIFY(!html.contains(QRegularExpression("(src|href)=\"(https?:|file:|//)")));
        QVERIFY(!html.contains("<link"));
        QVERIFY(!html.contains("<script"));
        // The run's own numbers: every synthesizer's epsilon, the data file's checksum and
        // the most at-risk record of LW (its data row) in its top-10 table.
        for (const auto& s : run_.synthesizers)
            QVERIFY2(html.contains(ui::report::num(s.epsilon.perDataset)), s.name.c_str());
        QVERIFY(html.contains(QString::fromStdString(run_.dataSha256)));
        const auto* lw = run_.find("LW");
        const std::size_t top = lw->records.irTop.front();
        const QString row = QStringLiteral("<td class=\"r\">1</td><td class=\"r\">%1</td>")
                                .arg(run_.inputs.keptRows[top] + 1);
        QVERIFY2(html.contains(row), qPrintable(row));
        QVERIFY(html.contains("LW: the 10 records with the highest risk"));
        QVERIFY(html.contains("The data file's SHA-256 matched the run's record."));
        // Utility with intervals: LW's mean, confidential and synthetic, as the run stored it.
        const auto& mean = lw->utility->statistics.front();
        QCOMPARE(QString::fromStdString(mean.name), QStringLiteral("mean"));
        const QString cell =
            QStringLiteral("%1 [%2, %3]")
                .arg(ui::report::num(mean.synthetic.estimate),
                     ui::report::num(mean.synthetic.lower), ui::report::num(mean.synthetic.upper));
        QVERIFY2(html.contains(cell), qPrintable(cell));
        QVERIFY(html.contains("LW: summary statistics of visits"));
        // Every chart of the run, embedded, each with its sentence on how to read it.
        QVERIFY(written->figures >= 10);
        QCOMPARE(static_cast<std::size_t>(html.count("<figure id=\"fig-")), written->figures);
        QCOMPARE(static_cast<std::size_t>(html.count("src=\"data:image/png;base64,iVBORw0KGgo")),
                 written->figures);
        const QRegularExpression caption("<figcaption><b>[^<]+\\.</b> ([^<]{20,})</figcaption>");
        QCOMPARE(static_cast<std::size_t>(html.count(caption)), written->figures);
        QVERIFY(html.contains("fig-violin_lipschitz"));
    }

    void pdfHasConfidentialOnEveryPage() {
        const fs::path out = base_ / "report.pdf";
        auto written = ui::report::writeReport(q(base_ / "run"), q(out));
        QVERIFY2(written.hasValue(), written.hasValue() ? "" : written.message().c_str());
        QVERIFY(written->pages >= 3);
        QVERIFY(written->figures >= 10);
        QVERIFY(slurp(out).startsWith("%PDF"));
        const QString pdftotext = QStandardPaths::findExecutable(QStringLiteral("pdftotext"));
        if (pdftotext.isEmpty()) QSKIP("pdftotext (poppler-utils, scripts/deps.sh) is missing");
        QProcess p;
        p.start(pdftotext, {QStringLiteral("-layout"), q(out), QStringLiteral("-")});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        QStringList pages = QString::fromUtf8(p.readAllStandardOutput()).split(QLatin1Char('\f'));
        if (!pages.isEmpty() && pages.last().trimmed().isEmpty()) pages.removeLast();
        QCOMPARE(pages.size(), written->pages);
        for (int i = 0; i < pages.size(); ++i) {
            QVERIFY2(pages[i].count(QStringLiteral("CONFIDENTIAL")) >= 2,
                     qPrintable(QStringLiteral("page %1").arg(i + 1)));
            QVERIFY2(
                pages[i].contains(QStringLiteral("page %1 of %2").arg(i + 1).arg(written->pages)),
                qPrintable(QStringLiteral("page %1").arg(i + 1)));
        }
        // pdftotext keeps the font's ligatures ("fi" as one glyph).
        const QString all =
            pages.join(QLatin1Char('\n')).replace(QChar(0xFB01), QStringLiteral("fi"));
        for (const char* heading :
             {"Run configuration", "Epsilon accounting", "Identification risk", "MCMC diagnostics"})
            QVERIFY2(all.contains(heading), heading);
    }

    // The verdict on epsilon in the report: a column beside epsilon, the table of D_s per
    // synthesizer, and for one that did not converge its reasons and (a positive l) the
    // record setting Delta. The converged run's PDF and an unconverged copy's are written to
    // report/ for a person to look at (pdftoppm).
    void epsilonVerdictInTheReport() {
        const auto sectionText = [](const study::RunResult& run) {
            QString all;
            for (const auto& b : ui::report::epsilonSection(run).blocks) {
                all += b.text + QLatin1Char('\n') + b.table.caption + QLatin1Char('\n') +
                       b.table.header.join(QLatin1Char('|')) + QLatin1Char('\n');
                for (const auto& row : b.table.rows) all += row.join(QLatin1Char('|')) + '\n';
            }
            return all;
        };
        const QString yes = sectionText(run_);
        QVERIFY2(yes.contains(QStringLiteral("epsilon per dataset|epsilon converged|")),
                 qPrintable(yes));
        QVERIFY(yes.contains(QStringLiteral("Convergence of epsilon")));
        QVERIFY(!yes.contains(QStringLiteral("did not converge:")));
        const auto& lwEps = run_.find("LW")->epsilonDiagnostics;
        QVERIFY(lwEps.diagnosed);
        QVERIFY(yes.contains(QStringLiteral("|%1|").arg(lwEps.argmaxRecord)));

        const fs::path dir = base_ / "unconverged";
        fs::remove_all(dir);
        fs::create_directories(dir);
        fs::copy(base_ / "run", dir / "run", fs::copy_options::recursive);
        auto j = nlohmann::json::parse(test::slurp(dir / "run" / "run.json"));
        auto& e = j["synthesizers"]["LW"]["diagnostics"]["epsilon"];
        e["converged"] = false;
        e["reasons"] = {"split R-hat of D_s is 1.352 (tail), above 1.05"};
        e["argmax_loglik"] = 1.75;
        std::ofstream(dir / "run" / "run.json") << j.dump(2);
        const fs::path html = dir / "report.html";
        auto written = ui::report::writeReport(q(dir / "run"), q(html));
        QVERIFY2(written.hasValue(), written.hasValue() ? "" : written.message().c_str());
        const QString text = slurp(html);
        QVERIFY2(text.contains(QStringLiteral(
                     "LW: epsilon did not converge: split R-hat of D_s is 1.352 (tail), above "
                     "1.05.")),
                 "reason missing");
        QVERIFY(text.contains(QStringLiteral("whose log-likelihood is positive (l = 1.75")));
        QVERIFY(text.contains(QStringLiteral("<td>NO</td>")));
        auto pdf = ui::report::writeReport(q(dir / "run"), q(dir / "report.pdf"));
        QVERIFY2(pdf.hasValue(), pdf.hasValue() ? "" : pdf.message().c_str());
        auto converged = ui::report::writeReport(q(base_ / "run"), q(dir / "converged.pdf"));
        QVERIFY2(converged.hasValue(), converged.hasValue() ? "" : converged.message().c_str());
    }

    // A run until converged: the report says so with the block length instead of giving the
    // block as the draws, and gives each synthesizer's draws kept per chain, its blocks and
    // why it stopped, as run.json's diagnostics.until_converged has them.
    void untilConvergedInTheReport() {
        const fs::path dir = base_ / "until_converged";
        fs::remove_all(dir);
        fs::create_directories(dir);
        fs::copy(base_ / "run", dir / "run", fs::copy_options::recursive);
        auto j = nlohmann::json::parse(test::slurp(dir / "run" / "run.json"));
        auto& mcmc = j["configuration"]["mcmc"];
        const int block = mcmc["draws"].get<int>();
        mcmc["draws"] = "auto";
        mcmc["block_draws"] = block;
        mcmc["budget_seconds"] = 300;
        j["synthesizers"]["LW"]["diagnostics"]["until_converged"] = {
            {"blocks", 3},
            {"draws_per_chain", 3 * block},
            {"stop_reason", "converged"},
            {"converged", true},
            {"budget_reached", false},
            {"still_short", nlohmann::json::array()}};
        std::ofstream(dir / "run" / "run.json") << j.dump(2);
        const fs::path html = dir / "report.html";
        auto written = ui::report::writeReport(q(dir / "run"), q(html));
        QVERIFY2(written.hasValue(), written.hasValue() ? "" : written.message().c_str());
        const QString text = slurp(html);
        QVERIFY2(text.contains(QStringLiteral("draws until converged (blocks of %1 per chain, at "
                                              "most 300 s per fit)")
                                   .arg(block)),
                 "until converged missing from the configuration");
        QVERIFY2(text.contains(QStringLiteral("<td>%1 (until converged: 3 blocks, converged)</td>")
                                   .arg(3 * block)),
                 "LW's draws kept missing");
        QVERIFY(!text.contains(QStringLiteral("S = ")));
    }

    // Several sensitive variables (income, then the count y given income): the utility section
    // has a joint overview, each variable's tables named by variable, the correlations and the
    // regressions of each on the others; the epsilon section says one epsilon covers all.
    void severalVariablesInTheReport() {
        const fs::path dir = base_ / "several";
        fs::remove_all(dir);
        fs::create_directories(dir);
        const auto data = (dir / "income.sav").string();
        QVERIFY(static_cast<bool>(data::writeTable(fixture::incomeTable(), data)));
        const auto config = (dir / "config.json").string();
        // Built as JSON (a raw string here hides the class from moc).
        nlohmann::json c;
        c["data"] = {{"path", data},
                     {"targets", {"income", "visits"}},
                     {"predictors", {"region", "sex", "age"}},
                     {"known", {"region", "sex"}},
                     {"transform", "log-shift"}};
        c["model"] = {{"family", "normal"}};
        c["models"] = {{"visits", {{"family", "poisson"}, {"transform", "none"}}}};
        c["mcmc"] = {{"chains", 2}, {"warmup", 150}, {"draws", 150}, {"seed", 5}, {"threads", 2}};
        c["synthesis"] = {{"m", 3}};
        c["risk"] = {{"L", 3}};
        c["utility"] = {{"bootstrap", 100}};
        c["synthesizers"] = {{{"name", "Unweighted"}, {"scheme", "unweighted"}},
                             {{"name", "LW"}, {"scheme", "lipschitz"}, {"c", 0.7}, {"g", 0.0}}};
        std::ofstream(config) << c.dump(2);
        makeRun(dir, config);
        const fs::path html = dir / "report.html";
        auto written = ui::report::writeReport(q(dir / "run"), q(html));
        QVERIFY2(written.hasValue(), written.hasValue() ? "" : written.message().c_str());
        const QString text = slurp(html);
        for (const char* expected :
             {"Joint utility of income, visits", "<td>LW: income</td>", "<td>LW: visits</td>",
              "LW: summary statistics of income", "LW: summary statistics of visits",
              "LW: correlations of the sensitive variables", "<td>income - visits</td>",
              "LW: regression of visits on the predictors and the other sensitive variables",
              "LW: regression of income on the predictors and the other sensitive variables",
              "one epsilon covers the release of all of them",
              "Disclosure review: income, visits synthesized by 2 synthesizers"})
            QVERIFY2(text.contains(QString::fromUtf8(expected)), expected);
        auto pdf = ui::report::writeReport(q(dir / "run"), q(dir / "report.pdf"));
        QVERIFY2(pdf.hasValue(), pdf.hasValue() ? "" : pdf.message().c_str());
    }

    // The scalar (EM) search's tries: the chosen a, and why the search stopped when it
    // stopped at the refits' Monte Carlo noise rather than within the tolerance.
    void scalarTriesSayWhyTheSearchStopped() {
        study::RunResult run = run_;
        auto& s = run.synthesizers.front();
        // The first refit unbounded (a weighted record's non-finite log-likelihood): shown
        // as such, not as a blank.
        const double inf = std::numeric_limits<double>::infinity();
        auto& sd = s.details.emplace<study::ScalarDetails>();
        sd.tries = {{0.5, inf, inf, 0.0}, {0.25, 5.2, 10.4, 0.09}, {0.24, 5.6, 11.2, 0.118}};
        sd.a = 0.25;
        sd.noise = 0.104;
        const auto noteOf = [&](bool noiseLimited) {
            sd.noiseLimited = noiseLimited;
            for (const auto& b : ui::report::epsilonSection(run).blocks)
                if (b.table.caption == QString::fromStdString(s.name + ": scalar weights tried"))
                    return b.table;
            return ui::report::ReportTable{};
        };
        const auto limited = noteOf(true);
        QCOMPARE(limited.rows.size(), std::size_t{3});
        QCOMPARE(limited.rows[1][2], ui::report::num(10.4));
        QCOMPARE(limited.rows[0][2], QStringLiteral("∞"));
        QVERIFY2(limited.note.contains("chosen a = 0.25 ("), qPrintable(limited.note));
        QVERIFY2(limited.note.contains("Monte Carlo noise"), qPrintable(limited.note));
        // Each refit's chain-to-chain scatter, and the noise the search stopped at.
        QCOMPARE(limited.header.back(), QStringLiteral("spread between chains"));
        QCOMPARE(limited.rows[0][3], QStringLiteral("-"));  // not measured (one chain)
        QCOMPARE(limited.rows[2][3], QStringLiteral("11.8%"));
        QVERIFY2(limited.note.contains("about 10.4% between chains"), qPrintable(limited.note));
        const auto converged = noteOf(false);
        QVERIFY2(converged.note.contains("chosen a = 0.25 ("), qPrintable(converged.note));
        QVERIFY2(!converged.note.contains("noise"), qPrintable(converged.note));
    }

    void refusals() {
        auto bad = ui::report::writeReport(q(small_ / "run"), q(base_ / "report.docx"));
        QVERIFY(!bad.hasValue());
        QVERIFY2(QString::fromStdString(bad.message()).contains(".html or .pdf"),
                 bad.message().c_str());
        const fs::path existing = base_ / "existing.html";
        std::ofstream(existing) << "keep me";
        auto refused = ui::report::writeReport(q(small_ / "run"), q(existing));
        QVERIFY(!refused.hasValue());
        QVERIFY(QString::fromStdString(refused.message()).contains("already exists"));
        QCOMPARE(slurp(existing), QStringLiteral("keep me"));
        // --overwrite replaces only a report (overwriteReplacesOnlyAReport).
        ui::report::ReportOptions o;
        o.overwrite = true;
        QVERIFY(!ui::report::writeReport(q(small_ / "run"), q(existing), o).hasValue());
        QCOMPARE(slurp(existing), QStringLiteral("keep me"));
        // A failed report leaves nothing.
        auto missing = ui::report::writeReport(q(base_ / "no-such-run"), q(base_ / "missing.pdf"));
        QVERIFY(!missing.hasValue());
        QVERIFY(!fs::exists(base_ / "missing.pdf"));
        for (const auto& e : fs::directory_iterator(base_))
            QVERIFY2(e.path().filename().string().find(".partial-") == std::string::npos,
                     e.path().c_str());
        // A write that fails in folders it made removes them: a name that fits but whose
        // temporary (name.partial-PID) is longer than a file name may be.
        const fs::path made = base_ / "made" / "for-report";
        const std::string longName = std::string(246, 'r') + ".pdf";
        QTest::ignoreMessage(QtWarningMsg, "QPainter::begin(): Returned false");
        auto failed = ui::report::writeReport(q(small_ / "run"), q(made / longName));
        QVERIFY(!failed.hasValue());
        QVERIFY2(QString::fromStdString(failed.message()).contains("could not write the PDF"),
                 failed.message().c_str());
        QVERIFY(!fs::exists(base_ / "made"));
    }

    // With overwrite, only a report ppsynth wrote is replaced, recognised by its HTML
    // generator tag or PDF Creator whatever its name (and an HTML report from before the tag
    // by its head); another program's file is refused and kept. The GUI, whose save dialog
    // asked about that very file, replaces any file (replaceAnyFile); nobody replaces a folder.
    void overwriteReplacesOnlyAReport_data() {
        QTest::addColumn<QString>("file");      // the name at --out
        QTest::addColumn<QString>("existing");  // what is there: a report or a file's text
        QTest::addColumn<bool>("anyFile");      // replaceAnyFile
        QTest::addColumn<bool>("replaced");
        const QString foreignHtml = QStringLiteral(
            "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Minutes</title>"
            "<meta name=\"generator\" content=\"LibreOffice\"></head><body>ppsynth "
            "review</body></html>\n");
        const QString foreignPdf = QStringLiteral(
            "%PDF-1.4\n1 0 obj\n<< /Title (ppsynth review) /Creator (LibreOffice Writer) >>\n"
            "endobj\ntrailer\n<< /Info 1 0 R >>\n%%EOF\n");
        // Another program's file that mentions ppsynth in its body, not as its generator.
        const QString taggedInBody = QStringLiteral(
            "<html><head><title>Notes</title></head><body><meta name=\"generator\" "
            "content=\"ppsynth 0.1.0\"></body></html>\n");
        const QString olderReport = QStringLiteral(
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            "<title>CONFIDENTIAL - Disclosure review: y synthesized by 1 synthesizers</title>\n"
            "<style></style>\n</head>\n<body>\n</body>\n</html>\n");
        QTest::newRow("HTML report") << "r.html"
                                     << "{html}" << false << true;
        QTest::newRow("PDF report") << "r.pdf"
                                    << "{pdf}" << false << true;
        QTest::newRow("PDF report named .html") << "r.html"
                                                << "{pdf}" << false << true;
        QTest::newRow("older HTML report") << "r.htm" << olderReport << false << true;
        QTest::newRow("another program's HTML") << "r.html" << foreignHtml << false << false;
        QTest::newRow("another program's PDF") << "r.pdf" << foreignPdf << false << false;
        QTest::newRow("ppsynth named in the body") << "r.html" << taggedInBody << false << false;
        QTest::newRow("text") << "r.html"
                              << "keep me" << false << false;
        QTest::newRow("empty") << "r.pdf"
                               << "" << false << false;
        QTest::newRow("another program's PDF, confirmed in the GUI")
            << "r.pdf" << foreignPdf << true << true;
        QTest::newRow("a folder, confirmed in the GUI") << "r.html"
                                                        << "{folder}" << true << false;
    }
    void overwriteReplacesOnlyAReport() {
        QFETCH(QString, file);
        QFETCH(QString, existing);
        QFETCH(bool, anyFile);
        QFETCH(bool, replaced);
        const fs::path dir = base_ / "overwrite";
        fs::remove_all(dir);
        fs::create_directories(dir);
        const fs::path out = dir / file.toStdString();
        if (existing == QStringLiteral("{folder}")) {
            fs::create_directories(out);
        } else if (existing.startsWith(QLatin1Char('{'))) {
            // A report as the writer makes it (its format by the name it was written as).
            const fs::path made = dir / (existing == "{pdf}" ? "made.pdf" : "made.html");
            auto written = ui::report::writeReport(q(small_ / "run"), q(made));
            QVERIFY2(written.hasValue(), written.hasValue() ? "" : written.message().c_str());
            fs::rename(made, out);
            // Marked, to tell it from the report that replaces it (the same to the second).
            std::ofstream(out, std::ios::binary | std::ios::app) << "\n% earlier\n";
        } else {
            std::ofstream(out, std::ios::binary) << existing.toStdString();
        }
        const std::string before = fs::is_regular_file(out) ? test::slurp(out) : std::string();
        const bool isReport = existing == "{html}" || existing == "{pdf}" ||
                              existing.contains("CONFIDENTIAL - Disclosure review");
        QCOMPARE(ui::report::isReportFile(q(out)), isReport);

        ui::report::ReportOptions o;
        o.overwrite = true;
        o.replaceAnyFile = anyFile;
        auto written = ui::report::writeReport(q(small_ / "run"), q(out), o);
        QCOMPARE(written.hasValue(), replaced);
        if (replaced) {
            QVERIFY(ui::report::isReportFile(q(out)));
            QVERIFY(test::slurp(out) != before);
        } else {
            const QString why = QString::fromStdString(written.message());
            QVERIFY2(why.contains(q(out)), qPrintable(why));
            QVERIFY2(why.contains(existing == "{folder}"
                                      ? QStringLiteral("exists and is not a file; it is not "
                                                       "replaced")
                                      : QStringLiteral("exists and is not a report ppsynth wrote; "
                                                       "it is not replaced (only an earlier "
                                                       "ppsynth report is): choose another file "
                                                       "name or move that file away first")),
                     qPrintable(why));
            if (existing == "{folder}")
                QVERIFY(fs::is_directory(out) && fs::is_empty(out));
            else
                QCOMPARE(test::slurp(out), before);
        }
        std::vector<std::string> left;
        for (const auto& e : fs::directory_iterator(dir)) left.push_back(e.path().string());
        QCOMPARE(left, std::vector<std::string>{out.string()});  // no temporary file left
    }

    // The command says the same, with exit 1, and keeps the file; a report it replaces.
    void cliOverwriteReplacesOnlyAReport() {
        const fs::path dir = base_ / "cli_overwrite";
        fs::remove_all(dir);
        fs::create_directories(dir);
        const fs::path out = dir / "review.html";
        std::ofstream(out) << "<html><head><title>Board minutes</title></head></html>\n";
        const auto report = [&](const QStringList& extra) {
            QProcess p;
            p.start(QStringLiteral(PPSYNTH_CLI),
                    QStringList{QStringLiteral("report"), q(small_ / "run"),
                                QStringLiteral("--out"), q(out)} +
                        extra);
            p.waitForFinished(120000);
            return std::make_pair(p.exitCode(), QString::fromUtf8(p.readAllStandardError()));
        };
        auto [code, err] = report({QStringLiteral("--overwrite")});
        QCOMPARE(code, 1);
        QVERIFY2(err.contains(QStringLiteral("error: '%1' exists and is not a report ppsynth "
                                             "wrote; it is not replaced")
                                  .arg(q(out))),
                 qPrintable(err));
        QVERIFY(slurp(out).contains("Board minutes"));
        fs::remove(out);
        std::tie(code, err) = report({});
        QVERIFY2(code == 0, qPrintable(err));
        std::tie(code, err) = report({});
        QCOMPARE(code, 1);
        QVERIFY2(err.contains("already exists; choose another file or allow overwriting "
                              "(--overwrite replaces it)"),
                 qPrintable(err));
        std::tie(code, err) = report({QStringLiteral("--overwrite")});
        QVERIFY2(code == 0, qPrintable(err));
        QVERIFY(slurp(out).contains(QStringLiteral("<meta name=\"generator\" content=\"ppsynth ")));
    }

    // Stop from the progress callback (the CLI's Ctrl-C) is heard while the charts are drawn
    // and encoded and while the file is written, not only while the run is read; the report
    // ends "cancelled" and leaves no file, not even a temporary one, nor a folder it made.
    void stoppedReportLeavesNothing_data() {
        QTest::addColumn<QString>("stage");
        QTest::addColumn<QString>("file");
        QTest::newRow("drawing") << QStringLiteral("drawing charts")
                                 << QStringLiteral("stopped.html");
        QTest::newRow("encoding") << QStringLiteral("encoding charts")
                                  << QStringLiteral("stopped.pdf");
        QTest::newRow("pages") << QStringLiteral("writing pages") << QStringLiteral("stopped.pdf");
        QTest::newRow("html") << QStringLiteral("writing the report")
                              << QStringLiteral("stopped.html");
        // The folders the report would have gone into are made for it and removed again.
        QTest::newRow("pages, new folders")
            << QStringLiteral("writing pages") << QStringLiteral("new/sub/stopped.pdf");
        QTest::newRow("html, new folders")
            << QStringLiteral("writing the report") << QStringLiteral("new/sub/stopped.html");
    }
    void stoppedReportLeavesNothing() {
        QFETCH(QString, stage);
        QFETCH(QString, file);
        const fs::path dir = base_ / "stopped";
        fs::remove_all(dir);
        fs::create_directories(dir);
        QStringList seen;
        ui::report::ReportOptions o;
        o.progress = [&](const Progress& p) {
            const QString s = QString::fromStdString(p.stage);
            if (seen.isEmpty() || seen.back() != s) seen << s;
            return s == stage ? Continue::Stop : Continue::Yes;
        };
        auto written = ui::report::writeReport(q(small_ / "run"), q(dir / file.toStdString()), o);
        QVERIFY2(seen.contains(stage), qPrintable(seen.join(QStringLiteral(", "))));
        QVERIFY(!written.hasValue());
        QCOMPARE(QString::fromStdString(written.message()), QStringLiteral("cancelled"));
        QVERIFY(fs::is_directory(dir));  // it was there before: kept
        QStringList left;
        for (const auto& e : fs::directory_iterator(dir)) left << q(e.path().filename());
        QVERIFY2(left.isEmpty(), qPrintable(left.join(QStringLiteral(", "))));
    }

    // The report is confidential: `ppsynth-cli report` refuses a file inside a release bundle
    // (a usage error, exit 2) before reading the run, and writes nothing.
    void cliRefusesAReportInsideABundle() {
        const fs::path bundle = base_ / "bundle";
        fs::remove_all(bundle);
        fs::create_directories(bundle / "data");
        std::ofstream(bundle / "manifest.json") << R"({"format": "ppsynth-release"})";
        for (const fs::path& out : {bundle / "review.html", bundle / "data" / "new" / "r.pdf"}) {
            QProcess p;
            p.start(QStringLiteral(PPSYNTH_CLI),
                    {QStringLiteral("report"), q(small_ / "run"), QStringLiteral("--out"), q(out)});
            QVERIFY(p.waitForFinished(120000));
            const QString err = QString::fromUtf8(p.readAllStandardError());
            QCOMPARE(p.exitCode(), 2);
            for (const QString& part :
                 {QStringLiteral("confidential output (the disclosure-review report)"),
                  QStringLiteral("release bundle '%1'").arg(q(bundle))})
                QVERIFY2(err.contains(part), qPrintable(err));
            QCOMPARE(test::filesUnder(bundle), std::vector<std::string>{"manifest.json"});
            QVERIFY(!fs::exists(bundle / "data" / "new"));
        }
    }

    // The command picks the offscreen platform itself when there is no display.
    void cliWithoutDisplay() {
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        for (const char* v : {"QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY"})
            env.remove(QString::fromLatin1(v));
        p.setProcessEnvironment(env);
        const fs::path out = base_ / "cli" / "report.pdf";
        p.start(QStringLiteral(PPSYNTH_CLI),
                {QStringLiteral("report"), q(small_ / "run"), QStringLiteral("--out"), q(out)});
        QVERIFY(p.waitForFinished(120000));
        const QString err = QString::fromUtf8(p.readAllStandardError());
        QVERIFY2(p.exitCode() == 0, qPrintable(err));
        QVERIFY2(err.contains(QRegularExpression("wrote .*report.pdf \\(\\d+ pages\\)")),
                 qPrintable(err));
        QVERIFY(slurp(out).startsWith("%PDF"));
    }
};

QTEST_MAIN(TstReport)
#include "tst_report.moc"

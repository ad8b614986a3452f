// The Export dialog, offscreen: a bundle written in the background from a real run folder,
// the question before an existing folder is replaced (no, then yes), errors in words
// (no format, a data file that changed, a bundle inside a bundle), the old bundle an
// overwrite could not delete named, and a cancel that leaves nothing. Screenshot to
// $PPSYNTH_TEST_OUTPUT/screenshots/export_dialog.png.
#include <QApplication>
#include <QCheckBox>
#include <QDir>
#include <QLabel>
#include <QPushButton>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QTest>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "../core/run_fixture.hpp"
#include "../core/run_maker.hpp"
#include "../core/test_files.hpp"
#include "ppsynth/study/run_data.hpp"
#include "ppsynth/study/run_output.hpp"
#include "ui/export/export_dialog.hpp"
#include "ui/message_area.hpp"

using namespace ppsynth;
namespace fs = std::filesystem;

namespace {

// A run folder made as `ppsynth-cli run` makes one.
study::RunResult makeRun(const fs::path& base, const std::string& config) {
    auto made = fixture::runConfig(config);
    fixture::writeRun(made, base / "run");
    return std::move(made.run);
}

QString q(const fs::path& p) {
    return QString::fromStdString(p.string());
}

bool waitForExport(ui::ExportDialog& d) {
    QSignalSpy spy(&d, &ui::ExportDialog::exportFinished);
    if (spy.isEmpty() && !spy.wait(60000)) return false;
    return spy.takeFirst().at(0).toBool();
}

}  // namespace

class TstExportDialog : public QObject {
    Q_OBJECT
    fs::path base_;
    study::RunResult run_;

  private slots:
    void initTestCase() {
        QApplication::setFont(QFont(QStringLiteral("DejaVu Sans"), 10));
        base_ = test::outputDir("export_dialog");
        fs::remove_all(base_);
        run_ = makeRun(base_, fixture::writeInputs(base_, 3));
    }

    void writesTheBundleInTheBackground() {
        ui::ExportDialog d(q(base_ / "run"), run_);
        d.show();
        QVERIFY(QTest::qWaitForWindowExposed(&d));
        d.setSynthesizer("CW");
        d.setFormats(true, true, false);
        const fs::path bundle = base_ / "bundle";
        d.setDestination(q(bundle));
        QVERIFY(d.exportButton()->isEnabled());
        QSignalSpy spy(&d, &ui::ExportDialog::exportFinished);
        QTest::mouseClick(d.exportButton(), Qt::LeftButton);
        QVERIFY(d.isRunning() || !spy.isEmpty());
        QVERIFY(spy.wait(60000) || !spy.isEmpty());
        QCOMPARE(spy.takeFirst().at(0).toBool(), true);
        QVERIFY2(d.messageArea()->text().contains("Wrote the release bundle"),
                 qPrintable(d.messageArea()->text()));
        QVERIFY(fs::exists(bundle / "data" / "synthetic_03.sav"));
        QVERIFY(fs::exists(bundle / "data" / "synthetic_01.csv"));
        QVERIFY(!fs::exists(bundle / "data" / "synthetic_01.dta"));
        const auto m = nlohmann::json::parse(test::slurp(bundle / "manifest.json"));
        QCOMPARE(m["mechanism"]["synthesizer"].get<std::string>(), std::string("CW"));
        QVERIFY(d.grab().save(q(test::outputDir("screenshots") / "export_dialog.png")));
    }

    // METHOD.md section 2: wherever epsilon is shown, so is how Delta was estimated.
    void privacyLineSaysHowDeltaWasEstimated() {
        study::RunResult run = run_;
        QVERIFY(run.synthesizers.size() >= 2);
        run.synthesizers[1].deltaMethod = "0.95-quantile over draws";
        run.synthesizers[1].excludedDraws = 3;
        ui::ExportDialog d(q(base_ / "run"), run);
        const auto& first = run.synthesizers[0];
        d.setSynthesizer(QString::fromStdString(first.name));
        const QString text = d.privacyLabel()->text();
        QVERIFY2(text.contains(QStringLiteral("All %1 datasets").arg(first.epsilon.m)),
                 qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("estimated as the max over draws")),
                 qPrintable(text));
        d.setSynthesizer(QString::fromStdString(run.synthesizers[1].name));
        QVERIFY2(d.privacyLabel()->text().contains(QStringLiteral(
                     "estimated as the 0.95-quantile over draws; 3 draws above it were")),
                 qPrintable(d.privacyLabel()->text()));
    }

    void asksBeforeReplacing() {
        const fs::path bundle = base_ / "bundle_replace";
        ui::ExportDialog d(q(base_ / "run"), run_);
        d.setSynthesizer("LW");
        d.setDestination(q(bundle));
        d.startExport();
        QVERIFY(waitForExport(d));
        const std::string before = test::slurp(bundle / "manifest.json");
        QString asked;
        d.setOverwriteQuestion([&asked](const QString& folder) {
            asked = folder;
            return false;
        });
        d.setSynthesizer("EM");
        d.startExport();  // answered "no": nothing happens to the bundle
        QCOMPARE(asked, q(bundle));
        QVERIFY(!d.isRunning());
        QVERIFY(d.messageArea()->text().contains("left as it is"));
        QCOMPARE(test::slurp(bundle / "manifest.json"), before);
        d.setOverwriteQuestion([](const QString&) { return true; });
        d.startExport();
        QVERIFY(waitForExport(d));
        const auto m = nlohmann::json::parse(test::slurp(bundle / "manifest.json"));
        QCOMPARE(m["mechanism"]["synthesizer"].get<std::string>(), std::string("EM"));
    }

    // A synthesizer whose epsilon did not converge: the dialog says so beside epsilon and
    // asks before exporting; "no" writes nothing, "yes" writes a bundle whose manifest
    // records the acceptance.
    void asksBeforeReleasingAnUnconvergedEpsilon() {
        const fs::path runDir = base_ / "run_unconverged";
        fs::remove_all(runDir);
        fs::copy(base_ / "run", runDir, fs::copy_options::recursive);
        const std::string why = "split R-hat of D_s is 1.300 (bulk)";
        auto j = nlohmann::json::parse(test::slurp(runDir / "run.json"));
        j["synthesizers"]["LW"]["diagnostics"]["epsilon"]["converged"] = false;
        j["synthesizers"]["LW"]["diagnostics"]["epsilon"]["reasons"] = {why};
        std::ofstream(runDir / "run.json") << j.dump(2);
        study::RunResult run = run_;
        auto* lw = const_cast<study::SynthesizerResult*>(run.find("LW"));
        lw->epsilonDiagnostics.converged = false;
        lw->epsilonDiagnostics.reasons = {why};

        ui::ExportDialog d(q(runDir), run);
        d.show();
        QVERIFY(QTest::qWaitForWindowExposed(&d));
        d.setSynthesizer("LW");
        QVERIFY2(
            d.privacyLabel()->text().contains(
                QStringLiteral("Epsilon did not converge: %1").arg(QString::fromStdString(why))),
            qPrintable(d.privacyLabel()->text()));
        QVERIFY(d.grab().save(q(test::outputDir("screenshots") / "export_dialog_unconverged.png")));
        const fs::path bundle = base_ / "bundle_unconverged";
        fs::remove_all(bundle);
        d.setDestination(q(bundle));
        QString asked;
        d.setUnconvergedQuestion([&asked](const QString& name, const QString& reasons) {
            asked = name + QStringLiteral(": ") + reasons;
            return false;
        });
        d.startExport();
        QCOMPARE(asked, QStringLiteral("LW: ") + QString::fromStdString(why));
        QVERIFY(!d.isRunning());
        QVERIFY2(d.messageArea()->text().contains("Nothing was exported"),
                 qPrintable(d.messageArea()->text()));
        QVERIFY(!fs::exists(bundle));
        d.setUnconvergedQuestion([](const QString&, const QString&) { return true; });
        d.startExport();
        QVERIFY(waitForExport(d));
        const auto m = nlohmann::json::parse(test::slurp(bundle / "manifest.json"));
        QCOMPARE(m["privacy"]["epsilon_convergence"]["accepted_unconverged"].get<bool>(), true);
        QCOMPARE(m["privacy"]["epsilon_convergence"]["converged"].get<bool>(), false);
        // A converged synthesizer is not asked about.
        d.setUnconvergedQuestion([](const QString&, const QString&) {
            qFatal("asked about a converged epsilon");
            return false;
        });
        d.setSynthesizer("CW");
        QVERIFY(d.privacyLabel()->text().contains(QStringLiteral("Epsilon converged.")));
        d.setDestination(q(base_ / "bundle_converged"));
        fs::remove_all(base_ / "bundle_converged");
        d.startExport();
        QVERIFY(waitForExport(d));
    }

    // When the replaced bundle cannot be deleted, the dialog says where it was left.
    void saysWhereTheOldBundleWasLeft() {
        const fs::path dir = base_ / "leftover";
        fs::create_directories(dir);
        const fs::path bundle = dir / "bundle";
        ui::ExportDialog d(q(base_ / "run"), run_);
        d.setSynthesizer("LW");
        d.setDestination(q(bundle));
        d.startExport();
        QVERIFY(waitForExport(d));
        const auto cleanup = qScopeGuard([dir] {
            for (const auto& e : fs::directory_iterator(dir))
                test::makeDeletable(e.path() / "data" / "synthetic_01.csv");
        });
        if (!test::makeUndeletable(bundle / "data" / "synthetic_01.csv"))
            QSKIP("a file cannot be made undeletable here");
        d.setOverwriteQuestion([](const QString&) { return true; });
        d.setSynthesizer("EM");
        d.startExport();
        QVERIFY(waitForExport(d));
        const QString text = d.messageArea()->text();
        QVERIFY2(text.contains(QStringLiteral("Wrote the release bundle")), qPrintable(text));
        QString old;
        for (const auto& e : fs::directory_iterator(dir))
            if (e.path().filename().string().starts_with("bundle.old-")) old = q(e.path());
        QVERIFY(!old.isEmpty());
        QVERIFY2(text.contains(QStringLiteral("left in '%1'").arg(old)), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("remove that folder by hand")), qPrintable(text));
    }

    // A bundle inside another bundle is refused in words; nothing is written.
    void refusesABundleInsideABundle() {
        const fs::path outer = base_ / "outer";
        ui::ExportDialog d(q(base_ / "run"), run_);
        d.setDestination(q(outer));
        d.startExport();
        QVERIFY(waitForExport(d));
        const std::vector<std::string> files = test::filesUnder(outer);
        d.setDestination(q(outer / "inner"));
        d.startExport();
        QVERIFY(!waitForExport(d));
        QVERIFY2(d.messageArea()->kind() == ui::MessageArea::Kind::Error &&
                     d.messageArea()->text().contains(
                         QStringLiteral("inside the release bundle '%1'").arg(q(outer))),
                 qPrintable(d.messageArea()->text()));
        QCOMPARE(test::filesUnder(outer), files);
    }

    void errorsInWords() {
        ui::ExportDialog d(q(base_ / "run"), run_);
        d.setFormats(false, false, false);
        d.setDestination(q(base_ / "never"));
        QVERIFY(!d.exportButton()->isEnabled());
        d.startExport();
        QVERIFY(d.messageArea()->text().contains("Pick at least one format"));
        // A data file that is not the run's: refused in words, nothing written.
        const fs::path changed = base_ / "changed.sav";
        fs::copy_file(base_ / "data.sav", changed, fs::copy_options::overwrite_existing);
        std::ofstream(changed, std::ios::app) << '\0';
        d.setFormats(true, false, false);
        d.setDataPath(q(changed));
        d.startExport();
        QVERIFY(!waitForExport(d));
        QVERIFY2(d.messageArea()->kind() == ui::MessageArea::Kind::Error &&
                     d.messageArea()->text().contains("is not the file this run read"),
                 qPrintable(d.messageArea()->text()));
        QVERIFY(!fs::exists(base_ / "never"));
    }

    void cancelLeavesNothing() {
        const fs::path dir = base_ / "large";
        auto run = makeRun(dir, fixture::writeLargeInputs(dir, 60000, 40));
        ui::ExportDialog d(q(dir / "run"), run);
        d.setFormats(true, true, true);
        const fs::path bundle = dir / "out" / "bundle";
        d.setDestination(q(bundle));
        QSignalSpy spy(&d, &ui::ExportDialog::exportFinished);
        d.startExport();
        QVERIFY(d.isRunning());
        d.reject();  // Cancel while running cancels, and the dialog stays
        QVERIFY(spy.wait(60000) || !spy.isEmpty());
        QCOMPARE(spy.takeFirst().at(0).toBool(), false);
        QVERIFY2(d.messageArea()->text().contains("cancelled; nothing was written"),
                 qPrintable(d.messageArea()->text()));
        QVERIFY(!fs::exists(dir / "out"));
    }
};

QTEST_MAIN(TstExportDialog)
#include "tst_export_dialog.moc"

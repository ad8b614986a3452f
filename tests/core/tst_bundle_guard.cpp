// Where confidential output may go (release/bundle_guard.hpp): the release bundle a path is
// in, found from the path up through folders not yet made, trailing separators, "..", relative
// paths and symbolic links; a manifest.json some other program wrote does not make a bundle;
// the messages the CLI and the GUI show; and a bundle inside another.
#include <QDir>
#include <QTest>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

#include "ppsynth/release/bundle_guard.hpp"
#include "test_files.hpp"

using namespace ppsynth;
namespace fs = std::filesystem;

namespace {

bool contains(const std::string& haystack, const std::string& needle) {
    return haystack.find(needle) != std::string::npos;
}

}  // namespace

class TstBundleGuard : public QObject {
    Q_OBJECT
    fs::path base_;

  private slots:
    // base/outer: a bundle (ppsynth's manifest.json, a data folder); base/foreign: a folder
    // whose manifest.json another program wrote; base/plain: a folder; base/plain/into-data:
    // a symbolic link to the bundle's data folder.
    void initTestCase() {
        base_ = fs::path(test::scratchDir("bundle_guard"));
        fs::create_directories(base_ / "outer" / "data");
        fs::create_directories(base_ / "foreign");
        fs::create_directories(base_ / "plain");
        std::ofstream(base_ / "outer" / "manifest.json")
            << R"({"format": "ppsynth-release", "format_version": 1})";
        std::ofstream(base_ / "outer" / "data" / "synthetic_01.csv") << "y\n1\n";
        std::ofstream(base_ / "foreign" / "manifest.json") << R"({"name": "a web app"})";
        fs::create_directory_symlink(base_ / "outer" / "data", base_ / "plain" / "into-data");
    }

    void releaseBundleAround_data() {
        QTest::addColumn<QString>("path");    // under the test's folder
        QTest::addColumn<QString>("bundle");  // likewise; empty: none
        QTest::newRow("the bundle itself") << "outer"
                                           << "outer";
        QTest::newRow("trailing separator") << "outer/"
                                            << "outer";
        QTest::newRow("a file in it") << "outer/report.html"
                                      << "outer";
        QTest::newRow("one of its files") << "outer/data/synthetic_01.csv"
                                          << "outer";
        QTest::newRow("its data folder") << "outer/data"
                                         << "outer";
        QTest::newRow("folders not yet made") << "outer/new/deeper/risks.csv"
                                              << "outer";
        QTest::newRow("'..' into it") << "plain/../outer/x.csv"
                                      << "outer";
        QTest::newRow("'..' out of it") << "outer/../plain/x.csv"
                                        << "";
        QTest::newRow("a link into it") << "plain/into-data/run"
                                        << "outer";
        QTest::newRow("another folder") << "plain/run"
                                        << "";
        QTest::newRow("another folder itself") << "plain"
                                               << "";
        QTest::newRow("a foreign manifest.json") << "foreign/report.html"
                                                 << "";
    }
    void releaseBundleAround() {
        QFETCH(QString, path);
        QFETCH(QString, bundle);
        const auto found = release::releaseBundleAround(base_ / path.toStdString());
        if (bundle.isEmpty()) {
            QVERIFY2(!found, found ? found->c_str() : "");
            return;
        }
        QVERIFY(found.has_value());
        QVERIFY2(found->is_absolute(), found->c_str());
        QVERIFY2(fs::equivalent(*found, base_ / bundle.toStdString()), found->c_str());
    }

    // A relative path is taken from the current folder.
    void relativePaths() {
        const QString before = QDir::currentPath();
        QVERIFY(QDir::setCurrent(QString::fromStdString((base_ / "outer" / "data").string())));
        const auto inside = release::releaseBundleAround("run");
        const auto above = release::releaseBundleAround("../../plain/run");
        QVERIFY(QDir::setCurrent(before));
        QVERIFY(inside.has_value());
        QVERIFY2(fs::equivalent(*inside, base_ / "outer"), inside->c_str());
        QVERIFY2(!above, above ? above->c_str() : "");
        QVERIFY(!release::releaseBundleAround(""));
    }

    // The message names the output and the bundle and says what to do; none outside bundles.
    void confidentialDestinationProblem() {
        const std::string why = release::confidentialDestinationProblem(
            base_ / "outer" / "run", "a run folder, with record-level weights");
        for (const std::string& part :
             {std::string("confidential output (a run folder, with record-level weights)"),
              "release bundle '" + (base_ / "outer").string() + "'", std::string("manifest.json"),
              std::string("Choose a folder outside it")})
            QVERIFY2(contains(why, part), why.c_str());
        QVERIFY(release::confidentialDestinationProblem(base_ / "plain" / "run", "x").empty());
        QVERIFY(release::confidentialDestinationProblem(base_ / "foreign" / "x", "x").empty());
    }

    // A bundle may replace a bundle, but not go inside one.
    void nestedBundleProblem() {
        QVERIFY(release::nestedBundleProblem(base_ / "outer").empty());
        QVERIFY(release::nestedBundleProblem((base_ / "outer").string() + "/").empty());
        QVERIFY(release::nestedBundleProblem(base_ / "plain" / "bundle").empty());
        QVERIFY(release::nestedBundleProblem(base_ / "foreign" / "bundle").empty());
        for (const fs::path& inner : {base_ / "outer" / "inner", base_ / "outer" / "data" / "new",
                                      base_ / "plain" / "into-data" / "bundle"}) {
            const std::string why = release::nestedBundleProblem(inner);
            QVERIFY2(contains(why, "is inside the release bundle '"), inner.c_str());
            QVERIFY2(contains(why, "Choose a folder outside it"), why.c_str());
        }
    }
};

QTEST_APPLESS_MAIN(TstBundleGuard)
#include "tst_bundle_guard.moc"

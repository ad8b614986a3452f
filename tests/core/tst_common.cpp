// core/src/common's small pieces shared by the areas: the list of names in messages,
// replacing an output folder (a run folder, a release bundle) without ever leaving a
// half-deleted one, which names may become file names, and the proof that a file written
// lies inside its destination.
#include <math.h>  // signgam

#include <QTest>
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>
#include <vector>

#include "common/replace_folder.hpp"
#include "ppsynth/common/atomic_file.hpp"
#include "ppsynth/common/log_gamma.hpp"
#include "ppsynth/common/moments.hpp"
#include "ppsynth/common/name_list.hpp"
#include "ppsynth/common/quantile.hpp"
#include "ppsynth/common/safe_name.hpp"
#include "ppsynth/mcmc/diagnostics.hpp"
#include "test_files.hpp"

using namespace ppsynth;
namespace fs = std::filesystem;

namespace {

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

// Everything in `dir` but `target`: temporaries or old folders left beside it.
std::vector<std::string> besides(const fs::path& dir, const fs::path& target) {
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(dir))
        if (e.path() != target) out.push_back(e.path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
}

}  // namespace

class TstCommon : public QObject {
    Q_OBJECT
  private slots:
    void quotedNames_data() {
        QTest::addColumn<QStringList>("names");
        QTest::addColumn<int>("shown");
        QTest::addColumn<QString>("expected");
        QTest::newRow("none") << QStringList{} << 3 << "";
        QTest::newRow("one") << QStringList{"run.json"} << 3 << "'run.json'";
        QTest::newRow("three, sorted") << QStringList{"c", "a/", "b"} << 3 << "'a/', 'b', 'c'";
        QTest::newRow("four") << QStringList{"d", "c", "b", "a"} << 3 << "'a', 'b', 'c' and 1 more";
        QTest::newRow("six") << QStringList{"f", "e", "d", "c", "b", "a"} << 3
                             << "'a', 'b', 'c' and 3 more";
        QTest::newRow("one shown") << QStringList{"b", "a"} << 1 << "'a' and 1 more";
        QTest::newRow("none shown names one") << QStringList{"b", "a"} << 0 << "'a' and 1 more";
    }
    void quotedNames() {
        QFETCH(QStringList, names);
        QFETCH(int, shown);
        QFETCH(QString, expected);
        std::vector<std::string> list;
        for (const auto& n : names) list.push_back(n.toStdString());
        QCOMPARE(QString::fromStdString(ppsynth::quotedNames(list, std::size_t(shown))), expected);
    }

    // Replacing a run folder with one rename or the deletion failing (injected): the target
    // always holds one whole folder, the old or the new, unless even moving the old one back
    // failed, and then the message says where it is. A failure to delete the old folder once
    // the new one is in is a warning naming where it was left.
    void replaceFolder_data() {
        QTest::addColumn<int>("failingRename");  // 0: none; 1: old aside, 2: new in, 3: old back
        QTest::addColumn<bool>("removeFails");
        QTest::addColumn<QString>("atTarget");  // "old", "new" or "" (nothing there)
        QTest::addColumn<QString>("said");      // in the error or the warning
        QTest::newRow("replaced") << 0 << false << "new"
                                  << "";
        QTest::newRow("old cannot move aside")
            << 1 << false << "old"
            << "could not replace '{target}': Permission denied; the existing run folder is "
               "unchanged";
        QTest::newRow("new cannot move in")
            << 2 << false << "old"
            << "could not move the new run folder into '{target}': Permission denied; the "
               "existing run folder is unchanged";
        QTest::newRow("new cannot move in, old cannot move back")
            << -2 << false << ""
            << "moving the existing run folder back failed too (Permission denied): it is now "
               "'{old}', rename that folder to 'run' to restore it";
        QTest::newRow("old cannot be deleted")
            << 0 << true << "new"
            << "the new run folder is in '{target}', but the run folder it replaced could not "
               "be deleted (Permission denied): it was left in '{old}'; remove that folder by "
               "hand";
    }
    void replaceFolder() {
        QFETCH(int, failingRename);
        QFETCH(bool, removeFails);
        QFETCH(QString, atTarget);
        QFETCH(QString, said);
        const fs::path dir = test::outputDir("tst_common_replace");
        for (const auto& e : fs::directory_iterator(dir)) fs::remove_all(e.path());
        const fs::path target = dir / "run", temp = dir / "run.partial-test";
        fs::create_directories(target / "synthetic");
        fs::create_directories(temp / "synthetic");
        std::ofstream(target / "run.json") << "old";
        std::ofstream(target / "synthetic" / "a.csv") << "old";
        std::ofstream(temp / "run.json") << "new";

        int calls = 0;
        fs::path old;
        const RenameFolder rename = [&](const fs::path& from, const fs::path& to,
                                        std::error_code& ec) {
            ++calls;
            if (calls == 1) old = to;
            // -2: the second rename and every one after it fail.
            if (calls == failingRename || (failingRename < 0 && calls >= -failingRename))
                ec = std::make_error_code(std::errc::permission_denied);
            else
                fs::rename(from, to, ec);
        };
        const RemoveFolder remove = [&](const fs::path& folder, std::error_code& ec) {
            if (removeFails)
                ec = std::make_error_code(std::errc::permission_denied);
            else
                fs::remove_all(folder, ec);
        };
        const auto replaced =
            ppsynth::replaceFolder(temp, target, true, "run folder", rename, remove);
        const std::string message = replaced.hasValue() ? *replaced : replaced.message();
        QCOMPARE(replaced.hasValue(), atTarget == QStringLiteral("new"));
        QVERIFY2(contains(old.filename().string(), "run.old-"), old.c_str());
        QString expected = said;
        expected.replace("{target}", QString::fromStdString(target.string()))
            .replace("{old}", QString::fromStdString(old.string()));
        QVERIFY2(contains(message, expected.toStdString()), message.c_str());
        if (said.isEmpty()) QVERIFY2(message.empty(), message.c_str());

        if (atTarget.isEmpty()) {
            QVERIFY(!fs::exists(target));
        } else {
            QCOMPARE(test::slurp(target / "run.json"), atTarget.toStdString());
            QCOMPARE(fs::exists(target / "synthetic" / "a.csv"), atTarget == "old");
        }
        // The old folder is whole wherever it is; the new one, when it did not move in, is
        // left to the caller (who removes its temporary folder).
        const fs::path oldNow = atTarget == "old" ? target : old;
        if (atTarget != "new" || removeFails) {
            QCOMPARE(test::slurp(oldNow / "run.json"), std::string("old"));
            QCOMPARE(test::slurp(oldNow / "synthetic" / "a.csv"), std::string("old"));
        }
        std::vector<std::string> left;
        if (atTarget != "new") left.push_back("run.partial-test");
        if (atTarget == "" || removeFails) left.push_back(old.filename().string());
        std::sort(left.begin(), left.end());
        QCOMPARE(besides(dir, target), left);
    }

    // Into a place where nothing was: one rename, and its failure said.
    void replaceFolderWhereNothingWas() {
        const fs::path dir = test::outputDir("tst_common_new");
        for (const auto& e : fs::directory_iterator(dir)) fs::remove_all(e.path());
        const fs::path target = dir / "run", temp = dir / "run.partial-test";
        fs::create_directories(temp);
        std::ofstream(temp / "run.json") << "new";
        const RenameFolder failing = [](const fs::path&, const fs::path&, std::error_code& ec) {
            ec = std::make_error_code(std::errc::no_space_on_device);
        };
        auto made = ppsynth::replaceFolder(temp, target, false, "run folder", failing);
        QVERIFY(!made.hasValue());
        QVERIFY2(contains(made.message(), "could not move the run folder into '" + target.string() +
                                              "': No space left on device"),
                 made.message().c_str());
        QVERIFY(!fs::exists(target));
        made = ppsynth::replaceFolder(temp, target, false, "run folder");
        QVERIFY(made.hasValue() && made->empty());
        QCOMPARE(test::slurp(target / "run.json"), std::string("new"));
        QVERIFY(!fs::exists(temp));
    }

    void safeNames_data() {
        QTest::addColumn<QByteArray>("name");
        QTest::addColumn<QString>("why");  // empty: accepted
        QTest::newRow("plain") << QByteArray("LW") << "";
        QTest::newRow("spaces and punctuation") << QByteArray("LW c=0.5, g=-0.1 (final)") << "";
        QTest::newRow("dot inside") << QByteArray("v1.2") << "";
        QTest::newRow("utf-8") << QByteArray("Gewichtet \xc3\xa4 \xe2\x82\xac") << "";
        QTest::newRow("100 bytes") << QByteArray(100, 'x') << "";
        QTest::newRow("101 bytes") << QByteArray(101, 'x') << "101 bytes long";
        QTest::newRow("empty") << QByteArray() << "empty";
        QTest::newRow("slash") << QByteArray("a/b") << "contains '/'";
        QTest::newRow("escape") << QByteArray("../../bundle/data/leak") << "starts with '.'";
        QTest::newRow("escape inside") << QByteArray("x/../../leak") << "contains '/'";
        QTest::newRow("backslash") << QByteArray("a\\b") << "contains '\\'";
        QTest::newRow("dot") << QByteArray(".") << "folder reference";
        QTest::newRow("dot dot") << QByteArray("..") << "folder reference";
        QTest::newRow("hidden") << QByteArray(".LW") << "starts with '.'";
        QTest::newRow("option-like") << QByteArray("-rf") << "starts with '-'";
        QTest::newRow("NUL") << QByteArray("a\0b", 3) << "NUL";
        QTest::newRow("newline") << QByteArray("a\nb") << "control character";
        QTest::newRow("tab") << QByteArray("a\tb") << "control character";
        QTest::newRow("DEL") << QByteArray("a\x7f") << "control character";
        QTest::newRow("C1 control") << QByteArray("a\xc2\x85") << "not valid UTF-8";
        QTest::newRow("broken utf-8") << QByteArray("a\xc3") << "not valid UTF-8";
        QTest::newRow("overlong slash") << QByteArray("a\xc0\xaf") << "not valid UTF-8";
        QTest::newRow("surrogate") << QByteArray("\xed\xa0\x80") << "not valid UTF-8";
    }

    void safeNames() {
        QFETCH(QByteArray, name);
        QFETCH(QString, why);
        const Status s = checkSafeName(std::string_view(name.constData(), name.size()));
        if (why.isEmpty()) {
            QVERIFY2(s.isOk(), s.message().c_str());
            return;
        }
        QVERIFY(!s.isOk());
        QVERIFY2(contains(s.message(), why.toStdString()), s.message().c_str());
        QVERIFY2(contains(s.message(), "at most 100 bytes"), s.message().c_str());  // the rule
        // The message itself carries no raw control byte.
        QVERIFY(std::none_of(s.message().begin(), s.message().end(),
                             [](char c) { return c == '\0' || c == '\n' || c == '\t'; }));
    }

    void pathInside_data() {
        QTest::addColumn<QString>("relative");
        QTest::addColumn<QString>("why");  // empty: inside
        QTest::newRow("file") << "run.json"
                              << "";
        QTest::newRow("below") << "synthetic/LW/synthetic_01.csv"
                               << "";
        QTest::newRow("not yet made") << "new/folder/file.csv"
                                      << "";
        QTest::newRow("up") << "../leak.csv"
                            << "'.' or '..'";
        QTest::newRow("up inside") << "confidential/../../leak.csv"
                                   << "'.' or '..'";
        QTest::newRow("dot") << "./run.json"
                             << "'.' or '..'";
        QTest::newRow("absolute") << "/tmp/leak.csv"
                                  << "not a path inside";
        QTest::newRow("empty") << ""
                               << "not a path inside";
        QTest::newRow("through a link out") << "outlink/leak.csv"
                                            << "outside the destination";
        QTest::newRow("through a link in") << "inlink/ok.csv"
                                           << "";
        QTest::newRow("file is a link") << "filelink.csv"
                                        << "a link is already there";
    }

    void pathInside() {
        QFETCH(QString, relative);
        QFETCH(QString, why);
        const fs::path base = test::outputDir("tst_common_inside");
        for (const auto& e : fs::directory_iterator(base)) fs::remove_all(e.path());
        const fs::path root = base / "dest", outside = base / "elsewhere";
        fs::create_directories(root / "synthetic" / "LW");
        fs::create_directories(outside);
        fs::create_directory_symlink(outside, root / "outlink");
        fs::create_directory_symlink(root / "synthetic", root / "inlink");
        fs::create_symlink(outside / "target.csv", root / "filelink.csv");
        const auto p = ppsynth::pathInside(root.string(), relative.toStdString());
        if (why.isEmpty()) {
            QVERIFY2(p.hasValue(), p ? "" : p.message().c_str());
            QVERIFY2(contains(*p, fs::canonical(root).string() + "/"), p->c_str());
            return;
        }
        QVERIFY(!p.hasValue());
        QVERIFY2(contains(p.message(), why.toStdString()), p.message().c_str());
        QVERIFY2(contains(p.message(), "refusing to write"), p.message().c_str());
    }

    // logGamma is std::lgamma's value bit for bit (so every seed gives the same bytes as
    // before), on a grid across the poles, the small arguments and the large ones.
    void logGammaMatchesStdLgamma() {
        std::vector<double> grid;
        for (int i = -4000; i <= 4000; ++i) grid.push_back(i / 137.0);  // negative, 0, poles
        for (double x = 1e-300; x < 1e300; x *= 1.37) grid.push_back(x);
        for (double x : {0.5, 1.0, 2.0, 3.0, 1e-8, 171.5, 2.5e305, -0.0, -1e-9, -170.5})
            grid.push_back(x);
        int mismatches = 0;
        for (double x : grid) {
            const double want = std::lgamma(x), got = logGamma(x);
            if (std::bit_cast<std::uint64_t>(want) != std::bit_cast<std::uint64_t>(got)) {
                if (mismatches++ < 5)
                    qWarning("x = %.17g: lgamma %.17g, logGamma %.17g", x, want, got);
            }
        }
        QCOMPARE(mismatches, 0);
    }

    // std::lgamma stores Gamma's sign in the global signgam: chains on several threads
    // computing it wrote one variable at the same time. logGamma writes nothing global.
    void logGammaLeavesSigngamAlone() {
        signgam = 5;
        (void)std::lgamma(-0.5);  // Gamma(-0.5) < 0: the standard function writes -1
        QCOMPARE(signgam, -1);
        signgam = 5;
        for (double x : {-0.5, -2.5, 0.5, 3.0}) QVERIFY(std::isfinite(logGamma(x)));
        QCOMPARE(signgam, 5);
    }

    // The one mean/variance/quantile module gives, bit for bit, what the copies it replaced
    // gave (their formulas are written out here): the loop order for mean and variance, Eigen's
    // reductions for vectorMean and vectorVariance, type 7 for mcmc::quantileOfSorted.
    void momentsMatchTheFormerCopies_data() {
        QTest::addColumn<int>("n");
        QTest::addColumn<double>("scale");
        for (int n : {1, 2, 3, 7, 64, 1001})
            for (double scale : {1.0, 1e-3, 4.2e6})
                QTest::newRow((std::to_string(n) + " x " + std::to_string(scale)).c_str())
                    << n << scale;
    }
    void momentsMatchTheFormerCopies() {
        QFETCH(int, n);
        QFETCH(double, scale);
        std::vector<double> v;
        std::uint64_t state = 88172645463325252ULL + static_cast<std::uint64_t>(n);
        for (int i = 0; i < n; ++i) {  // xorshift: values of both signs and many magnitudes
            state ^= state << 13, state ^= state >> 7, state ^= state << 17;
            v.push_back(scale * (static_cast<double>(state % 200001) / 1000.0 - 100.0));
        }
        const auto same = [](double a, double b) {
            return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b);
        };
        double sum = 0;
        for (double x : v) sum += x;
        const double loopMean = sum / static_cast<double>(v.size());
        double ss = 0;
        for (double x : v) ss += (x - loopMean) * (x - loopMean);
        const double loopVar = v.size() < 2 ? 0.0 : ss / static_cast<double>(v.size() - 1);
        QVERIFY(same(mean(v), loopMean));
        QVERIFY(same(variance(v), loopVar));
        QVERIFY(same(standardDeviation(v), std::sqrt(loopVar)));

        const Eigen::Map<const Eigen::VectorXd> e(v.data(), static_cast<Eigen::Index>(v.size()));
        const Eigen::VectorXd copy = e;
        QVERIFY(same(vectorMean(copy), copy.mean()));
        QVERIFY(same(vectorMean(e), copy.mean()));
        if (n >= 2) {
            const double eigenVar =
                (copy.array() - copy.mean()).square().sum() / static_cast<double>(copy.size() - 1);
            QVERIFY(same(vectorVariance(copy), eigenVar));
            QVERIFY(same(vectorVariance(e), eigenVar));
        } else {
            QVERIFY(std::isnan(vectorVariance(copy)));
        }

        Eigen::VectorXd sorted = copy;
        std::sort(sorted.data(), sorted.data() + sorted.size());
        for (double p : {0.0, 0.05, 0.25, 0.5, 0.75, 0.95, 1.0}) {
            const double h = (static_cast<double>(n) - 1) * p;
            const auto lo = static_cast<Eigen::Index>(std::floor(h));
            const Eigen::Index hi = std::min<Eigen::Index>(lo + 1, n - 1);
            const double former =
                sorted[lo] + (h - static_cast<double>(lo)) * (sorted[hi] - sorted[lo]);
            QVERIFY2(same(mcmc::quantileOfSorted(sorted, p), former), std::to_string(p).c_str());
            QVERIFY(same(mcmc::quantile(copy, p), former));
        }
    }
};

QTEST_MAIN(TstCommon)
#include "tst_common.moc"

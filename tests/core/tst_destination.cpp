// Destinations checked before the work (checkWritableDestination) and what a killed ppsynth
// leaves beside them (findLeftovers, findLeftoversIn, removeLeftover): names and contents.
#include <unistd.h>

#include <QTest>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "ppsynth/common/atomic_file.hpp"
#include "ppsynth/common/destination.hpp"
#include "ppsynth/common/leftovers.hpp"
#include "test_files.hpp"

using namespace ppsynth;
namespace fs = std::filesystem;

namespace {

fs::path freshDir(const std::string& name) {
    return test::freshDir("tst_destination", name);
}

void writeFile(const fs::path& p, const std::string& text = "x\n") {
    fs::create_directories(p.parent_path());
    std::ofstream(p) << text;
}

// What a run killed while writing its folder leaves: run.json, synthetic/, confidential/.
void makePartialRun(const fs::path& p) {
    writeFile(p / "run.json", "{}\n");
    writeFile(p / "synthetic" / "LW" / "synthetic_01.csv", "y\n1\n");
    writeFile(p / "confidential" / "LW_records.csv", "row,y\n1,31000.25\n");
}

std::vector<std::string> entries(const fs::path& dir) {
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(dir)) out.push_back(e.path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
}

std::vector<std::string> paths(const std::vector<Leftover>& v) {
    std::vector<std::string> out;
    for (const auto& l : v) out.push_back(l.path);
    return out;
}

// A folder nobody may create entries in: read-only permissions, or for root (whom they do not
// stop) the immutable attribute. False when neither works here.
bool makeUnwritable(const fs::path& dir) {
    if (::geteuid() == 0)
        return std::system(("chattr +i '" + dir.string() + "' 2>/dev/null").c_str()) == 0;
    std::error_code ec;
    fs::permissions(dir, fs::perms::owner_read | fs::perms::owner_exec, ec);
    return !ec;
}

void makeWritable(const fs::path& dir) {
    if (::geteuid() == 0) {
        [[maybe_unused]] const int rc =
            std::system(("chattr -i '" + dir.string() + "' 2>/dev/null").c_str());
        return;
    }
    std::error_code ec;
    fs::permissions(dir, fs::perms::owner_all, ec);
}

}  // namespace

class TstDestination : public QObject {
    Q_OBJECT
  private slots:
    // Nothing is created by the check (neither the destination, nor the folders above it,
    // nor a probe left behind); what cannot be written is said with the path and why.
    void writableDestination_data() {
        QTest::addColumn<QString>(
            "relative");  // under the test's folder; absolute if it starts '/'
        QTest::addColumn<int>("use");
        QTest::addColumn<QString>("error");  // empty: writable; %1 is the test's folder
        const int replaced = int(DestinationUse::Replaced), filled = int(DestinationUse::Filled);
        QTest::newRow("new folder") << "out" << replaced << "";
        QTest::newRow("trailing slash") << "out/" << replaced << "";
        QTest::newRow("folders above made later") << "a/b/out" << filled << "";
        QTest::newRow("existing folder filled") << "existing" << filled << "";
        QTest::newRow("existing folder replaced") << "existing" << replaced << "";
        QTest::newRow("under a file")
            << "notes.txt/out" << replaced << "'%1/notes.txt' is a file, not a folder";
        QTest::newRow("deep under a file")
            << "notes.txt/a/b/out" << filled << "'%1/notes.txt' is a file, not a folder";
        QTest::newRow("a file filled")
            << "notes.txt" << filled << "'%1/notes.txt' is a file, not a folder";
        QTest::newRow("/proc") << "/proc/ppsynth-out" << replaced
                               << "nothing can be made in '/proc'";
        QTest::newRow("/proc/self")
            << "/proc/self/x" << replaced << "nothing can be made in '/proc/self'";
        QTest::newRow("no permission")
            << "locked/out" << replaced << "permission denied in '%1/locked'";
        QTest::newRow("no permission inside")
            << "locked" << filled << "permission denied in '%1/locked'";
    }
    void writableDestination() {
        QFETCH(QString, relative);
        QFETCH(int, use);
        QFETCH(QString, error);
        const fs::path dir = freshDir("writable");
        fs::create_directories(dir / "existing");
        fs::create_directories(dir / "locked");
        writeFile(dir / "notes.txt");
        const bool locked = relative.startsWith("locked");
        if (locked && !makeUnwritable(dir / "locked"))
            QSKIP("cannot make a folder unwritable here");
        const std::string path = relative.startsWith('/')
                                     ? relative.toStdString()
                                     : (dir.string() + "/" + relative.toStdString());
        const Status s = checkWritableDestination(path, DestinationUse(use));
        if (locked) makeWritable(dir / "locked");
        const std::vector<std::string> before{"existing", "locked", "notes.txt"};
        QCOMPARE(entries(dir), before);
        QVERIFY(fs::is_empty(dir / "existing") && fs::is_empty(dir / "locked"));
        if (error.isEmpty()) {
            QVERIFY2(s.isOk(), s.message().c_str());
            return;
        }
        QVERIFY(!s.isOk());
        const std::string expected = error.arg(QString::fromStdString(dir.string())).toStdString();
        QVERIFY2(s.message().rfind("cannot write '" + path + "': ", 0) == 0, s.message().c_str());
        QVERIFY2(s.message().find(expected) != std::string::npos, s.message().c_str());
        QVERIFY2(s.message().find("choose a destination you can write to") != std::string::npos,
                 s.message().c_str());
    }

    // Beside "out": a killed run's folder, bundle and files are found by name and content
    // (whatever else is there is not), each with its process; removing takes it away.
    void leftoversBesideADestination() {
        const fs::path dir = freshDir("beside");
        const fs::path out = dir / "out";
        makePartialRun(dir / "out.partial-999999");
        writeFile(dir / "out.tmp-999998-0" / "data" / "LW_1.csv");
        writeFile(dir / "out.tmp-999998-0" / "manifest.json", "{}");
        // Not ppsynth's, or not out's: a partial holding someone's notes, a link, another
        // destination's partial, a file whose name only looks like one.
        makePartialRun(dir / "out.partial-999997");
        writeFile(dir / "out.partial-999997" / "notes.txt");
        fs::create_directory_symlink(dir / "out.partial-999999", dir / "out.partial-999996");
        makePartialRun(dir / "other.partial-999999");
        writeFile(dir / "out.partial-12x");
        writeFile(dir / "out.tmp-999999-1", "no extension: not a file ppsynth writes\n");

        auto found = findLeftovers(out.string());
        QCOMPARE(paths(found), (std::vector<std::string>{(dir / "out.partial-999999").string(),
                                                         (dir / "out.tmp-999998-0").string()}));
        QCOMPARE(found[0].what, std::string("an unfinished run folder"));
        QCOMPARE(found[0].pid, 999999L);
        QVERIFY(found[0].state == Leftover::State::Removable);
        QCOMPARE(describeLeftover(found[0]),
                 "'" + (dir / "out.partial-999999").string() +
                     "' (an unfinished run folder of process 999999, which is no longer running)");
        QCOMPARE(found[1].what, std::string("an unfinished release bundle"));

        // The destination given as typed: the paths say it the same way.
        const fs::path cwd = fs::current_path();
        fs::current_path(dir);
        const auto relative = findLeftovers("out/");
        fs::current_path(cwd);
        QCOMPARE(paths(relative),
                 (std::vector<std::string>{"out.partial-999999", "out.tmp-999998-0"}));

        for (const auto& l : found) QVERIFY2(removeLeftover(l).isOk(), l.path.c_str());
        QCOMPARE(entries(dir), (std::vector<std::string>{"other.partial-999999", "out.partial-12x",
                                                         "out.partial-999996", "out.partial-999997",
                                                         "out.tmp-999999-1"}));
        QVERIFY(findLeftovers(out.string()).empty());
        // In a folder, every destination's leftovers.
        QCOMPARE(paths(findLeftoversIn(dir.string())),
                 std::vector<std::string>{(dir / "other.partial-999999").string()});
    }

    // One a running process may be writing (this one, or another alive) is left alone, and
    // so is an earlier folder moved aside whose replacement never arrived (the only copy).
    void leftoversInUseOrOnlyCopyStay() {
        const fs::path dir = freshDir("stay");
        const fs::path out = dir / "out";
        makePartialRun(dir / ("out.partial-" + std::to_string(::getpid())));
        makePartialRun(dir / "out.partial-1");  // init: alive for as long as the system is
        writeFile(dir / "out.old-999999-0" / "run.json", "{}\n");
        auto found = findLeftovers(out.string());
        QCOMPARE(found.size(), std::size_t(3));
        for (const auto& l : found) {
            QVERIFY2(l.state != Leftover::State::Removable, l.path.c_str());
            QVERIFY(!removeLeftover(l).isOk());
            QVERIFY(fs::exists(l.path));
        }
        const auto& old = found[0].path.find(".old-") != std::string::npos ? found[0] : found[2];
        QVERIFY(old.state == Leftover::State::OnlyCopy);
        QVERIFY2(
            describeLeftover(old).find("rename it to 'out' to restore it") != std::string::npos,
            describeLeftover(old).c_str());
        // Once a new folder is in place, the earlier one moved aside is only in the way.
        fs::create_directory(out);
        for (const auto& l : findLeftovers(out.string()))
            if (l.path.find(".old-") != std::string::npos)
                QVERIFY(l.state == Leftover::State::Removable);
    }

    // A sweep or simulation folder is filled in place: a file being written when the study
    // was killed is inside it, or inside items/.
    void leftoversInsideAStudyFolder() {
        const fs::path dir = freshDir("study");
        const fs::path out = dir / "sweep";
        writeFile(out / "config.json", "{}\n");
        writeFile(out / "items" / "point_3.json.tmp-999999-4", "{\"ir\":");
        writeFile(out / "sweep.csv.tmp-999999-5", "point,c\n");
        writeFile(out / "items" / "point_2.json", "{}\n");
        QCOMPARE(paths(findLeftovers(out.string())),
                 (std::vector<std::string>{(out / "items" / "point_3.json.tmp-999999-4").string(),
                                           (out / "sweep.csv.tmp-999999-5").string()}));
        // A folder that is no study: nothing inside is looked at.
        fs::remove(out / "config.json");
        QVERIFY(findLeftovers(out.string()).empty());
    }

    // Temporaries name their machine (a study folder on a cluster's shared disk): one of this
    // machine whose process is gone is removable, another machine's is left alone, since
    // nobody here can tell whether its process still runs.
    void temporariesOfAnotherMachineStay() {
        const fs::path dir = freshDir("hosts");
        const fs::path out = dir / "sweep";
        writeFile(out / "config.json", "{}\n");
        const std::string here =
            out.string() + "/items/point_1.json.tmp-" + hostTag() + "-999999-1";
        const std::string there = out.string() + "/items/point_2.json.tmp-node-17.cluster-999999-2";
        writeFile(here, "{");
        writeFile(there, "{");
        const auto found = findLeftovers(out.string());
        QCOMPARE(paths(found), (std::vector<std::string>{here, there}));
        QVERIFY(found[0].state == Leftover::State::Removable);
        QVERIFY(found[1].state == Leftover::State::InUse);
        QVERIFY2(describeLeftover(found[1]).find("on the machine 'node-17.cluster'") !=
                     std::string::npos,
                 describeLeftover(found[1]).c_str());
    }
};

QTEST_MAIN(TstDestination)
#include "tst_destination.moc"

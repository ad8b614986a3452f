// Drives the real main window offscreen: a table built in code, roles and types changed
// through the combo boxes, a million-row table scrolled to its end, read errors shown in
// the message strip, and screenshots saved for a person to look at.
#include <readstat.h>

#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPainter>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollBar>
#include <QSemaphore>
#include <QSettings>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QThreadPool>
#include <QTimer>
#include <QUrl>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "../core/run_fixture.hpp"
#include "../core/run_maker.hpp"
#include "ppsynth/data/table.hpp"
#include "ppsynth/study/run_data.hpp"
#include "ppsynth/study/run_output.hpp"
#include "ppsynth/study/simulate.hpp"
#include "ppsynth/study/sweep.hpp"
#include "test_output.hpp"
#include "ui/column_panel.hpp"
#include "ui/csv_options_dialog.hpp"
#include "ui/data_page.hpp"
#include "ui/export/export_dialog.hpp"
#include "ui/main_window.hpp"
#include "ui/message_area.hpp"
#include "ui/project_file.hpp"
#include "ui/results/results_page.hpp"
#include "ui/results/studies_page.hpp"
#include "ui/run/run_list.hpp"
#include "ui/run/run_panel.hpp"
#include "ui/setup/model_page.hpp"
#include "ui/setup/synthesizers_page.hpp"
#include "ui/setup/weight_preview_panel.hpp"
#include "ui/shell/job_board.hpp"
#include "ui/shell/page_settings.hpp"
#include "ui/shell/project_controller.hpp"
#include "ui/shell/report_controller.hpp"
#include "ui/shell/run_library.hpp"
#include "ui/shell/study_controller.hpp"
#include "ui/stat_options_dialog.hpp"
#include "ui/table_model.hpp"

// Printable roles for QCOMPARE (found by ADL). ColumnType already has a toString
// (returning string_view) that hides any other, so its checks use QVERIFY.
namespace ppsynth::data {
char* toString(Role r) {
    return QTest::toString(int(r));
}
}  // namespace ppsynth::data

using namespace ppsynth;
using data::Column;
using data::ColumnType;
using data::Level;

using ppsynth::testing::outputDir;

namespace {

enum Col {
    Id,
    Age,
    Sex,
    Region,
    Education,
    Income,
    Hours,
    Score,
    Employed,
    Children,
    Note,
    Weight
};

std::vector<Level> levels(std::initializer_list<const char*> labels) {
    std::vector<Level> out;
    int i = 1;
    for (const char* l : labels) out.push_back({std::to_string(i++), l});
    return out;
}

// A census-like table from closed-form columns (no randomness needed): 12 columns of
// every type, income missing on every 17th row.
data::Table makeTable(std::size_t n) {
    std::vector<double> id(n), age(n), income(n), hours(n), score(n), children(n), weight(n);
    std::vector<std::int32_t> sex(n), region(n), edu(n), employed(n);
    std::vector<std::uint8_t> incomeMissing(n);
    std::vector<std::string> note(n);
    for (std::size_t i = 0; i < n; ++i) {
        const auto k = static_cast<std::int32_t>(i);
        id[i] = double(i + 1);
        age[i] = double(18 + (i * 7) % 70);
        sex[i] = k % 2;
        region[i] = (k / 3) % 5;
        edu[i] = (k * 5 / 7) % 4;
        incomeMissing[i] = i % 17 == 5 ? 1 : 0;
        income[i] = incomeMissing[i] ? std::numeric_limits<double>::quiet_NaN()
                                     : 1000.0 + double((i * 37) % 5000);
        hours[i] = double((i * 3) % 60);
        score[i] = double(i % 100) / 4.0;  // quarters: not whole numbers
        employed[i] = (k % 3) == 0 ? 0 : 1;
        children[i] = double(i % 4);
        note[i] = i % 50 == 0 ? "checked" : "";
        weight[i] = 1.0 + double(i % 10) / 8.0;
    }
    data::Table t;
    auto add = [&t](Column c) { QVERIFY(t.addColumn(std::move(c)).isOk()); };
    add(Column::numeric("id", id));
    add(Column::count("age", age));
    add(Column::categorical("sex", sex, levels({"female", "male"})));
    add(Column::categorical("region", region,
                            levels({"North", "East", "South", "West", "Centre"})));
    add(Column::categorical("education", edu,
                            levels({"primary", "secondary", "vocational", "tertiary"})));
    add(Column::numeric("income", income, incomeMissing));
    add(Column::count("hours", hours));
    add(Column::numeric("score", score));
    add(Column::categorical("employed", employed, levels({"no", "yes"})));
    add(Column::count("children", children));
    add(Column::text("note", note));
    add(Column::numeric("weight", weight));
    return t;
}

// A run folder made as `ppsynth-cli run` makes one (the run fixture: a labelled SPSS file,
// six synthesizers on the conjugate Poisson model, well under a second); returns its path.
// A seed other than 0 replaces the fixture's, so runs can be told apart.
QString makeRunFolder(const QString& base, std::uint64_t seed = 0) {
    const std::filesystem::path dir(base.toStdString());
    const auto out = dir / "run";
    fixture::writeRun(fixture::runConfig(fixture::writeInputs(dir / "inputs"), seed), out);
    return QString::fromStdString(out.string());
}

// A run folder of `rows` records (the large fixture: one unweighted synthesizer, m = 3), so
// its report draws every chart from tens of thousands of points.
QString makeLargeRunFolder(const QString& base, std::size_t rows) {
    const std::filesystem::path dir(base.toStdString());
    const auto out = dir / "run";
    fixture::writeRun(fixture::runConfig(fixture::writeLargeInputs(dir / "inputs", rows, 3)), out);
    return QString::fromStdString(out.string());
}

// Counts the ticks of a 10 ms timer and the longest interval between two: how long the
// event loop went without turning.
class TickProbe : public QObject {
  public:
    TickProbe() {
        timer_.setInterval(10);
        timer_.setTimerType(Qt::PreciseTimer);
        connect(&timer_, &QTimer::timeout, this, &TickProbe::tick);
    }
    void start() {
        clock_.start();
        last_ = 0;
        timer_.start();
    }
    void stop() {
        timer_.stop();
        longest_ = std::max(longest_, clock_.elapsed() - last_);
    }
    int ticks() const { return ticks_; }
    qint64 longestGapMs() const { return longest_; }
    qint64 elapsedMs() const { return clock_.elapsed(); }

  private:
    void tick() {
        const qint64 now = clock_.elapsed();
        longest_ = std::max(longest_, now - last_);
        last_ = now;
        ++ticks_;
    }
    QTimer timer_;
    QElapsedTimer clock_;
    qint64 last_ = 0;
    qint64 longest_ = 0;
    int ticks_ = 0;
};

// A project on makeRunFolder's inputs under `base` (data.sav, the fixture's configuration)
// listing `runs` (a folder may repeat); returns the project file's path.
// `edit` may change the configuration first.
QString writeProject(const QString& base, const QString& name, const QStringList& runs,
                     const std::function<void(study::RunConfig&)>& edit = {}) {
    const QDir dir(base);
    auto c = study::loadRunConfig(dir.filePath(QStringLiteral("inputs/config.json")).toStdString());
    if (!c) qFatal("%s", c.message().c_str());
    if (edit) edit(*c);
    ui::Project p;
    p.dataPath = dir.filePath(QStringLiteral("inputs/data.sav"));
    p.config = *c;
    for (const QString& folder : runs)
        p.runs.push_back({folder, QStringLiteral("Run of %1").arg(name), QString()});
    const QString file = dir.filePath(name + QStringLiteral(".ppsynth"));
    if (auto s = ui::saveProject(p, file); !s) qFatal("%s", s.message().c_str());
    return file;
}

// Projects "a" and "b" on their own inputs under `baseA` and `baseB`, b's data file then moved
// away so that b does not open; returns both project files.
std::pair<QString, QString> projectAndUnopenable(const QString& baseA, const QString& baseB) {
    fixture::writeInputs(std::filesystem::path(baseA.toStdString()) / "inputs");
    fixture::writeInputs(std::filesystem::path(baseB.toStdString()) / "inputs");
    const QString fileA = writeProject(baseA, QStringLiteral("a"), {});
    const QString fileB = writeProject(baseB, QStringLiteral("b"), {});
    if (!QFile::remove(QDir(baseB).filePath(QStringLiteral("inputs/data.sav"))))
        qFatal("could not move b's data file away");
    return {fileA, fileB};
}

// An SPSS file as older programs wrote them: Windows-1252 text in a file that declares
// UTF-8. Its value labels of g are "café" and "naïve €"; y is numeric.
void writeCp1252Sav(const QString& path) {
    std::FILE* f = std::fopen(QFile::encodeName(path).constData(), "wb");
    QVERIFY(f);
    readstat_writer_t* w = readstat_writer_init();
    readstat_set_data_writer(w, [](const void* data, size_t n, void* ctx) {
        return static_cast<ssize_t>(std::fwrite(data, 1, n, static_cast<std::FILE*>(ctx)));
    });
    readstat_label_set_t* labels = readstat_add_label_set(w, READSTAT_TYPE_DOUBLE, "l");
    readstat_label_double_value(labels, 1, "caf\xe9");
    readstat_label_double_value(labels, 2, "na\xefve \x80");
    readstat_variable_t* g = readstat_add_variable(w, "g", READSTAT_TYPE_DOUBLE, 0);
    readstat_variable_set_label_set(g, labels);
    readstat_variable_t* y = readstat_add_variable(w, "y", READSTAT_TYPE_DOUBLE, 0);
    const int rows = 6;
    QCOMPARE(readstat_begin_writing_sav(w, f, rows), READSTAT_OK);
    for (int r = 0; r < rows; ++r) {
        QCOMPARE(readstat_begin_row(w), READSTAT_OK);
        QCOMPARE(readstat_insert_double_value(w, g, r % 2 + 1), READSTAT_OK);
        QCOMPARE(readstat_insert_double_value(w, y, 1.5 * r), READSTAT_OK);
        QCOMPARE(readstat_end_row(w), READSTAT_OK);
    }
    QCOMPARE(readstat_end_writing(w), READSTAT_OK);
    readstat_writer_free(w);
    std::fclose(f);
}

QByteArray fileBytes(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

bool writeBytes(const QString& path, const QByteArray& bytes) {
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

// A finished run that exists only in memory (not saved to a folder).
ui::RunRecord unsavedRun(std::shared_ptr<const data::Table> table = nullptr,
                         Eigen::Index bounds = 0) {
    auto result = std::make_shared<study::RunResult>();
    result->f = Eigen::VectorXd::Ones(bounds);
    ui::RunRecord r;
    r.result = result;
    r.table = std::move(table);
    return r;
}

// The up-front question for SPSS/Stata/SAS files answered with what is chosen already (the
// file's own encoding unless something else was): the person clicks Read.
std::optional<data::StatOptions> keepStatOptions(const QString&, const data::StatOptions& o) {
    return o;
}

bool waitForJob(ui::JobRunnerBase* job) {
    if (!job->isRunning()) return true;
    QSignalSpy spy(job, &ui::JobRunnerBase::finished);
    return spy.wait(120000);
}

// Opens a large run folder made under `base`/large in `w`, shown, and selects it.
bool openLargeRun(ui::MainWindow& w, const QString& base) {
    const QString dir = makeLargeRunFolder(QDir(base).filePath(QStringLiteral("large")), 60000);
    w.show();
    if (!QTest::qWaitForWindowExposed(&w) || !w.runs()->openRunFolder(dir) ||
        !waitForJob(w.runs()->openRunJob()))
        return false;
    return w.runs()->currentRun() != nullptr;
}

// Makes a run folder under `base` and adds it to `w` twice, as two unsaved runs (the save
// tests: the second run's write is where they fail or cancel).
bool addTwoUnsavedRuns(ui::MainWindow& w, const QString& base) {
    auto loaded = study::loadRunFolder(makeRunFolder(base).toStdString());
    if (!loaded) return false;
    w.project()->setTable(loaded->table, QString::fromStdString(loaded->dataPath));
    for (int i = 0; i < 2; ++i) {
        ui::RunRecord r;
        r.result = std::make_shared<const study::RunResult>(loaded->run);
        r.table = w.dataPage()->model()->table();
        w.runPanel()->runList()->add(std::move(r));
    }
    return true;
}

QString cell(const ui::TableModel* m, int row, int col, int role = Qt::DisplayRole) {
    return m->data(m->index(row, col), role).toString();
}

}  // namespace

class TstMainWindow : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() {
        QApplication::setFont(QFont(QStringLiteral("DejaVu Sans"), 10));
        QApplication::setApplicationName(QStringLiteral("ppsynth-test"));
        QApplication::setOrganizationName(QStringLiteral("ppsynth-test"));
        // Keep recent files out of the person's real settings.
        QSettings::setDefaultFormat(QSettings::IniFormat);
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope,
                           outputDir(QStringLiteral("settings")));
        QSettings().clear();
    }

    void modelShowsTableCells() {
        ui::MainWindow w;
        w.project()->setTable(makeTable(6208), QStringLiteral("census.csv"));
        const auto* m = w.dataPage()->model();
        QCOMPARE(m->rowCount(), 6208);
        QCOMPARE(m->columnCount(), 12);
        QCOMPARE(cell(m, 0, Id), QStringLiteral("1"));
        QCOMPARE(cell(m, 6207, Id), QStringLiteral("6208"));
        QCOMPARE(cell(m, 1, Age), QStringLiteral("25"));                // 18 + 7
        QCOMPARE(cell(m, 4, Region), QStringLiteral("East"));           // (4/3)%5 = 1
        QCOMPARE(cell(m, 3, Education), QStringLiteral("vocational"));  // 15/7 % 4 = 2
        QCOMPARE(cell(m, 2, Score), QStringLiteral("0.5"));
        QCOMPARE(cell(m, 0, Income), QStringLiteral("1000"));
        // Missing: shown as NA, greyed, with a tooltip; text cells stay empty strings.
        QCOMPARE(cell(m, 5, Income), QStringLiteral("NA"));
        QCOMPARE(cell(m, 5, Income, Qt::ToolTipRole), QStringLiteral("missing value"));
        QVERIFY(m->data(m->index(5, Income), Qt::ForegroundRole).isValid());
        QVERIFY(!m->data(m->index(4, Income), Qt::ForegroundRole).isValid());
        QCOMPARE(cell(m, 1, Note), QString());
        QCOMPARE(m->headerData(Income, Qt::Horizontal).toString(),
                 QStringLiteral("income\nnumeric"));
        QCOMPARE(m->headerData(Sex, Qt::Horizontal).toString(), QStringLiteral("sex\ncategorical"));
        QCOMPARE(m->headerData(0, Qt::Vertical).toInt(), 1);
        // rows 5, 22, ..., 6193: (6207 - 5) / 17 + 1 = 365
        QCOMPARE(m->headerData(Income, Qt::Horizontal, Qt::ToolTipRole).toString(),
                 QStringLiteral("income: numeric, 365 missing"));
        QCOMPARE(w.dataPage()->columnPanel()->role(Income), data::Role::Ignored);
    }

    void roleChangesThroughCombo() {
        ui::MainWindow w;
        w.project()->setTable(makeTable(6208), QStringLiteral("census.csv"));
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto* panel = w.dataPage()->columnPanel();
        QSignalSpy changed(panel, &ui::ColumnPanel::rolesChanged);
        // Ignored -> Sensitive y (the last choice) by keyboard, as a person would.
        QTest::keyClick(panel->roleCombo(Income), Qt::Key_End);
        QCOMPARE(panel->role(Income), data::Role::Target);
        QCOMPARE(changed.size(), 1);
        // Region: down twice -> Known variable; Age: down once -> Predictor.
        QTest::keyClick(panel->roleCombo(Region), Qt::Key_Down);
        QTest::keyClick(panel->roleCombo(Region), Qt::Key_Down);
        QTest::keyClick(panel->roleCombo(Age), Qt::Key_Down);
        QCOMPARE(panel->role(Income), data::Role::Target);  // stepping past roles kept it
        auto roles = panel->roles();
        QCOMPARE(roles.target, std::string("income"));
        QCOMPARE(roles.known, std::vector<std::string>{"region"});
        QCOMPARE(roles.predictors, (std::vector<std::string>{"age", "region"}));
        // A second sensitive y joins the first and is synthesized after it (METHOD.md
        // section 9); the first stays sensitive.
        QTest::keyClick(panel->roleCombo(Hours), Qt::Key_End);
        QCOMPARE(panel->role(Hours), data::Role::Target);
        QCOMPARE(panel->role(Income), data::Role::Target);
        QCOMPARE(panel->roles().target, std::string("income"));
        QCOMPARE(panel->targets(), (std::vector<std::string>{"income", "hours"}));
        QVERIFY2(panel->rolesSummary().contains(
                     QStringLiteral("Sensitive y: income, then hours (synthesized in this order)")),
                 qPrintable(panel->rolesSummary()));
        // Ignored again: one sensitive y.
        QTest::keyClick(panel->roleCombo(Income), Qt::Key_Home);
        QCOMPARE(panel->role(Income), data::Role::Ignored);
        QCOMPARE(panel->roles().target, std::string("hours"));
        QVERIFY(panel->rolesSummary().contains(QStringLiteral("Sensitive y: hours")));
    }

    void typeChangeConvertsColumn() {
        ui::MainWindow w;
        w.project()->setTable(makeTable(6208), QStringLiteral("census.csv"));
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto* panel = w.dataPage()->columnPanel();
        const auto* m = w.dataPage()->model();
        // age: count -> numeric (one up).
        QCOMPARE(panel->typeCombo(Age)->currentText(), QStringLiteral("count"));
        QTest::keyClick(panel->typeCombo(Age), Qt::Key_Up);
        QVERIFY(m->table()->column(Age).type() == ColumnType::Numeric);
        QCOMPARE(m->headerData(Age, Qt::Horizontal).toString(), QStringLiteral("age\nnumeric"));
        QCOMPARE(panel->message(Age), QString());
        // children: count -> categorical (one down): one level per distinct value.
        QTest::keyClick(panel->typeCombo(Children), Qt::Key_Down);
        QVERIFY(m->table()->column(Children).type() == ColumnType::Categorical);
        QCOMPARE(m->table()->column(Children).levels().size(), std::size_t{4});
        QCOMPARE(cell(m, 3, Children), QStringLiteral("3"));
    }

    void invalidTypeChangeShowsMessageBesideColumn_data() {
        QTest::addColumn<int>("column");
        QTest::addColumn<int>("key");
        QTest::addColumn<QString>("expected");
        // score holds quarters: not counts. note holds words: not numbers.
        QTest::newRow("score to count") << int(Score) << int(Qt::Key_Down)
                                        << QStringLiteral(
                                               "column 'score' cannot be count: row 2: 0.25 is not "
                                               "a non-negative whole number");
        QTest::newRow("note to categorical?")
            << int(Note) << int(Qt::Key_Home)
            << QStringLiteral("column 'note' cannot be numeric: row 1: 'checked' is not a number");
    }
    void invalidTypeChangeShowsMessageBesideColumn() {
        QFETCH(int, column);
        QFETCH(int, key);
        QFETCH(QString, expected);
        ui::MainWindow w;
        w.project()->setTable(makeTable(6208), QStringLiteral("census.csv"));
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto* panel = w.dataPage()->columnPanel();
        const auto before = w.dataPage()->model()->table()->column(std::size_t(column));
        const QString typeBefore = panel->typeCombo(column)->currentText();
        QTest::keyClick(panel->typeCombo(column), Qt::Key(key));
        QCOMPARE(panel->message(column), expected);
        QVERIFY(w.dataPage()->model()->table()->column(std::size_t(column)) ==
                before);                                                // unchanged
        QCOMPARE(panel->typeCombo(column)->currentText(), typeBefore);  // combo reverted
        QCOMPARE(panel->typeCombo(column)->toolTip(), expected);
        // The message sits in the column's row of the panel, visible, not in a modal box.
        auto labels = panel->findChildren<QLabel*>();
        bool shown = false;
        for (auto* l : labels) shown = shown || (l->text() == expected && l->isVisible());
        QVERIFY(shown);
        QVERIFY(QApplication::activeModalWidget() == nullptr);
        // A later valid change clears it.
        if (column == Score) {
            QTest::keyClick(panel->typeCombo(column),
                            Qt::Key_Down);                           // numeric -> count fails again
            QTest::keyClick(panel->typeCombo(column), Qt::Key_End);  // -> text
            QVERIFY(w.dataPage()->model()->table()->column(std::size_t(column)).type() ==
                    ColumnType::Text);
            QCOMPARE(panel->message(column), QString());
        }
    }

    void millionRowsScrollToBottom() {
        ui::MainWindow w;
        data::Table t;
        const std::size_t n = 1'000'000;
        std::vector<double> x(n), y(n);
        std::vector<std::int32_t> g(n);
        for (std::size_t i = 0; i < n; ++i) {
            x[i] = double(i + 1);
            y[i] = double(i % 1000) / 10.0;
            g[i] = static_cast<std::int32_t>(i % 3);
        }
        QVERIFY(t.addColumn(Column::numeric("x", std::move(x))).isOk());
        QVERIFY(t.addColumn(Column::numeric("y", std::move(y))).isOk());
        QVERIFY(
            t.addColumn(Column::categorical("g", std::move(g), levels({"a", "b", "c"}))).isOk());
        w.project()->setTable(std::move(t), QStringLiteral("big.csv"));
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto* view = w.dataPage()->view();
        QCOMPARE(view->model()->rowCount(), 1'000'000);
        QCOMPARE(view->verticalHeader()->sectionResizeMode(0), QHeaderView::Fixed);
        view->scrollToBottom();
        QCoreApplication::processEvents();
        const int lastVisible = view->rowAt(view->viewport()->height() - 1);
        QCOMPARE(lastVisible, 999'999);
        QCOMPARE(view->verticalScrollBar()->value(), view->verticalScrollBar()->maximum());
        const QModelIndex bottom =
            view->indexAt(QPoint(2, view->viewport()->height() - 2)).siblingAtColumn(1);
        QCOMPARE(bottom.row(), 999'999);
        QCOMPARE(bottom.data().toString(), QStringLiteral("99.9"));  // (999999 % 1000) / 10
        w.grab().save(outputDir(QStringLiteral("screenshots")) +
                      QStringLiteral("/data_page_million.png"));
    }

    void readErrorsShowInMessageArea_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("expected");
        QTest::newRow("missing file")
            << QStringLiteral("no-such-file.dta") << QStringLiteral("does not exist");
        QTest::newRow("unknown type")
            << QStringLiteral("notes.xyz") << QStringLiteral("unknown file type");
    }
    void readErrorsShowInMessageArea() {
        QFETCH(QString, name);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        const QString path = dir.filePath(name);
        if (name.endsWith(QLatin1String(".xyz"))) {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("a,b\n1,2\n");
        }
        ui::MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        // Dropped onto the window, as a person would.
        QMimeData mime;
        mime.setUrls({QUrl::fromLocalFile(path)});
        QDragEnterEvent enter(QPoint(50, 50), Qt::CopyAction, &mime, Qt::LeftButton,
                              Qt::NoModifier);
        QApplication::sendEvent(&w, &enter);
        QVERIFY(enter.isAccepted());
        QDropEvent drop(QPointF(50, 50), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&w, &drop);
        QSignalSpy finished(w.project()->readJob(), &ui::JobRunnerBase::finished);
        QVERIFY(finished.wait(5000));
        auto* area = w.dataPage()->messageArea();
        QTRY_VERIFY(area->isVisible());
        QCOMPARE(area->kind(), ui::MessageArea::Kind::Error);
        QVERIFY2(area->text().contains(expected), qPrintable(area->text()));
        QVERIFY(area->text().contains(name));
        QVERIFY(QApplication::activeModalWidget() == nullptr);
        QCOMPARE(w.dataPage()->model()->rowCount(), 0);
        QVERIFY(w.project()->recentFiles().isEmpty());  // failures are not remembered
        w.grab().save(outputDir(QStringLiteral("screenshots")) + QStringLiteral("/read_error.png"));
    }

    void recentFilesFromSettingsFillMenu() {
        const QStringList files{QStringLiteral("/data/a.csv"), QStringLiteral("/data/b.sav")};
        QSettings().setValue(QStringLiteral("recentFiles"), files);
        ui::MainWindow w;
        QCOMPARE(w.project()->recentFiles(), files);
        QMenu* recent = nullptr;
        for (auto* m : w.menuBar()->findChildren<QMenu*>())
            if (m->title().contains(QStringLiteral("Recent"))) recent = m;
        QVERIFY(recent);
        QCOMPARE(recent->actions().size(), 2);
        QCOMPARE(recent->actions().at(0)->text(), QStringLiteral("a.csv"));
        QCOMPARE(recent->actions().at(1)->toolTip(), QStringLiteral("/data/b.sav"));
        QSettings().remove(QStringLiteral("recentFiles"));
    }

    void csvDialogPreviewsFile() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("people.csv"));
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("name;age;town\r\n");
            for (int i = 0; i < 80; ++i)
                f.write(QStringLiteral("p%1;%2;T%3\r\n").arg(i).arg(20 + i).arg(i % 4).toUtf8());
        }
        data::CsvOptions initial;
        initial.delimiter = ';';
        initial.missingTokens = {"", "NA", "-99"};
        initial.thousands = '\'';
        ui::CsvOptionsDialog dialog(path, initial);
        const auto lines = dialog.rawPreview().split(QLatin1Char('\n'));
        QCOMPARE(lines.size(), 20);
        QCOMPARE(lines.at(0), QStringLiteral("name;age;town"));
        QCOMPARE(lines.at(19), QStringLiteral("p18;38;T2"));
        const auto o = dialog.options();
        QCOMPARE(o.delimiter, ';');
        QCOMPARE(o.quote, '"');
        QVERIFY(o.header);
        QCOMPARE(o.encoding, std::string("auto"));
        QCOMPARE(o.missingTokens, (std::vector<std::string>{"", "NA", "-99"}));
        QCOMPARE(o.thousands, '\'');
        // Parsed preview: the first 50 rows when the CSV reader is linked; otherwise its
        // error, naming the real file rather than the temporary preview file.
        if (dialog.previewError().isEmpty()) {
            QCOMPARE(dialog.previewModel()->rowCount(), ui::CsvOptionsDialog::kPreviewRows);
            QCOMPARE(dialog.previewModel()->columnCount(), 3);
        } else {
            QVERIFY2(dialog.previewError().contains(QStringLiteral("people.csv")),
                     qPrintable(dialog.previewError()));
            QVERIFY(!dialog.previewError().contains(QStringLiteral("ppsynth-preview")));
        }
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        dialog.grab().save(outputDir(QStringLiteral("screenshots")) +
                           QStringLiteral("/csv_options.png"));
    }

    // One cell that is no number among numbers: the column stays numeric, the Data page names
    // the line and the cell beside the column and in the table, and a type of text gives the
    // cell its text back.
    void badCellNamedOnDataPage() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("scores.csv"));
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("region,score\n");
            for (int i = 1; i <= 40; ++i)
                f.write(QByteArray(i % 2 ? "north," : "south,") +
                        (i == 18 ? QByteArray("12abc") : QByteArray::number(i * 1.5)) + "\n");
        }
        ui::MainWindow w;
        w.resize(1100, 700);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QSignalSpy finished(w.project()->readJob(), &ui::JobRunnerBase::finished);
        QVERIFY(w.project()->readFile(path, {}));
        QVERIFY(finished.wait(5000));
        auto* panel = w.dataPage()->columnPanel();
        const QString message = panel->message(1);
        QVERIFY2(
            message.contains(QStringLiteral("line 19, column 'score': '12abc' is not a number")),
            qPrintable(message));
        QVERIFY(panel->typeCombo(1)->currentText() == QStringLiteral("numeric"));
        auto* model = w.dataPage()->model();
        QCOMPARE(model->data(model->index(17, 1), Qt::DisplayRole).toString(),
                 QStringLiteral("12abc"));
        QVERIFY(w.dataPage()->messageArea()->text().contains(QStringLiteral("'12abc'")));
        QCoreApplication::processEvents();
        QVERIFY(w.grab().save(outputDir(QStringLiteral("screenshots")) +
                              QStringLiteral("/data_page_bad_cell.png")));
        QTest::keyClick(panel->typeCombo(1), Qt::Key_End);  // -> text
        QVERIFY(model->table()->column(1).type() == ColumnType::Text);
        QCOMPARE(panel->message(1), QString());
        QCOMPARE(model->table()->column(1).texts()[17], std::string("12abc"));
    }

    void screenshotDataPage() {
        ui::MainWindow w;
        w.project()->setTable(makeTable(6208), QStringLiteral("/home/analyst/census.csv"));
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto* panel = w.dataPage()->columnPanel();
        QTest::keyClick(panel->roleCombo(Income), Qt::Key_End);  // sensitive y
        for (int c : {Age, Sex, Education}) QTest::keyClick(panel->roleCombo(c), Qt::Key_Down);
        for (int c : {Region, Employed}) {
            QTest::keyClick(panel->roleCombo(c), Qt::Key_Down);
            QTest::keyClick(panel->roleCombo(c), Qt::Key_Down);
        }
        QTest::keyClick(panel->typeCombo(Score), Qt::Key_Down);  // fails: message beside score
        QVERIFY(!panel->message(Score).isEmpty());
        QCoreApplication::processEvents();
        const QString file =
            outputDir(QStringLiteral("screenshots")) + QStringLiteral("/data_page.png");
        QVERIFY(w.grab().save(file));
        QVERIFY(QFile::exists(file));
    }

    // The Run menu's actions exist; without a finished run export and report are disabled
    // and say why in their tooltip.
    void runActionsDisabledWithoutRun() {
        ui::MainWindow w;
        QVERIFY(w.openRunAction() && w.exportAction() && w.reportAction());
        QVERIFY(w.openRunAction()->isEnabled());
        QVERIFY(!w.exportAction()->isEnabled());
        QVERIFY(!w.reportAction()->isEnabled());
        QVERIFY(w.exportAction()->toolTip().contains(QStringLiteral("run")));
        QVERIFY(!w.reports()->writeReport(QDir::temp().filePath(QStringLiteral("never.html"))));
        QVERIFY(w.dataPage()->messageArea()->kind() == ui::MessageArea::Kind::Error);
        QVERIFY(!w.reports()->exportRelease());
        bool found = false;
        for (QAction* menu : w.menuBar()->actions())
            if (menu->menu() && menu->menu()->actions().contains(w.exportAction())) found = true;
        QVERIFY(found);
    }

    // A run folder opened in the background joins the run list and is shown on Results;
    // the Export dialog then opens for it, and the report is written as confidential HTML.
    void openRunFolderExportAndReport() {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const QString dir = makeRunFolder(tmp.path());
        ui::MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.runs()->openRunFolder(dir));
        QVERIFY(waitForJob(w.runs()->openRunJob()));
        QCOMPARE(w.runPanel()->runList()->records().size(), std::size_t(1));
        const ui::RunRecord* r = w.runs()->currentRun();
        QVERIFY(r && r->result && r->table);
        QCOMPARE(r->folder, QFileInfo(dir).absoluteFilePath());
        QCOMPARE(r->result->synthesizers.size(), std::size_t(6));
        QVERIFY(w.tabs()->currentWidget() == w.resultsPage());
        QVERIFY(w.exportAction()->isEnabled());
        QVERIFY(w.reportAction()->isEnabled());
        QVERIFY(w.exportAction()->toolTip().contains(r->label));

        // The screenshot: the Results page with the Run menu open over it.
        QCoreApplication::processEvents();
        QMenu* runMenu = w.exportAction()->associatedObjects().isEmpty()
                             ? nullptr
                             : qobject_cast<QMenu*>(w.exportAction()->associatedObjects().first());
        QVERIFY(runMenu);
        QPixmap shot = w.grab();
        const QPoint at =
            w.menuBar()->actionGeometry(runMenu->menuAction()).bottomLeft() + w.menuBar()->pos();
        runMenu->popup(w.mapToGlobal(at));
        QCoreApplication::processEvents();
        {
            QPainter painter(&shot);
            painter.drawPixmap(at, runMenu->grab());
        }
        runMenu->hide();
        QVERIFY(shot.save(outputDir(QStringLiteral("screenshots")) +
                          QStringLiteral("/window_open_run.png")));

        // The Export dialog is modal: look at it and close it from the event loop.
        QStringList offered;
        QString title;
        bool sawDialog = false;
        QTimer::singleShot(0, &w, [&] {
            auto* d = qobject_cast<ui::ExportDialog*>(QApplication::activeModalWidget());
            if (!d) return;
            sawDialog = true;
            title = d->windowTitle();
            auto* combo = d->findChild<QComboBox*>();
            for (int i = 0; combo && i < combo->count(); ++i) offered << combo->itemText(i);
            d->reject();
        });
        QVERIFY(w.reports()->exportRelease());
        QVERIFY(sawDialog);
        QVERIFY(title.contains(r->label));
        QCOMPARE(offered.size(), 6);
        QVERIFY(offered.contains(QStringLiteral("LW")));
        QVERIFY(offered.contains(QStringLiteral("EM")));

        // Another program's file there is replaced: the save dialog asked about that very
        // file (report::ReportOptions::replaceAnyFile; the CLI's --overwrite would refuse it).
        const QString html = tmp.filePath(QStringLiteral("review.html"));
        {
            QFile notes(html);
            QVERIFY(notes.open(QIODevice::WriteOnly));
            notes.write("notes of the board\n");
        }
        QVERIFY(w.reports()->writeReport(html));
        QVERIFY(!w.reportAction()->isEnabled());  // one report at a time
        QVERIFY(waitForJob(w.reports()->reportJob()));
        QVERIFY(w.reports()->reportJob()->lastOutcome() == ui::JobOutcome::Done);
        const QByteArray text = fileBytes(html);
        QVERIFY(text.contains("CONFIDENTIAL"));
        QVERIFY(text.contains("LW"));
        QVERIFY(!text.contains("notes of the board"));
        QVERIFY(w.dataPage()->messageArea()->kind() == ui::MessageArea::Kind::Info);
        QVERIFY(w.dataPage()->messageArea()->text().contains(QStringLiteral("review.html")));
        QVERIFY(w.reportAction()->isEnabled());
    }

    // The report of a large run (60,000 records) keeps the window's event loop turning: the
    // charts are drawn one per pass and the file is written on a worker, with progress for
    // every stage. Measured on a 2-core machine: the longest event-loop gap was 800 ms (HTML)
    // and 1,230 ms (PDF) when the charts and the file were made in one go on the GUI thread.
    void largeReportKeepsWindowResponsive() {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        ui::MainWindow w;
        QVERIFY(openLargeRun(w, tmp.path()));
        QStringList stages;
        double lastFraction = 0;
        bool backwards = false;
        TickProbe probe;
        int ticksAtDrawing = -1;
        connect(w.reports()->reportJob(), &ui::JobRunnerBase::progressChanged, &w,
                [&](double f, const QString& stage) {
                    backwards = backwards || f < lastFraction;
                    lastFraction = f;
                    if (stages.isEmpty() || stages.back() != stage) stages << stage;
                    if (stage == QLatin1String("drawing charts") && ticksAtDrawing < 0)
                        ticksAtDrawing = probe.ticks();
                });
        const QString pdf = tmp.filePath(QStringLiteral("large.pdf"));
        probe.start();
        QVERIFY(w.reports()->writeReport(pdf));
        QVERIFY(waitForJob(w.reports()->reportJob()));
        probe.stop();
        qInfo(
            "PDF report of 60,000 records: %.1f s, %d ticks of a 10 ms timer, longest "
            "event-loop gap %lld ms; stages: %s",
            probe.elapsedMs() / 1000.0, probe.ticks(), probe.longestGapMs(),
            qPrintable(stages.join(QStringLiteral(", "))));
        QVERIFY(w.reports()->reportJob()->lastOutcome() == ui::JobOutcome::Done);
        QVERIFY2(w.dataPage()->messageArea()->text().contains(QStringLiteral("8 charts")),
                 qPrintable(w.dataPage()->messageArea()->text()));
        QVERIFY(QFileInfo(pdf).size() > 0);
        QVERIFY2(stages.contains(QStringLiteral("drawing charts")) &&
                     stages.contains(QStringLiteral("encoding charts")) &&
                     stages.contains(QStringLiteral("writing pages")),
                 qPrintable(stages.join(QStringLiteral(", "))));
        QVERIFY(!backwards);
        QVERIFY(lastFraction > 0.9);
        // Eight charts drawn on this thread and seven pages written on a worker: the timer
        // got its turns between them (a count, not a time: nothing here depends on speed).
        QVERIFY2(probe.ticks() - ticksAtDrawing >= 8,
                 qPrintable(QString::number(probe.ticks() - ticksAtDrawing)));
        QCOMPARE(QDir(tmp.path()).entryList(QDir::Files), QStringList{QStringLiteral("large.pdf")});
        // Written on a worker: its charts and tables are for a person to look at.
        const QString kept = outputDir(QStringLiteral("report")) + QStringLiteral("/large.pdf");
        QFile::remove(kept);
        QVERIFY(QFile::copy(pdf, kept));
    }

    // The status bar's Cancel stops a report whatever it is doing (reading the run, drawing
    // the charts on this thread, encoding and writing on a worker) and leaves no file, not
    // even a temporary one.
    void cancelledReportLeavesNoFile_data() {
        QTest::addColumn<QString>("stage");
        QTest::addColumn<QString>("file");
        QTest::newRow("loading") << QStringLiteral("loading the run")
                                 << QStringLiteral("review.pdf");
        QTest::newRow("drawing") << QStringLiteral("drawing charts")
                                 << QStringLiteral("review.pdf");
        QTest::newRow("encoding, HTML")
            << QStringLiteral("encoding charts") << QStringLiteral("review.html");
        QTest::newRow("encoding, PDF")
            << QStringLiteral("encoding charts") << QStringLiteral("review.pdf");
    }
    void cancelledReportLeavesNoFile() {
        QFETCH(QString, stage);
        QFETCH(QString, file);
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        ui::MainWindow w;
        QVERIFY(openLargeRun(w, tmp.path()));
        QPushButton* cancel = nullptr;
        for (auto* b : w.statusBar()->findChildren<QPushButton*>())
            if (b->text() == QStringLiteral("Cancel")) cancel = b;
        QVERIFY(cancel);
        bool clicked = false;
        connect(w.reports()->reportJob(), &ui::JobRunnerBase::progressChanged, &w,
                [&](double, const QString& s) {
                    if (s != stage || clicked) return;
                    clicked = true;
                    QVERIFY(cancel->isVisible());
                    if (stage == QLatin1String("drawing charts"))  // the busy bar and its Cancel
                        QVERIFY(w.grab().save(outputDir(QStringLiteral("screenshots")) +
                                              QStringLiteral("/window_report_progress.png")));
                    QTest::mouseClick(cancel, Qt::LeftButton);
                });
        const QString path = tmp.filePath(file);
        QVERIFY(w.reports()->writeReport(path));
        QVERIFY(waitForJob(w.reports()->reportJob()));
        QVERIFY(clicked);
        QVERIFY(w.reports()->reportJob()->lastOutcome() == ui::JobOutcome::Canceled);
        QVERIFY2(w.dataPage()->messageArea()->text().contains(QStringLiteral("cancelled")),
                 qPrintable(w.dataPage()->messageArea()->text()));
        QVERIFY(!QFileInfo::exists(path));
        QCOMPARE(QDir(tmp.path()).entryList(QDir::Files), QStringList());
        QVERIFY(w.reportAction()->isEnabled());  // and another report can be asked for
    }

    // Closing the window while the report is being written stops the writer and waits for it;
    // no file is left.
    void windowClosedWhileWritingReportLeavesNoFile() {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        auto w = std::make_unique<ui::MainWindow>();
        QVERIFY(openLargeRun(*w, tmp.path()));
        bool closing = false;
        connect(w->reports()->reportJob(), &ui::JobRunnerBase::progressChanged, w.get(),
                [&](double, const QString& stage) {
                    if (stage != QLatin1String("encoding charts") || closing) return;
                    closing = true;
                    QTimer::singleShot(0, [&] { w.reset(); });
                });
        const QString path = tmp.filePath(QStringLiteral("closed.pdf"));
        QVERIFY(w->reports()->writeReport(path));
        QTRY_VERIFY_WITH_TIMEOUT(!w, 60000);
        QCOMPARE(QDir(tmp.path()).entryList(QDir::Files), QStringList());
    }

    // A project whose data file has gone does not open, and must not become the project Save
    // writes to: the window still shows A, so Save writes A and leaves B's file as it was.
    void saveAfterFailedOpenKeepsShownProject() {
        QTemporaryDir a, b;
        QVERIFY(a.isValid() && b.isValid());
        const auto [fileA, fileB] = projectAndUnopenable(a.path(), b.path());
        const QByteArray bytesB = fileBytes(fileB);

        ui::MainWindow w;
        int asked = 0;
        w.questions().unsavedWork = [&](const QString&, const QStringList&) {
            ++asked;
            return ui::UnsavedChoice::Cancel;
        };
        w.project()->openProject(fileA);
        QVERIFY(waitForJob(w.project()->readJob()));
        QCOMPARE(w.project()->projectPath(), QFileInfo(fileA).absoluteFilePath());
        w.project()->openProject(fileB);
        QVERIFY(waitForJob(w.project()->readJob()));
        QVERIFY(w.dataPage()->messageArea()->kind() == ui::MessageArea::Kind::Error);
        QCOMPARE(w.project()->projectPath(), QFileInfo(fileA).absoluteFilePath());
        auto* save = w.findChild<QAction*>(QStringLiteral("saveProject"));
        QVERIFY(save && save->isEnabled());
        save->trigger();
        QCOMPARE(fileBytes(fileB), bytesB);
        QCOMPARE(asked, 0);  // nothing unsaved: no question
    }

    // A project made from a command-line configuration with synthesizers the old page had no
    // row for (a sigmoid scheme, two LW, an EM with a fixed epsilon, a re-weighting of the
    // sigmoid) opens and saves again with every one of them as it was.
    void projectKeepsEverySynthesizer() {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        fixture::writeInputs(std::filesystem::path(tmp.path().toStdString()) / "inputs");
        const QString file = writeProject(tmp.path(), QStringLiteral("p"), {});
        auto project = ui::loadProject(file);
        QVERIFY2(bool(project), project ? "" : project.message().c_str());
        const auto listed = study::parseRunConfig(R"({
          "data": {"path": "x.csv", "target": "visits"},
          "synthesizers": [
            {"name": "Unweighted", "scheme": "unweighted"},
            {"name": "LW 1", "scheme": "lipschitz", "c": 1.0, "g": 0.0},
            {"name": "LW 2", "scheme": "lipschitz", "c": 2.0, "g": 0.0},
            {"name": "Sigmoid", "scheme": "sigmoid", "source": "data", "a": 12},
            {"name": "EM8", "scheme": "scalar", "epsilon": 8.0},
            {"name": "Sigmoid final", "scheme": "reweight", "base": "Sigmoid"}]})");
        QVERIFY2(bool(listed), listed ? "" : listed.message().c_str());
        project->config.synthesizers = listed->synthesizers;
        QVERIFY(bool(ui::saveProject(*project, file)));

        ui::MainWindow w;
        w.project()->openProject(file);
        QVERIFY(waitForJob(w.project()->readJob()));
        QCOMPARE(w.project()->projectPath(), QFileInfo(file).absoluteFilePath());
        QVERIFY(w.project()->unsavedWork().isEmpty());  // nothing changed by opening it
        const QString again = tmp.filePath(QStringLiteral("again.ppsynth"));
        QVERIFY(w.project()->saveProject(again));
        QVERIFY(waitForJob(w.project()->saveJob()));
        const auto back = ui::loadProject(again);
        QVERIFY2(bool(back), back ? "" : back.message().c_str());
        auto synthesizersOf = [](const study::RunConfig& c) {
            study::RunConfig only;
            only.synthesizers = c.synthesizers;
            return QString::fromStdString(study::toJson(only)).split(QLatin1Char('\n'));
        };
        QCOMPARE(synthesizersOf(back->config), synthesizersOf(*listed));
    }

    // The bundled example project (what scripts/run.sh opens) opens ready to run: roles,
    // model and synthesizers set, and the Data page says what was set up and how to change it.
    void exampleProjectOpensReady() {
        ui::MainWindow w;
        w.resize(1400, 900);
        w.project()->openProject(QStringLiteral(PPSYNTH_EXAMPLES_DIR "/income_survey.ppsynth"));
        QVERIFY(waitForJob(w.project()->readJob()));
        auto* area = w.dataPage()->messageArea();
        QVERIFY(area->kind() == ui::MessageArea::Kind::Info && !area->isHidden());
        QVERIFY2(area->text().startsWith(QStringLiteral("Example project, ready to run")),
                 qPrintable(area->text()));
        const auto roles = w.dataPage()->columnPanel()->roles();
        QCOMPARE(roles.target, std::string("income"));
        QCOMPARE(roles.known, (std::vector<std::string>{"gender", "age", "region"}));
        QCOMPARE(roles.predictors.size(), std::size_t(10));
        QCOMPARE(w.synthesizersPage()->rowCount(), 4);
        study::RunConfig c;
        w.modelPage()->apply(c);
        QCOMPARE(c.model.family, std::string("normal"));
        QCOMPARE(c.data.transform, std::string("log-shift"));
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.grab().save(outputDir(QStringLiteral("screenshots")) +
                      QStringLiteral("/example_project_opened.png"));
    }

    // A project file whose synthesizer's name is a path (edited by hand, or from elsewhere)
    // is refused when opened, naming the name: it would become the run folder's file names.
    void projectWithAPathAsNameIsRefused() {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        fixture::writeInputs(std::filesystem::path(tmp.path().toStdString()) / "inputs");
        const QString file =
            writeProject(tmp.path(), QStringLiteral("p"), {}, [](study::RunConfig& c) {
                for (auto& s : c.synthesizers)
                    if (s.name == "CW") s.name = "../../bundle/data/leak";
            });
        ui::MainWindow w;
        w.project()->openProject(file);
        QVERIFY(w.dataPage()->messageArea()->kind() == ui::MessageArea::Kind::Error);
        const QString text = w.dataPage()->messageArea()->text();
        QVERIFY2(text.contains(QStringLiteral("the name '../../bundle/data/leak' starts with '.'")),
                 qPrintable(text));
        QVERIFY(w.project()->projectPath() != QFileInfo(file).absoluteFilePath());
    }

    // Synthesizers that core would refuse (two of one name) cannot go into a project file:
    // it is saved without them, and the window says so instead of dropping them silently.
    void saveTellsOfIncompleteSynthesizers() {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        fixture::writeInputs(std::filesystem::path(tmp.path().toStdString()) / "inputs");
        const QString file = writeProject(tmp.path(), QStringLiteral("p"), {});
        ui::MainWindow w;
        w.project()->openProject(file);
        QVERIFY(waitForJob(w.project()->readJob()));
        auto* page = w.synthesizersPage();
        QVERIFY(page->firstRow(ui::SynthesizerRow::CW));
        page->firstRow(ui::SynthesizerRow::CW)->setName(QStringLiteral("LW"));
        const QString again = tmp.filePath(QStringLiteral("again.ppsynth"));
        QVERIFY(w.project()->saveProject(again));
        QVERIFY(waitForJob(w.project()->saveJob()));
        QVERIFY(w.dataPage()->messageArea()->kind() == ui::MessageArea::Kind::Error);
        const QString text = w.dataPage()->messageArea()->text();
        QVERIFY2(text.contains(QStringLiteral("without its synthesizers")) &&
                     text.contains(QStringLiteral("Two synthesizers are called 'LW'")),
                 qPrintable(text));
    }

    // Opening a project while a run is going: the run stops only once the new project has
    // been read and applied. A project whose data file cannot be read leaves the run going
    // (and the shown project in place); one that opens ends it.
    void runKeepsGoingWhenProjectFailsToOpen() {
        QTemporaryDir a, b;
        QVERIFY(a.isValid() && b.isValid());
        const auto [fileA, fileB] = projectAndUnopenable(a.path(), b.path());

        ui::MainWindow w;
        int asked = 0;
        QStringList what;
        w.questions().unsavedWork = [&](const QString&, const QStringList& items) {
            ++asked;
            what = items;
            return ui::UnsavedChoice::Discard;
        };
        w.project()->openProject(fileA);
        QVERIFY(waitForJob(w.project()->readJob()));
        QCOMPARE(w.project()->projectPath(), QFileInfo(fileA).absoluteFilePath());
        // A run long enough to be going throughout: NUTS on the Poisson regression.
        auto* model = w.modelPage();
        model->familyBox()->setCurrentIndex(
            model->familyBox()->findData(QStringLiteral("poisson")));
        model->warmupBox()->setValue(200000);
        model->drawsBox()->setValue(200000);
        QVERIFY2(w.runPanel()->startRun(), qPrintable(w.runPanel()->messageLabel()->text()));
        QVERIFY(w.runPanel()->isRunning());

        w.project()->openProject(fileB);
        QCOMPARE(asked, 1);
        QVERIFY2(what.join(QLatin1Char(' ')).contains(QStringLiteral("run is in progress")),
                 qPrintable(what.join(QLatin1Char(' '))));
        QVERIFY(waitForJob(w.project()->readJob()));
        QVERIFY(w.dataPage()->messageArea()->kind() == ui::MessageArea::Kind::Error);
        QVERIFY(w.runPanel()->isRunning());
        QCOMPARE(w.project()->projectPath(), QFileInfo(fileA).absoluteFilePath());

        w.project()->openProject(fileA);
        QCOMPARE(asked, 2);
        QVERIFY(waitForJob(w.project()->readJob()));
        QTRY_VERIFY_WITH_TIMEOUT(!w.runPanel()->isRunning(), 30000);
        QCOMPARE(w.runPanel()->job()->lastOutcome(), ui::JobOutcome::Canceled);
        QVERIFY(w.runPanel()->runList()->records().empty());
    }

    // A project whose configuration names the Gibbs sampler for a model without one (core
    // reads it, and refuses it when the run fits): the Model page keeps the choice and marks
    // it, and the run stops with core's reason instead of running another sampler.
    void inapplicableSamplerIsKeptAndTheRunSaysWhy() {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        fixture::writeInputs(std::filesystem::path(tmp.path().toStdString()) / "inputs");
        const QString file =
            writeProject(tmp.path(), QStringLiteral("p"), {}, [](study::RunConfig& c) {
                c.model.family = "poisson";
                c.mcmc.sampler = "gibbs";
            });
        ui::MainWindow w;
        w.project()->openProject(file);
        QVERIFY(waitForJob(w.project()->readJob()));
        QCOMPARE(w.project()->projectPath(), QFileInfo(file).absoluteFilePath());
        QCOMPARE(w.modelPage()->samplerBox()->currentData().toString(), QStringLiteral("gibbs"));
        QVERIFY(w.modelPage()->samplerNote()->isVisibleTo(w.modelPage()));
        const auto c = w.pageSettings()->currentConfig();
        QVERIFY2(bool(c), c ? "" : c.message().c_str());
        QCOMPARE(c->mcmc.sampler, std::string("gibbs"));
        // Nothing was changed behind the person's back.
        QVERIFY(w.project()->unsavedWork().isEmpty());
        QSignalSpy ended(w.runPanel(), &ui::RunPanel::runEnded);
        QVERIFY2(w.runPanel()->startRun(), qPrintable(w.runPanel()->messageLabel()->text()));
        QVERIFY(ended.wait(60000));
        const QString said = w.runPanel()->messageLabel()->text();
        QVERIFY2(said.contains(QStringLiteral("the Gibbs sampler is available only for the normal "
                                              "mixture")),
                 qPrintable(said));
        QVERIFY(w.runPanel()->runList()->records().empty());
    }

    // Opening other data ends the project: Save then asks for a new file instead of writing
    // the other data under the project's name.
    void otherDataLeavesTheProject() {
        QTemporaryDir a, b;
        QVERIFY(a.isValid() && b.isValid());
        fixture::writeInputs(std::filesystem::path(a.path().toStdString()) / "inputs");
        fixture::writeInputs(std::filesystem::path(b.path().toStdString()) / "inputs");
        const QString fileA = writeProject(a.path(), QStringLiteral("a"), {});
        const QByteArray bytesA = fileBytes(fileA);
        ui::MainWindow w;
        int asked = 0;
        w.questions().saveFileName = [&](const QString&, const QString&, const QString&, QString*) {
            ++asked;
            return QString();  // the person cancels the file dialog
        };
        w.questions().statOptions = keepStatOptions;
        w.project()->openProject(fileA);
        QVERIFY(waitForJob(w.project()->readJob()));
        QCOMPARE(w.project()->projectPath(), QFileInfo(fileA).absoluteFilePath());
        w.openFile(b.filePath(QStringLiteral("inputs/data.sav")));
        QVERIFY(waitForJob(w.project()->readJob()));
        QVERIFY(w.project()->projectPath().isEmpty());
        QCOMPARE(w.windowTitle(), QStringLiteral("ppsynth"));
        w.findChild<QAction*>(QStringLiteral("saveProject"))->trigger();
        QCOMPARE(asked, 1);
        QCOMPARE(fileBytes(fileA), bytesA);
    }

    // Closing with a finished run only in memory asks once; Cancel keeps the window open,
    // Discard closes it.
    void closeAsksBeforeLosingRuns() {
        ui::MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.runPanel()->runList()->add(unsavedRun());
        QCOMPARE(w.project()->unsavedWork().size(), 1);
        int asked = 0;
        auto answer = ui::UnsavedChoice::Cancel;
        QStringList what;
        w.questions().unsavedWork = [&](const QString&, const QStringList& items) {
            ++asked;
            what = items;
            return answer;
        };
        QVERIFY(!w.close());
        QCOMPARE(asked, 1);
        QVERIFY(w.isVisible());
        QVERIFY2(what.value(0).contains(QStringLiteral("1 finished run")),
                 qPrintable(what.value(0)));
        answer = ui::UnsavedChoice::Discard;
        QVERIFY(w.close());
        QCOMPARE(asked, 2);
        QVERIFY(!w.isVisible());
    }

    // The real question, rendered for a person to look at; Cancel keeps the window.
    void unsavedWorkQuestionScreenshot() {
        ui::MainWindow w;
        w.project()->setTable(makeTable(40), QStringLiteral("/home/analyst/census.csv"));
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.runPanel()->runList()->add(unsavedRun());
        QTest::keyClick(w.dataPage()->columnPanel()->roleCombo(Income), Qt::Key_End);
        bool sawBox = false;
        QTimer::singleShot(0, &w, [&] {
            auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
            if (!box) return;
            sawBox = true;
            box->grab().save(outputDir(QStringLiteral("screenshots")) +
                             QStringLiteral("/unsaved_work_question.png"));
            box->button(QMessageBox::Cancel)->click();
        });
        QVERIFY(!w.close());
        QVERIFY(sawBox);
        QVERIFY(w.isVisible());
    }

    // Quit while the runs are being saved waits for the save, then closes: the project file
    // the person asked for is written.
    void closeWaitsForSaveInProgress() {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const QString dir = makeRunFolder(tmp.path());
        auto loaded = study::loadRunFolder(dir.toStdString());
        QVERIFY2(bool(loaded), loaded ? "" : loaded.message().c_str());
        ui::MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.project()->setTable(loaded->table, QString::fromStdString(loaded->dataPath));
        ui::RunRecord r;
        r.result = std::make_shared<const study::RunResult>(loaded->run);
        r.table = w.dataPage()->model()->table();
        w.runPanel()->runList()->add(std::move(r));
        int asked = 0;
        w.questions().unsavedWork = [&](const QString&, const QStringList&) {
            ++asked;
            return ui::UnsavedChoice::Discard;
        };
        const QString file = tmp.filePath(QStringLiteral("saved.ppsynth"));
        QVERIFY(w.project()->saveProject(file));
        QVERIFY(w.project()->saveJob()->isRunning());
        QVERIFY(!w.close());
        QVERIFY(w.isVisible());
        QVERIFY(waitForJob(w.project()->saveJob()));
        QTRY_VERIFY(!w.isVisible());
        QCOMPARE(asked, 0);
        QVERIFY(QFile::exists(file));
        QVERIFY(!w.runPanel()->runList()->records().front().folder.isEmpty());
    }

    // A save cancelled after its first run folder was written removes what it wrote (not
    // an earlier save's folder): the runs stay unsaved, and the next save writes them.
    void cancelledSaveLeavesNoRunFolders() {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        ui::MainWindow w;
        QVERIFY(addTwoUnsavedRuns(w, tmp.path()));
        const QDir runsDir(tmp.filePath(QStringLiteral("saved_runs")));
        QVERIFY(runsDir.mkpath(QStringLiteral("run_1")));  // an earlier save's folder
        const QStringList before = runsDir.entryList(QDir::Dirs | QDir::NoDotAndDotDot);
        // The second run's write waits until the save was cancelled.
        QSemaphore firstWritten, cancelled;
        int writes = 0;
        w.project()->setRunWriter([&](const study::RunResult& run, const data::Table& table,
                                      const std::string& dir) -> Status {
            if (++writes == 2) {
                firstWritten.release();
                cancelled.tryAcquire(1, 30000);
            }
            return study::writeRunOutput(run, table, dir);
        });
        const QString file = tmp.filePath(QStringLiteral("saved.ppsynth"));
        QVERIFY(w.project()->saveProject(file));
        QVERIFY(firstWritten.tryAcquire(1, 30000));
        QCOMPARE(runsDir.entryList(QDir::Dirs | QDir::NoDotAndDotDot).size(), before.size() + 1);
        w.project()->saveJob()->cancel();
        cancelled.release();
        QVERIFY(waitForJob(w.project()->saveJob()));
        QCOMPARE(w.project()->saveJob()->lastOutcome(), ui::JobOutcome::Canceled);
        QCOMPARE(runsDir.entryList(QDir::Dirs | QDir::NoDotAndDotDot), before);
        QVERIFY(!QFile::exists(file));
        for (const auto& r : w.runPanel()->runList()->records()) QVERIFY(r.folder.isEmpty());

        w.project()->setRunWriter(nullptr);
        QVERIFY(w.project()->saveProject(file));
        QVERIFY(waitForJob(w.project()->saveJob()));
        QCOMPARE(w.project()->saveJob()->lastOutcome(), ui::JobOutcome::Done);
        QVERIFY(QFile::exists(file));
        QCOMPARE(runsDir.entryList(QDir::Dirs | QDir::NoDotAndDotDot).size(), before.size() + 2);
        for (const auto& r : w.runPanel()->runList()->records()) {
            QVERIFY(!r.folder.isEmpty());
            QVERIFY2(QFileInfo::exists(QDir(r.folder).filePath(QStringLiteral("run.json"))),
                     qPrintable(r.folder));
        }
        QVERIFY(w.project()->unsavedWork().isEmpty());
    }

    // The save is one transaction (core's study::saveProject): when the second run cannot be
    // written, the first run's folder is removed again, no run is marked saved, the project
    // file is not written and the message says nothing was written.
    void failedSaveWritesNothing() {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        ui::MainWindow w;
        QVERIFY(addTwoUnsavedRuns(w, tmp.path()));
        int writes = 0;
        w.project()->setRunWriter([&](const study::RunResult& run, const data::Table& table,
                                      const std::string& dir) -> Status {
            if (++writes == 2) return Error::io("the disk is full");
            return study::writeRunOutput(run, table, dir);
        });
        const QString file = tmp.filePath(QStringLiteral("saved.ppsynth"));
        QVERIFY(w.project()->saveProject(file));
        QVERIFY(waitForJob(w.project()->saveJob()));
        QCOMPARE(writes, 2);
        QVERIFY(!QFile::exists(file));
        QVERIFY(!QFileInfo::exists(tmp.filePath(QStringLiteral("saved_runs"))));
        for (const auto& r : w.runPanel()->runList()->records()) QVERIFY(r.folder.isEmpty());
        QVERIFY(w.dataPage()->messageArea()->kind() == ui::MessageArea::Kind::Error);
        const QString message = w.dataPage()->messageArea()->text();
        QVERIFY2(message.contains(QStringLiteral("nothing was written")) &&
                     message.contains(QStringLiteral("the disk is full")),
                 qPrintable(message));
    }

    // A project's runs are written beside it, record-level files included: Save As into a
    // release bundle, or Save of a project that lives in one, is refused with a message
    // naming the bundle before anything is written; the runs stay unsaved. Saved elsewhere,
    // the same project and runs are written.
    void projectIsNotSavedInsideAReleaseBundle_data() {
        QTest::addColumn<bool>("saveAs");
        QTest::newRow("Save As into a bundle") << true;
        QTest::newRow("Save of a project in a bundle") << false;
    }
    void projectIsNotSavedInsideAReleaseBundle() {
        QFETCH(bool, saveAs);
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        auto loaded = study::loadRunFolder(makeRunFolder(tmp.path()).toStdString());
        QVERIFY2(bool(loaded), loaded ? "" : loaded.message().c_str());
        const QDir bundle(tmp.filePath(QStringLiteral("bundle")));
        QVERIFY(bundle.mkpath(QStringLiteral("data")));
        QVERIFY(writeBytes(bundle.filePath(QStringLiteral("manifest.json")),
                           R"({"format": "ppsynth-release"})"));
        const QString file = bundle.filePath(QStringLiteral("study.ppsynth"));
        ui::MainWindow w;
        if (saveAs) {
            w.project()->setTable(loaded->table, QString::fromStdString(loaded->dataPath));
        } else {  // a project file put there by hand (core's writer does not check), opened
            auto config = study::loadRunConfig(
                QDir(tmp.path()).filePath(QStringLiteral("inputs/config.json")).toStdString());
            QVERIFY(config.hasValue());
            ui::Project p;
            p.dataPath = QString::fromStdString(loaded->dataPath);
            p.config = *config;
            QVERIFY(ui::saveProject(p, file).isOk());
            w.project()->openProject(file);
            QVERIFY(waitForJob(w.project()->readJob()));
            QCOMPARE(w.project()->projectPath(), QFileInfo(file).absoluteFilePath());
        }
        const QByteArray projectBefore = fileBytes(file);
        ui::RunRecord r;
        r.result = std::make_shared<const study::RunResult>(loaded->run);
        r.table = w.dataPage()->model()->table();
        w.runPanel()->runList()->add(std::move(r));
        int writes = 0, asked = 0;
        w.project()->setRunWriter([&](const study::RunResult& run, const data::Table& table,
                                      const std::string& dir) -> Status {
            ++writes;
            return study::writeRunOutput(run, table, dir);
        });
        QString answer = file;
        w.questions().saveFileName = [&](const QString&, const QString&, const QString&, QString*) {
            ++asked;
            return answer;
        };
        const QString action =
            saveAs ? QStringLiteral("saveProjectAs") : QStringLiteral("saveProject");
        w.findChild<QAction*>(action)->trigger();
        QCOMPARE(asked, saveAs ? 1 : 0);
        QVERIFY(!w.project()->saveJob()->isRunning());
        QCOMPARE(writes, 0);
        const QString message = w.dataPage()->messageArea()->text();
        QVERIFY(w.dataPage()->messageArea()->kind() == ui::MessageArea::Kind::Error);
        QVERIFY2(
            message.contains(QStringLiteral("release bundle")) && message.contains(bundle.path()),
            qPrintable(message));
        QCOMPARE(fileBytes(file), projectBefore);  // not written (Save As: still no file)
        QVERIFY(!QFileInfo::exists(bundle.filePath(QStringLiteral("study_runs"))));
        QCOMPARE(w.runPanel()->runList()->records().front().folder, QString());
        QVERIFY(!w.project()->unsavedWork().isEmpty());

        // Outside the bundle the same save goes through.
        answer = tmp.filePath(QStringLiteral("study.ppsynth"));
        w.findChild<QAction*>(QStringLiteral("saveProjectAs"))->trigger();
        QVERIFY(waitForJob(w.project()->saveJob()));
        QCOMPARE(w.project()->saveJob()->lastOutcome(), ui::JobOutcome::Done);
        QCOMPARE(writes, 1);
        QVERIFY(QFile::exists(answer));
        QVERIFY(QFileInfo::exists(tmp.filePath(QStringLiteral("study_runs/run_1/run.json"))));
        QVERIFY(w.project()->unsavedWork().isEmpty());
    }

    // A project whose folder cannot take files (here: a path under a regular file) is
    // refused when saving starts, with a message naming the path and why: no run is written
    // and the runs stay unsaved.
    void projectIsNotSavedWhereItCannotBeWritten() {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        auto loaded = study::loadRunFolder(makeRunFolder(tmp.path()).toStdString());
        QVERIFY2(bool(loaded), loaded ? "" : loaded.message().c_str());
        QVERIFY(writeBytes(tmp.filePath(QStringLiteral("notes.txt")), "someone's notes\n"));
        const QString file = tmp.filePath(QStringLiteral("notes.txt/study.ppsynth"));
        ui::MainWindow w;
        w.project()->setTable(loaded->table, QString::fromStdString(loaded->dataPath));
        ui::RunRecord r;
        r.result = std::make_shared<const study::RunResult>(loaded->run);
        r.table = w.dataPage()->model()->table();
        w.runPanel()->runList()->add(std::move(r));
        int writes = 0;
        w.project()->setRunWriter([&](const study::RunResult& run, const data::Table& table,
                                      const std::string& dir) -> Status {
            ++writes;
            return study::writeRunOutput(run, table, dir);
        });
        QVERIFY(!w.project()->saveProject(file));
        QVERIFY(!w.project()->saveJob()->isRunning());
        QCOMPARE(writes, 0);
        const QString message = w.dataPage()->messageArea()->text();
        QVERIFY(w.dataPage()->messageArea()->kind() == ui::MessageArea::Kind::Error);
        QVERIFY2(message.contains(QStringLiteral("Cannot write '%1': '%2' is a file, not a folder")
                                      .arg(file, tmp.filePath(QStringLiteral("notes.txt")))),
                 qPrintable(message));
        QCOMPARE(w.runPanel()->runList()->records().front().folder, QString());
        QCOMPARE(fileBytes(tmp.filePath(QStringLiteral("notes.txt"))),
                 QByteArray("someone's notes\n"));
    }

    // A save killed while writing a run left <project>_runs/run_2.partial-PID, with
    // confidential records in it: opening the project names it (the person is asked), keeps
    // it when the answer is no and removes it when yes. A folder of that name pattern holding
    // something a run does not write, and the project's saved run, stay.
    void openingProjectOffersToRemoveLeftovers() {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const QString run = makeRunFolder(tmp.path());
        const QString file = writeProject(tmp.path(), QStringLiteral("p"), {run});
        const QDir runs(tmp.filePath(QStringLiteral("p_runs")));
        const QString partial = runs.filePath(QStringLiteral("run_2.partial-999999"));
        const QString foreign = runs.filePath(QStringLiteral("run_3.partial-999998"));
        for (const QString& dir : {partial, foreign}) {
            QVERIFY(QDir().mkpath(dir + QStringLiteral("/confidential")));
            QVERIFY(writeBytes(dir + QStringLiteral("/run.json"), "{}\n"));
            QVERIFY(writeBytes(dir + QStringLiteral("/confidential/LW_records.csv"),
                               "row,y,alpha\n1,31,0.93\n"));
        }
        QVERIFY(writeBytes(foreign + QStringLiteral("/my_notes.txt"), "not a run's\n"));
        for (const bool remove : {false, true}) {
            ui::MainWindow w;
            QList<QStringList> asked;
            w.questions().removeLeftovers = [&](const QStringList& what) {
                asked << what;
                return remove;
            };
            w.project()->openProject(file);
            QVERIFY(waitForJob(w.project()->readJob()));
            QTRY_COMPARE(asked.size(), 1);
            QCOMPARE(asked.front().size(), 1);
            QCOMPARE(asked.front().front(),
                     QStringLiteral("'%1' (an unfinished run folder of process 999999, which is "
                                    "no longer running)")
                         .arg(partial));
            QCOMPARE(QFileInfo::exists(partial), !remove);
            QVERIFY(QFileInfo::exists(foreign + QStringLiteral("/my_notes.txt")));
            QVERIFY(waitForJob(w.runs()->loadRunsJob()));
            QVERIFY(w.runPanel()->runList()->records().front().result);
            if (remove)
                QVERIFY2(w.statusBar()->currentMessage().contains(QStringLiteral("Removed 1 item")),
                         qPrintable(w.statusBar()->currentMessage()));
        }
        // Nothing left to offer: not asked again.
        ui::MainWindow w;
        int asked = 0;
        w.questions().removeLeftovers = [&](const QStringList&) { return ++asked, true; };
        w.project()->openProject(file);
        QVERIFY(waitForJob(w.project()->readJob()));
        QVERIFY(waitForJob(w.runs()->loadRunsJob()));
        QTest::qWait(50);
        QCOMPARE(asked, 0);
    }

    // The question as the person sees it (the window's own, not a test's stub).
    void leftoversQuestionScreenshot() {
        ui::MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        bool sawBox = false;
        QTimer::singleShot(0, &w, [&] {
            auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
            if (!box) return;
            sawBox = true;
            box->grab().save(outputDir(QStringLiteral("screenshots")) +
                             QStringLiteral("/leftovers_question.png"));
            for (auto* b : box->buttons())
                if (b->text() == QStringLiteral("Keep")) b->click();
        });
        const bool removed = w.questions().removeLeftovers(
            {QStringLiteral("'/home/analyst/study_runs/run_2.partial-31337' (an unfinished run "
                            "folder of process 31337, which is no longer running)"),
             QStringLiteral("'/home/analyst/study_runs/run_1.old-31337-0' (an earlier run folder "
                            "moved aside by process 31337, which is no longer running)")});
        QVERIFY(sawBox);
        QVERIFY(!removed);
    }

    // Closing the window stops every background job (here the reopening of a project's saved
    // runs), not only the read: nothing goes on working for a closed window.
    void closeCancelsBackgroundJobs() {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const QString run = makeRunFolder(tmp.path());
        QStringList runs;
        for (int i = 0; i < 12; ++i) runs << run;  // still loading when the window closes
        const QString file = writeProject(tmp.path(), QStringLiteral("many"), runs);
        ui::MainWindow w;
        w.questions().unsavedWork = [](const QString&, const QStringList&) {
            return ui::UnsavedChoice::Discard;
        };
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.project()->openProject(file);
        QVERIFY(waitForJob(w.project()->readJob()));
        QVERIFY(w.runs()->loadRunsJob()->isRunning());
        QVERIFY(w.close());
        QVERIFY(waitForJob(w.runs()->loadRunsJob()));
        QCOMPARE(w.runs()->loadRunsJob()->lastOutcome(), ui::JobOutcome::Canceled);
        QVERIFY(!w.jobs()->isBusy());
    }

    // Run ids restart at 1 for every project: a load of A's runs still going when B opens
    // must not give B's run 1 A's result.
    void secondProjectGetsItsOwnRuns() {
        QTemporaryDir a, b;
        QVERIFY(a.isValid() && b.isValid());
        const QString runA = makeRunFolder(a.path());
        const QString runB = makeRunFolder(b.path(), 4242);
        // Many runs for A, so its load is still going when B is read and applied.
        QStringList runsA;
        for (int i = 0; i < 12; ++i) runsA << runA;
        const QString fileA = writeProject(a.path(), QStringLiteral("a"), runsA);
        const QString fileB = writeProject(b.path(), QStringLiteral("b"), {runB});
        ui::MainWindow w;
        w.project()->openProject(fileA);
        QVERIFY(waitForJob(w.project()->readJob()));
        QVERIFY(w.runs()->loadRunsJob()->isRunning());
        w.project()->openProject(fileB);
        QVERIFY(waitForJob(w.project()->readJob()));
        QCOMPARE(w.project()->projectPath(), QFileInfo(fileB).absoluteFilePath());
        QTRY_VERIFY_WITH_TIMEOUT(!w.runs()->loadRunsJob()->isRunning(), 60000);
        QTest::qWait(50);  // nothing more arrives
        const auto& records = w.runPanel()->runList()->records();
        QCOMPARE(records.size(), std::size_t(1));
        QCOMPARE(records.front().folder, runB);
        QVERIFY(records.front().result);
        QCOMPARE(records.front().result->config.mcmc.seed, std::uint64_t(4242));
        QCOMPARE(w.runs()->loadRunsJob()->lastOutcome(), ui::JobOutcome::Done);
    }

    // Reopening a project's saved runs (run.json, records, synthetic datasets of each) runs
    // on a worker and says so in the status bar: "Loading saved run k of n..." with a bar
    // that moves, while the window keeps turning its event loop and Open stays available.
    void savedRunsLoadShowsProgress() {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const QString run = makeRunFolder(tmp.path());
        const int n = 12;
        QStringList runs;
        for (int i = 0; i < n; ++i) runs << run;
        const QString file = writeProject(tmp.path(), QStringLiteral("p"), runs);
        ui::MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto* label = w.statusBar()->findChild<QLabel*>(QStringLiteral("busyLabel"));
        auto* bar = w.statusBar()->findChild<QProgressBar*>();
        QVERIFY(label && bar);
        QStringList shown;
        int updatesWhileRunning = 0, mostPermille = 0;
        bool openUsable = true;
        connect(w.runs()->loadRunsJob(), &ui::JobRunnerBase::progressChanged, &w, [&] {
            if (!w.runs()->loadRunsJob()->isRunning()) return;
            ++updatesWhileRunning;
            if (shown.isEmpty() || shown.back() != label->text()) shown << label->text();
            mostPermille = std::max(mostPermille, bar->value());
            openUsable = openUsable && label->isVisible() && bar->isVisible();
        });
        TickProbe probe;
        w.project()->openProject(file);
        QVERIFY(waitForJob(w.project()->readJob()));
        QVERIFY(w.runs()->loadRunsJob()->isRunning());
        probe.start();
        QCOMPARE(label->text(), QStringLiteral("Loading saved run 1 of 12..."));
        QVERIFY(label->isVisible() && bar->isVisible());
        const QList<QAction*> fileActions = w.menuBar()->actions().front()->menu()->actions();
        QVERIFY(fileActions.front()->isEnabled());  // Open...: another project cancels this
        QVERIFY(waitForJob(w.runs()->loadRunsJob()));
        probe.stop();
        QCOMPARE(w.runs()->loadRunsJob()->lastOutcome(), ui::JobOutcome::Done);
        qInfo("%d saved runs reopened in %lld ms: %d progress updates, %d timer ticks, texts: %s",
              n, probe.elapsedMs(), updatesWhileRunning, probe.ticks(),
              qPrintable(shown.join(QStringLiteral(" | "))));
        QVERIFY(openUsable);
        // The GUI thread turned while the worker loaded: progress arrived as it went.
        QVERIFY2(updatesWhileRunning >= 2, qPrintable(QString::number(updatesWhileRunning)));
        QVERIFY2(
            shown.size() >= 2 && shown.back() == QStringLiteral("Loading saved run 12 of 12..."),
            qPrintable(shown.join(QStringLiteral(" | "))));
        int last = 0;
        for (const QString& text : shown) {
            const QRegularExpressionMatch m =
                QRegularExpression(QStringLiteral("^Loading saved run (\\d+) of 12\\.\\.\\.$"))
                    .match(text);
            QVERIFY2(m.hasMatch(), qPrintable(text));
            QVERIFY(m.captured(1).toInt() >= last);
            last = m.captured(1).toInt();
        }
        QVERIFY2(mostPermille >= 900, qPrintable(QString::number(mostPermille)));
        QVERIFY(label->isHidden() && bar->isHidden());
        for (const auto& r : w.runPanel()->runList()->records()) QVERIFY(r.result);
    }

    // A screenshot of the window while saved runs load (at the load's first progress).
    void savedRunsLoadScreenshot() {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const QString run = makeRunFolder(tmp.path());
        const QString file =
            writeProject(tmp.path(), QStringLiteral("p"), {run, run, run, run, run});
        ui::MainWindow w;
        w.resize(1100, 640);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        bool grabbed = false;
        connect(w.runs()->loadRunsJob(), &ui::JobRunnerBase::progressChanged, &w, [&] {
            auto* label = w.statusBar()->findChild<QLabel*>(QStringLiteral("busyLabel"));
            if (grabbed || !label || !label->isVisible() || !w.runs()->loadRunsJob()->isRunning())
                return;
            grabbed = w.grab().save(outputDir(QStringLiteral("screenshots")) +
                                    QStringLiteral("/saved_runs_loading.png"));
        });
        w.project()->openProject(file);
        QVERIFY(waitForJob(w.project()->readJob()));
        w.tabs()->setCurrentWidget(w.runPanel());
        QVERIFY(waitForJob(w.runs()->loadRunsJob()));
        QVERIFY(grabbed);
    }

    // Two jobs at once: the status bar's progress and Cancel stay until the last has ended.
    // The global pool gets one thread, and two blocking tasks order the jobs: the read
    // finishes while opening the run folder is still queued.
    void busyIndicatorStaysUntilLastJobEnds() {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const QString csv = tmp.filePath(QStringLiteral("small.csv"));
        QVERIFY(writeBytes(csv, "a,b\n1,2\n3,4\n"));
        ui::MainWindow w;
        auto* bar = w.statusBar()->findChild<QProgressBar*>();
        QVERIFY(bar && bar->isHidden());
        QThreadPool* pool = QThreadPool::globalInstance();
        const int threads = pool->maxThreadCount();
        pool->setMaxThreadCount(1);
        QSemaphore first, second;
        pool->start([&first] { first.tryAcquire(1, 30000); });
        QVERIFY(w.project()->readFile(csv, {}));
        pool->start([&second] { second.tryAcquire(1, 30000); });
        QVERIFY(w.runs()->openRunFolder(tmp.filePath(QStringLiteral("no-such-run"))));
        QVERIFY(!bar->isHidden());
        first.release();
        QVERIFY(waitForJob(w.project()->readJob()));
        QVERIFY(w.runs()->openRunJob()->isRunning());
        const bool shownDuringSecond = !bar->isHidden();
        second.release();
        QVERIFY(waitForJob(w.runs()->openRunJob()));
        pool->waitForDone(30000);
        pool->setMaxThreadCount(threads);
        QVERIFY(shownDuringSecond);
        QVERIFY(bar->isHidden());
    }

    // A run started on other data finishing after this data was opened: its bounds are for
    // other records, so the weight preview stays without bounds; a run on this data feeds it.
    void previewTakesBoundsOnlyFromThisData() {
        ui::MainWindow w;
        w.project()->setTable(makeTable(50), QStringLiteral("/tmp/first.csv"));
        const auto first = w.dataPage()->model()->table();
        w.project()->setTable(makeTable(60), QStringLiteral("/tmp/second.csv"));
        auto* preview = w.synthesizersPage()->previewPanel();
        const int stale = w.runPanel()->runList()->add(unsavedRun(first, 50)).id;
        emit w.runPanel()->runFinished(stale);
        QVERIFY(!preview->hasBounds());
        const int current =
            w.runPanel()->runList()->add(unsavedRun(w.dataPage()->model()->table(), 60)).id;
        emit w.runPanel()->runFinished(current);
        QVERIFY(preview->hasBounds());
    }

    // A name typed without ".ppsynth" gets it after the file dialog, which asked only about
    // the typed name: replacing the existing project file is asked here.
    void addedSuffixAsksBeforeReplacing() {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const QString taken = tmp.filePath(QStringLiteral("taken.ppsynth"));
        QVERIFY(writeBytes(taken, "another project"));
        ui::MainWindow w;
        w.project()->setTable(makeTable(20), tmp.filePath(QStringLiteral("data.csv")));
        QStringList asked;
        bool replace = false;
        w.questions().saveFileName = [&](const QString&, const QString&, const QString&, QString*) {
            return tmp.filePath(QStringLiteral("taken"));
        };
        w.questions().replaceFile = [&](const QString& path) {
            asked << path;
            return replace;
        };
        auto* saveAs = w.findChild<QAction*>(QStringLiteral("saveProjectAs"));
        QVERIFY(saveAs);
        saveAs->trigger();
        QCOMPARE(asked, QStringList{taken});
        QCOMPARE(fileBytes(taken), QByteArray("another project"));
        QVERIFY(w.project()->projectPath().isEmpty());
        replace = true;
        saveAs->trigger();
        QCOMPARE(asked.size(), 2);
        QVERIFY(fileBytes(taken).contains("ppsynth-project"));
        QCOMPARE(w.project()->projectPath(), taken);
    }

    // Project files keep paths relative so the folder can move: its runs' export and report
    // then read the data file where the project says, not where run.json recorded it. A
    // report is refused inside the release bundle.
    void movedProjectExportsAndReports() {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const QString before = tmp.filePath(QStringLiteral("before"));
        const QString run = makeRunFolder(before);
        writeProject(before, QStringLiteral("p"), {run});
        const QString after = tmp.filePath(QStringLiteral("after"));
        QVERIFY(QDir().rename(before, after));

        ui::MainWindow w;
        int asked = 0;
        w.questions().locateDataFile = [&asked](const QString&) {
            ++asked;
            return QString();
        };
        w.project()->openProject(QDir(after).filePath(QStringLiteral("p.ppsynth")));
        QVERIFY(waitForJob(w.project()->readJob()));
        QVERIFY(waitForJob(w.runs()->loadRunsJob()));
        const auto& records = w.runPanel()->runList()->records();
        QCOMPARE(records.size(), std::size_t(1));
        QVERIFY2(records.front().result, qPrintable(w.dataPage()->messageArea()->text()));
        w.runPanel()->runList()->select({records.front().id});
        QVERIFY(w.exportAction()->isEnabled());

        const QString bundle = tmp.filePath(QStringLiteral("bundle"));
        bool written = false;
        QString said;
        QTimer::singleShot(0, &w, [&] {
            auto* d = qobject_cast<ui::ExportDialog*>(QApplication::activeModalWidget());
            if (!d) return;
            d->setDestination(bundle);
            QSignalSpy finished(d, &ui::ExportDialog::exportFinished);
            d->startExport();
            if (finished.isEmpty()) finished.wait(60000);
            written = !finished.isEmpty() && finished.front().at(0).toBool();
            said = d->messageArea()->text();
            d->reject();
        });
        QVERIFY(w.reports()->exportRelease());
        QVERIFY2(written, qPrintable(said));
        QVERIFY(QFileInfo::exists(QDir(bundle).filePath(QStringLiteral("manifest.json"))));

        // Another program's file there is replaced: the save dialog asked about that very
        // file (report::ReportOptions::replaceAnyFile; the CLI's --overwrite would refuse it).
        const QString html = tmp.filePath(QStringLiteral("review.html"));
        {
            QFile notes(html);
            QVERIFY(notes.open(QIODevice::WriteOnly));
            notes.write("notes of the board\n");
        }
        QVERIFY(w.reports()->writeReport(html));
        QVERIFY(waitForJob(w.reports()->reportJob()));
        QVERIFY2(w.dataPage()->messageArea()->kind() == ui::MessageArea::Kind::Info,
                 qPrintable(w.dataPage()->messageArea()->text()));
        QVERIFY(QFileInfo::exists(html));
        QCOMPARE(asked, 0);

        // The confidential report never goes into the bundle (the SVGs and tables in it
        // hold confidential values).
        const QString inBundle = QDir(bundle).filePath(QStringLiteral("review.html"));
        QVERIFY(!w.reports()->writeReport(inBundle));
        QVERIFY(!QFileInfo::exists(inBundle));
        QVERIFY(w.dataPage()->messageArea()->kind() == ui::MessageArea::Kind::Error);
        QVERIFY2(w.dataPage()->messageArea()->text().contains(QStringLiteral("release bundle")),
                 qPrintable(w.dataPage()->messageArea()->text()));
        w.resize(1280, 800);
        w.tabs()->setCurrentWidget(w.dataPage());
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.grab().save(outputDir(QStringLiteral("screenshots")) +
                              QStringLiteral("/window_report_refused_in_bundle.png")));
    }

    // A run folder whose data file moved: the person is asked to locate it (in GUI words
    // when they do not, not the command line's --data advice).
    void openRunFolderLocatesMovedData() {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const QString dir = makeRunFolder(tmp.path());
        const QString moved = tmp.filePath(QStringLiteral("elsewhere"));
        QVERIFY(QDir().rename(tmp.filePath(QStringLiteral("inputs")), moved));
        ui::MainWindow w;
        QString missing;
        QString answer;
        w.questions().locateDataFile = [&](const QString& path) {
            missing = path;
            return answer;
        };
        QVERIFY(!w.runs()->openRunFolder(dir));
        QCOMPARE(missing, tmp.filePath(QStringLiteral("inputs/data.sav")));
        const QString text = w.dataPage()->messageArea()->text();
        QVERIFY(w.dataPage()->messageArea()->kind() == ui::MessageArea::Kind::Error);
        QVERIFY2(
            text.contains(QStringLiteral("locate")) && !text.contains(QStringLiteral("--data")),
            qPrintable(text));
        QVERIFY(w.runPanel()->runList()->records().empty());

        answer = QDir(moved).filePath(QStringLiteral("data.sav"));
        QVERIFY(w.runs()->openRunFolder(dir));
        QVERIFY(waitForJob(w.runs()->openRunJob()));
        QCOMPARE(w.runPanel()->runList()->records().size(), std::size_t(1));
        QCOMPARE(w.runPanel()->runList()->records().front().dataPath, answer);
    }

    // A data file changed since the run: the loader refuses, its message is shown and the
    // run list stays empty.
    void openRunFolderWithChangedData() {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const QString dir = makeRunFolder(tmp.path());
        // The same records with one more column: other bytes, so another data file.
        const auto changed = fixture::incomeTable();
        const auto data = std::filesystem::path(tmp.path().toStdString()) / "inputs" / "data.sav";
        QVERIFY(data::writeTable(changed, data.string()));
        ui::MainWindow w;
        QVERIFY(w.runs()->openRunFolder(dir));
        QVERIFY(waitForJob(w.runs()->openRunJob()));
        QVERIFY(w.runPanel()->runList()->records().empty());
        QVERIFY(w.dataPage()->messageArea()->kind() == ui::MessageArea::Kind::Error);
        QVERIFY2(w.dataPage()->messageArea()->text().contains(QStringLiteral("run")),
                 qPrintable(w.dataPage()->messageArea()->text()));
        QVERIFY(!w.exportAction()->isEnabled());
    }

    // A project's reference levels and level limit reach the run configuration after
    // reopening and are saved again (the reference level changes the coding, METHOD.md 1).
    void projectKeepsReferenceLevels() {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const QString csv = tmp.filePath(QStringLiteral("survey.csv"));
        QVERIFY(writeBytes(csv, "age,income\n18-34,10\n65+,20\n35-64,15\n65+,12\n18-34,9\n"));
        ui::Project p;
        p.dataPath = csv;
        p.config.data.path = csv.toStdString();
        p.config.data.target = "income";
        p.config.data.predictors = {"age"};
        p.config.data.types = {{"age", "categorical"}, {"income", "numeric"}};
        p.config.data.referenceLevels = {{"age", "65+"}};
        p.config.data.maxLevels = 7;
        study::SynthesizerConfig unweighted;
        unweighted.name = "Unweighted";
        p.config.synthesizers = {unweighted};
        const QString file = tmp.filePath(QStringLiteral("p.ppsynth"));
        QVERIFY(bool(ui::saveProject(p, file)));

        ui::MainWindow w;
        QSignalSpy read(w.project()->readJob(), &ui::JobRunnerBase::finished);
        w.project()->openProject(file);
        QVERIFY(read.wait(60000));
        QCOMPARE(w.dataPage()->columnPanel()->roles().referenceLevels,
                 p.config.data.referenceLevels);
        const auto c = w.pageSettings()->currentConfig();
        QVERIFY2(bool(c), c ? "" : c.message().c_str());
        QCOMPARE(c->data.referenceLevels, p.config.data.referenceLevels);
        QCOMPARE(c->data.maxLevels, std::size_t{7});
        const QString again = tmp.filePath(QStringLiteral("again.ppsynth"));
        QVERIFY(w.project()->saveProject(again));
        const auto back = ui::loadProject(again);
        QVERIFY2(bool(back), back ? "" : back.message().c_str());
        QCOMPARE(back->config.data.referenceLevels, p.config.data.referenceLevels);
        QCOMPARE(back->config.data.maxLevels, std::size_t{7});
    }

    // An SPSS file in an older code page fails to read; the window asks for its encoding
    // (offering the common ones) and reads it again with the choice, which the project saves.
    void statFileEncodingAskedAfterFailure() {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const QString sav = tmp.filePath(QStringLiteral("old.sav"));
        writeCp1252Sav(sav);
        if (QTest::currentTestFailed()) return;
        ui::MainWindow w;
        QStringList tried;
        // A name iconv does not know first: asked again, with what failed.
        QString answer = QStringLiteral("NO-SUCH-CODEPAGE");
        w.questions().statEncoding = [&](const QString& path, const QString& was) {
            if (path != sav) return QString();
            tried << was;
            return std::exchange(answer, QStringLiteral("WINDOWS-1252"));
        };
        w.questions().statOptions = keepStatOptions;
        w.openFile(sav);
        QTRY_VERIFY_WITH_TIMEOUT(tried.size() == 2 && !w.project()->readJob()->isRunning(), 30000);
        QVERIFY(waitForJob(w.project()->readJob()));
        QCOMPARE(tried, (QStringList{QString(), QStringLiteral("NO-SUCH-CODEPAGE")}));
        const auto table = w.dataPage()->model()->table();
        QVERIFY(table);
        QCOMPARE(table->find("g")->levels()[1].label, std::string("naïve €"));
        const QString file = tmp.filePath(QStringLiteral("old.ppsynth"));
        QVERIFY(w.project()->saveProject(file));
        const auto back = ui::loadProject(file);
        QVERIFY2(bool(back), back ? "" : back.message().c_str());
        QCOMPARE(back->stat.encoding, std::string("WINDOWS-1252"));

        // Cancelling the question leaves the error shown and nothing read.
        ui::MainWindow other;
        int asked = 0;
        other.questions().statEncoding = [&](const QString&, const QString&) {
            ++asked;
            return QString();
        };
        other.questions().statOptions = keepStatOptions;
        other.openFile(sav);
        QTRY_VERIFY_WITH_TIMEOUT(asked == 1, 30000);
        QTest::qWait(50);
        QVERIFY(!other.project()->readJob()->isRunning());
        QVERIFY(!other.dataPage()->model()->table());
        QVERIFY(other.dataPage()->messageArea()->kind() == ui::MessageArea::Kind::Error);
        QVERIFY2(other.dataPage()->messageArea()->text().contains(
                     QStringLiteral("could not be converted to UTF-8")),
                 qPrintable(other.dataPage()->messageArea()->text()));
    }

    // Opening an SPSS/Stata/SAS file offers its encoding before the read, as CSV files offer
    // theirs: a code page chosen there reads the labels right at once (no failure first,
    // and no question after), and the project saves it. Cancelling reads nothing.
    void statEncodingOfferedBeforeReading() {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const QString sav = tmp.filePath(QStringLiteral("old.sav"));
        writeCp1252Sav(sav);
        if (QTest::currentTestFailed()) return;
        ui::MainWindow w;
        QStringList offered;
        std::optional<data::StatOptions> answer;
        w.questions().statOptions = [&](const QString& path, const data::StatOptions& initial) {
            offered << path + QLatin1Char('|') + QString::fromStdString(initial.encoding);
            return answer;
        };
        int askedAfter = 0;
        w.questions().statEncoding = [&](const QString&, const QString&) {
            ++askedAfter;
            return QString();
        };
        w.openFile(sav);  // cancelled
        QCOMPARE(offered, QStringList{sav + QLatin1Char('|')});
        QVERIFY(!w.project()->readJob()->isRunning());
        QVERIFY(!w.dataPage()->model()->table());

        answer = data::StatOptions{"WINDOWS-1252"};
        w.openFile(sav);
        QCOMPARE(offered.size(), 2);
        QVERIFY(waitForJob(w.project()->readJob()));
        const auto table = w.dataPage()->model()->table();
        QVERIFY2(table, qPrintable(w.dataPage()->messageArea()->text()));
        QCOMPARE(table->find("g")->levels()[0].label, std::string("café"));
        QCOMPARE(table->find("g")->levels()[1].label, std::string("naïve €"));
        QCOMPARE(askedAfter, 0);
        const QString file = tmp.filePath(QStringLiteral("old.ppsynth"));
        QVERIFY(w.project()->saveProject(file));
        const auto back = ui::loadProject(file);
        QVERIFY2(bool(back), back ? "" : back.message().c_str());
        QCOMPARE(back->stat.encoding, std::string("WINDOWS-1252"));
    }

    // The real dialog: the file's own encoding first, the common code pages, any other iconv
    // name typed, and a name that cannot be one refused before reading.
    void statOptionsDialogScreenshot() {
        ui::MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QStringList items;
        bool refusedBadName = false, tookTypedName = false;
        QTimer::singleShot(0, &w, [&] {
            auto* d = qobject_cast<ui::StatOptionsDialog*>(QApplication::activeModalWidget());
            if (!d) return;
            auto* box = d->encodingBox();
            for (int i = 0; i < box->count(); ++i) items << box->itemText(i);
            d->grab().save(outputDir(QStringLiteral("screenshots")) +
                           QStringLiteral("/stat_options_dialog.png"));
            box->setEditText(QStringLiteral("CP 1250"));
            refusedBadName = !d->readButton()->isEnabled();
            d->grab().save(outputDir(QStringLiteral("screenshots")) +
                           QStringLiteral("/stat_options_dialog_bad_name.png"));
            box->setEditText(QStringLiteral("CP1250"));
            tookTypedName = d->readButton()->isEnabled() && d->options().encoding == "CP1250";
            box->setCurrentIndex(2);
            d->readButton()->click();
        });
        const auto chosen =
            w.questions().statOptions(QStringLiteral("/home/analyst/census_1998.sav"), {});
        QCOMPARE(items.size(), 4);
        QVERIFY2(items[0].startsWith(QStringLiteral("As the file declares")), qPrintable(items[0]));
        QVERIFY(refusedBadName);
        QVERIFY(tookTypedName);
        QVERIFY(chosen);
        QCOMPARE(chosen->encoding, std::string("CP850"));
        // Shown again with a chosen encoding, the dialog starts from it.
        ui::StatOptionsDialog again(QStringLiteral("x.sav"), data::StatOptions{"ISO-8859-15"});
        QCOMPARE(again.options().encoding, std::string("ISO-8859-15"));
        ui::StatOptionsDialog typed(QStringLiteral("x.sav"), data::StatOptions{"KOI8-R"});
        QCOMPARE(typed.options().encoding, std::string("KOI8-R"));
        QCOMPARE(ui::StatOptionsDialog(QStringLiteral("x.sav")).options().encoding, std::string());
    }

    // The real question, rendered for a person to look at.
    void statEncodingQuestionScreenshot() {
        ui::MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QStringList offered;
        QTimer::singleShot(0, &w, [&] {
            auto* dialog = qobject_cast<QInputDialog*>(QApplication::activeModalWidget());
            if (!dialog) return;
            offered = dialog->comboBoxItems();
            dialog->grab().save(outputDir(QStringLiteral("screenshots")) +
                                QStringLiteral("/stat_encoding_question.png"));
            dialog->setTextValue(QStringLiteral("CP850"));
            dialog->accept();
        });
        const QString chosen =
            w.questions().statEncoding(QStringLiteral("/home/analyst/census_1998.sav"), {});
        QCOMPARE(offered, (QStringList{QStringLiteral("WINDOWS-1252"), QStringLiteral("CP850"),
                                       QStringLiteral("ISO-8859-15")}));
        QCOMPARE(chosen, QStringLiteral("CP850"));
    }

    // A project's SPSS/Stata/SAS encoding reads its data file and reaches the run
    // configuration (so run.json and the CLI read the file the same way).
    void projectStatEncodingReachesTheRunConfiguration() {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const QString sav = tmp.filePath(QStringLiteral("old.sav"));
        writeCp1252Sav(sav);
        if (QTest::currentTestFailed()) return;
        ui::Project p;
        p.dataPath = sav;
        p.stat.encoding = "WINDOWS-1252";
        p.config.data.path = sav.toStdString();
        p.config.data.target = "y";
        p.config.data.predictors = {"g"};
        study::SynthesizerConfig unweighted;
        unweighted.name = "Unweighted";
        p.config.synthesizers = {unweighted};
        const QString file = tmp.filePath(QStringLiteral("p.ppsynth"));
        QVERIFY(bool(ui::saveProject(p, file)));
        const auto back = ui::loadProject(file);
        QVERIFY2(bool(back), back ? "" : back.message().c_str());
        QCOMPARE(back->stat.encoding, p.stat.encoding);
        QCOMPARE(ui::readOptionsOf(*back).stat.encoding, p.stat.encoding);

        ui::MainWindow w;
        int asked = 0;
        w.questions().statEncoding = [&](const QString&, const QString&) {
            ++asked;
            return QString();
        };
        QSignalSpy read(w.project()->readJob(), &ui::JobRunnerBase::finished);
        w.project()->openProject(file);
        QVERIFY(read.wait(60000));
        QCOMPARE(asked, 0);
        QCOMPARE(w.project()->projectPath(), QFileInfo(file).absoluteFilePath());
        const auto c = w.pageSettings()->currentConfig();
        QVERIFY2(bool(c), c ? "" : c.message().c_str());
        QCOMPARE(c->data.read.stat.encoding, p.stat.encoding);
        auto data = study::readRunData(*c);
        QVERIFY2(bool(data), data ? "" : data.message().c_str());
        QCOMPARE(data->table.find("g")->levels()[0].label, std::string("café"));
    }

    // The project's CSV options reach the run configuration (and so run.json): reopening
    // the run, releasing it or reporting on it reads the file the same way.
    void projectCsvOptionsReachTheRunConfiguration() {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const QString csv = tmp.filePath(QStringLiteral("survey.csv"));
        QVERIFY(writeBytes(csv,
                           "'age';'income'\n'18-34';1.010,5\n'65+';-9\n'35-64';15,25\n'65+';12\n"));
        ui::Project p;
        p.dataPath = csv;
        p.csv.delimiter = ';';
        p.csv.quote = '\'';
        p.csv.decimal = ',';
        p.csv.thousands = '.';
        p.csv.encoding = "latin-1";
        p.csv.missingTokens = {"-9"};
        p.config.data.path = csv.toStdString();
        p.config.data.target = "income";
        p.config.data.predictors = {"age"};
        study::SynthesizerConfig unweighted;
        unweighted.name = "Unweighted";
        p.config.synthesizers = {unweighted};
        const QString file = tmp.filePath(QStringLiteral("p.ppsynth"));
        QVERIFY(bool(ui::saveProject(p, file)));

        ui::MainWindow w;
        QSignalSpy read(w.project()->readJob(), &ui::JobRunnerBase::finished);
        w.project()->openProject(file);
        QVERIFY(read.wait(60000));
        const auto c = w.pageSettings()->currentConfig();
        QVERIFY2(bool(c), c ? "" : c.message().c_str());
        const auto& got = c->data.read.csv;
        QCOMPARE(got.delimiter, p.csv.delimiter);
        QCOMPARE(got.quote, p.csv.quote);
        QCOMPARE(got.decimal, p.csv.decimal);
        QCOMPARE(got.thousands, p.csv.thousands);
        QCOMPARE(got.header, p.csv.header);
        QCOMPARE(got.encoding, p.csv.encoding);
        QCOMPARE(got.missingTokens, p.csv.missingTokens);
        // And core reads the file with them as the window did: -9 is missing, 1.010,5 a number.
        auto data = study::readRunData(*c);
        QVERIFY2(bool(data), data ? "" : data.message().c_str());
        QCOMPARE(data->table.find("income")->missingCount(), std::size_t{1});
        QCOMPARE(data->table.find("income")->value(0), 1010.5);
    }

    // Run > Open Study Folder: a simulation shows its contraction charts, a sweep its
    // risk-utility curve, and a chosen sweep point lands in the Synthesizers page.
    void openStudyFolders() {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const std::string examples = PPSYNTH_EXAMPLES_DIR;
        auto sim = study::loadSimulateConfig(examples + "/simulate_poisson_quick.json");
        QVERIFY2(sim.hasValue(), sim.hasValue() ? "" : sim.message().c_str());
        const std::string simDir = tmp.path().toStdString() + "/sim";
        QVERIFY(study::runSimulation(*sim, simDir).hasValue());
        auto sweep = study::parseSweepConfig(R"({
          "data": {"path": "poisson.csv", "target": "y"}, "model": {"family": "poisson-means"},
          "mcmc": {"chains": 2, "warmup": 0, "draws": 300, "seed": 3},
          "synthesis": {"m": 3}, "risk": {"L": 3}, "utility": {"bootstrap": 40},
          "sweep": {"points": [{"c": 0.7, "g": 0.0}, {"c": 0.5, "g": -0.3}]}})",
                                             examples);
        QVERIFY2(sweep.hasValue(), sweep.hasValue() ? "" : sweep.message().c_str());
        auto input = study::readRunData(sweep->run);
        QVERIFY(input.hasValue());
        const std::string sweepDir = tmp.path().toStdString() + "/sweep";
        auto ran = study::runSweep(*sweep, *input, sweepDir);
        QVERIFY(ran.hasValue());

        ui::MainWindow w;
        QVERIFY(w.openStudyAction()->isEnabled());
        // Not a study folder: refused in words.
        QVERIFY(w.studies()->openStudyFolder(tmp.path()));
        QVERIFY(waitForJob(w.studies()->studyJob()));
        QVERIFY(w.dataPage()->messageArea()->kind() == ui::MessageArea::Kind::Error);
        QVERIFY(w.dataPage()->messageArea()->text().contains(QStringLiteral("config.json")));

        QVERIFY(w.studies()->openStudyFolder(QString::fromStdString(simDir)));
        QVERIFY(waitForJob(w.studies()->studyJob()));
        QVERIFY2(w.tabs()->currentWidget() == w.studiesPage(),
                 qPrintable(w.dataPage()->messageArea()->text()));
        QVERIFY(!w.studiesPage()->simulationCards().isEmpty());

        QVERIFY(w.studies()->openStudyFolder(QString::fromStdString(sweepDir)));
        QVERIFY(waitForJob(w.studies()->studyJob()));
        QVERIFY(w.studiesPage()->curveCard() != nullptr);
        w.resize(1280, 800);
        w.show();
        QApplication::processEvents();
        QVERIFY(w.grab().save(outputDir(QStringLiteral("screenshots")) +
                              QStringLiteral("/window_studies_sweep.png")));
        // Reading a finished sweep back fits nothing again.
        const study::SweepRow* point2 = nullptr;
        for (const auto& r : ran->rows)
            if (r.point == 2 && r.mechanism == "LW") point2 = &r;
        QVERIFY(point2);
        w.studies()->openSweepPoint(*point2);
        QVERIFY(w.tabs()->currentWidget() == w.synthesizersPage());
        QCOMPARE(w.synthesizersPage()->rowCount(), 3);
        QVERIFY(w.synthesizersPage()->firstRow(ui::SynthesizerRow::LW));
        QVERIFY(w.synthesizersPage()->firstRow(ui::SynthesizerRow::EM));
        QVERIFY(w.synthesizersPage()->firstRow(ui::SynthesizerRow::Unweighted));
        study::RunConfig applied;
        QVERIFY(w.synthesizersPage()->apply(applied));
        const auto lw =
            std::find_if(applied.synthesizers.begin(), applied.synthesizers.end(),
                         [](const auto& c) { return c.scheme == study::Scheme::Lipschitz; });
        QVERIFY(lw != applied.synthesizers.end());
        QCOMPARE(lw->c, 0.5);
        QCOMPARE(lw->g, -0.3);
    }

    // A sweep point loaded from the Studies tab runs as the sweep ran it: its data file and
    // roles (known variables), and the settings the pages have no widget for (Lipschitz
    // quantile, risk threshold, whack-a-mole rise, MCMC tuning, EM's tolerance), and an
    // absolute radius stays absolute.
    void sweepPointRunsAsTheSweepRanIt() {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const auto base = std::filesystem::path(tmp.path().toStdString());
        fixture::writeInputs(base);
        auto sweep = study::parseSweepConfig(R"({
          "data": {"path": "data.sav", "target": "visits",
                   "predictors": ["region", "sex", "age"], "known": ["region", "sex"]},
          "model": {"family": "poisson-means"},
          "mcmc": {"chains": 2, "warmup": 0, "draws": 300, "seed": 5, "refit_warmup": 40,
                   "max_treedepth": 8, "adapt_delta": 0.9},
          "synthesis": {"m": 3},
          "risk": {"L": 3, "radius": 2.5, "radius_mode": "absolute", "threshold": 0.4,
                   "whack_a_mole_rise": 0.3},
          "lipschitz": {"quantile": 0.95}, "utility": {"bootstrap": 40},
          "sweep": {"points": [{"c": 0.6, "g": -0.1}], "tolerance": 0.05}})",
                                             base.string());
        QVERIFY2(sweep.hasValue(), sweep.hasValue() ? "" : sweep.message().c_str());
        auto input = study::readRunData(sweep->run);
        QVERIFY(input.hasValue());
        auto ran = study::runSweep(*sweep, *input, (base / "sweep").string());
        QVERIFY2(ran.hasValue(), ran.hasValue() ? "" : ran.message().c_str());
        const auto point = std::find_if(ran->rows.begin(), ran->rows.end(),
                                        [](const auto& r) { return r.point == 1; });
        QVERIFY(point != ran->rows.end());

        ui::MainWindow w;
        QVERIFY(w.studies()->openStudyFolder(tmp.filePath(QStringLiteral("sweep"))));
        QVERIFY(waitForJob(w.studies()->studyJob()));
        // No data shown: loaded, with a warning that names the sweep's data file.
        w.studies()->openSweepPoint(*point);
        QVERIFY(w.dataPage()->messageArea()->kind() == ui::MessageArea::Kind::Error);
        QVERIFY2(w.dataPage()->messageArea()->text().contains(QStringLiteral("data.sav")),
                 qPrintable(w.dataPage()->messageArea()->text()));

        const QString data = QString::fromStdString(sweep->run.data.path);
        QVERIFY(w.project()->readFile(data, {}));
        QVERIFY(waitForJob(w.project()->readJob()));
        w.studies()->openSweepPoint(*point);
        QVERIFY2(w.dataPage()->messageArea()->isHidden(),
                 qPrintable(w.dataPage()->messageArea()->text()));
        const auto c = w.pageSettings()->currentConfig();
        QVERIFY2(c.hasValue(), c.hasValue() ? "" : c.message().c_str());
        study::RunConfig expected = study::sweepPointRunConfig(*sweep, point->knobs);
        study::SynthesizerConfig unweighted;
        unweighted.name = "Unweighted";
        expected.synthesizers.insert(expected.synthesizers.begin(), unweighted);
        // The Data page writes out every column's type and the Model page every prior (the
        // same defaults); the rest must be the sweep's own.
        expected.data.types = c->data.types;
        expected.model.priors = c->model.priors;
        QCOMPARE(c->data.known, sweep->run.data.known);
        QCOMPARE(c->lipschitz.quantile, 0.95);
        QVERIFY(!c->risk.percentage);
        QCOMPARE(c->risk.radius, 2.5);
        // Line by line, so a difference is named.
        QCOMPARE(QString::fromStdString(study::toJson(*c)).split(QLatin1Char('\n')),
                 QString::fromStdString(study::toJson(expected)).split(QLatin1Char('\n')));

        w.resize(1280, 800);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.grab().save(outputDir(QStringLiteral("screenshots")) +
                              QStringLiteral("/window_sweep_point_loaded.png")));
    }
};

QTEST_MAIN(TstMainWindow)
#include "tst_main_window.moc"

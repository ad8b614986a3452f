// The results of one run in tabs: Summary (epsilon per synthesizer in words, the accounting
// and risk tables, the bound violins), Risk, Weights, Utility, Synthetic data, Diagnostics
// and Tables. Charts and tables come from run_charts and results_tables; per-synthesizer
// charts follow the synthesizer chosen at the top. Everything is built on the GUI thread
// from a finished run (no statistics beyond the KDEs of the charts).
#pragma once

#include <QList>
#include <QStringList>
#include <QWidget>
#include <functional>
#include <memory>
#include <set>

#include "ppsynth/data/table.hpp"
#include "ppsynth/study/runner.hpp"

class QComboBox;
class QHBoxLayout;
class QLabel;
class QPushButton;
class QTabWidget;
class QGridLayout;

namespace ppsynth::ui::results {

class ChartCard;
class ChartExportJob;
class TableCard;

class ResultsPage : public QWidget {
    Q_OBJECT
  public:
    explicit ResultsPage(QWidget* parent = nullptr);

    // Shows `run` (replacing what was shown). The page keeps a shared reference. `table`, the
    // table the run used, lets a run with several sensitive variables chart each of them and
    // list them all in the riskiest-records table (without it: the first only).
    void showRun(std::shared_ptr<const study::RunResult> run, const QString& label = QString(),
                 std::shared_ptr<const data::Table> table = {});
    void showRun(study::RunResult run, const QString& label = QString());
    const study::RunResult* run() const { return run_.get(); }

    // The synthesizer of the per-synthesizer charts (its name), and choosing it.
    QString currentSynthesizer() const;
    void setCurrentSynthesizer(const QString& name);

    // Writes every chart of the run to `dir` as PNG and SVG, one chart per event-loop pass
    // (the page stays usable; the button turns into Cancel meanwhile). The job is null when
    // no export ran yet.
    void exportAllCharts(const QString& dir);
    ChartExportJob* exportJob() const { return exportJob_; }
    QLabel* exportStatus() const { return exportStatus_; }

    QTabWidget* tabs() const { return tabs_; }
    QLabel* summaryLabel() const { return summary_; }
    QLabel* headerLabel() const { return header_; }
    // The cards of a tab (by its title, e.g. "Risk"), in layout order; builds the tab when
    // it has not been shown since the run or synthesizer changed.
    QList<ChartCard*> chartCards(const QString& tab) const;
    QList<TableCard*> tableCards(const QString& tab) const;

  private:
    void rebuild();
    void rebuildSynthesizerTabs();
    void ensureBuilt(const QString& tab);  // builds `tab` if it is stale
    QWidget* tabPage(const QString& title);
    QGridLayout* grid(const QString& title) const;
    void clearTab(const QString& title);
    void addChart(const QString& tab, ChartCard* card, int span = 1);
    void addTable(const QString& tab, TableCard* table, int span = 2);
    // A "Variable" chooser in `row` for a run with several sensitive variables: `items`,
    // `current` chosen; choosing another calls `choose` with its index and rebuilds `tab`.
    QComboBox* addVariableChooser(QHBoxLayout* row, const QString& tab, const QStringList& items,
                                  int current, std::function<void(int)> choose);
    // The Utility tab's joint measures (several sensitive variables) under `synthesizer`.
    void addJointUtility(const QString& tab, const std::string& synthesizer);

    std::shared_ptr<const study::RunResult> run_;
    std::set<QString> stale_;  // tabs to rebuild before they are shown
    int dataset_ = 0;          // synthetic dataset of the synthetic-against-confidential scatter
    std::shared_ptr<const data::Table> table_;  // the run's table (may be null)
    std::string variable_;  // the sensitive variable the synthetic-data charts show
    // What the Utility tab shows of a run with several sensitive variables: the variable of
    // this index (synthesis order), or the joint measures when it is their number.
    int utilityChoice_ = 0;
    QLabel* header_ = nullptr;
    QComboBox* synthesizer_ = nullptr;
    QTabWidget* tabs_ = nullptr;
    QLabel* summary_ = nullptr;
    QPushButton* exportButton_ = nullptr;
    QLabel* exportStatus_ = nullptr;
    ChartExportJob* exportJob_ = nullptr;
};

}  // namespace ppsynth::ui::results

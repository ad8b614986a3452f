// Any two runs of the session side by side: a table of the synthesizers both runs share
// (epsilon, mean risk, mean weight, CI overlap), and under it each run's violins of bounds,
// risks, weights and the utility of the mean, on common value ranges so the pictures
// compare at a glance.
#pragma once

#include <QList>
#include <QString>
#include <QWidget>
#include <memory>
#include <vector>

#include "ppsynth/study/runner.hpp"

class QComboBox;
class QVBoxLayout;

namespace ppsynth::ui::results {

class ChartCard;
class TableCard;

class CompareView : public QWidget {
    Q_OBJECT
  public:
    explicit CompareView(QWidget* parent = nullptr);

    // Adds a run to both choosers; the first two runs added are compared by default.
    void addRun(const QString& label, std::shared_ptr<const study::RunResult> run);
    int runCount() const { return static_cast<int>(runs_.size()); }
    // Compares runs `left` and `right` (indices in the order added).
    void setPair(int left, int right);
    // Compares `a` with `b`, adding either when it is not in the choosers yet (a run is
    // known by its pointer): for a run list that asks to compare two of its runs.
    void compare(const QString& labelA, std::shared_ptr<const study::RunResult> a,
                 const QString& labelB, std::shared_ptr<const study::RunResult> b);
    // The chooser index of `run`, -1 when it was not added.
    int indexOf(const study::RunResult* run) const;

    QComboBox* leftChooser() const { return left_; }
    QComboBox* rightChooser() const { return right_; }
    TableCard* comparisonCard() const { return table_; }
    // The chart cards of one side (0 = left, 1 = right), in layout order.
    QList<ChartCard*> cards(int side) const;

  private:
    void rebuild();

    struct Entry {
        QString label;
        std::shared_ptr<const study::RunResult> run;
    };
    std::vector<Entry> runs_;
    QComboBox* left_ = nullptr;
    QComboBox* right_ = nullptr;
    QVBoxLayout* tableSlot_ = nullptr;
    TableCard* table_ = nullptr;
    QVBoxLayout* sides_[2] = {nullptr, nullptr};
    QList<ChartCard*> cards_[2];
};

}  // namespace ppsynth::ui::results

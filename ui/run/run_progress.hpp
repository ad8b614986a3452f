// The progress of a running comparison: the fit under way ("LW, fit 2 of about 4"), an
// overall bar with the time remaining, and one bar per chain with its phase (warm-up or
// sampling) and iteration. Reads a ProgressBoard at 20 Hz while a run is going.
#pragma once

#include <QWidget>
#include <memory>
#include <vector>

class QLabel;
class QProgressBar;
class QTimer;
class QVBoxLayout;

namespace ppsynth::ui {

class ProgressBoard;

class RunProgress : public QWidget {
    Q_OBJECT
  public:
    static constexpr int kRefreshMs = 50;  // 20 Hz: smooth to the eye, nothing for the GUI

    explicit RunProgress(QWidget* parent = nullptr);

    void start(std::shared_ptr<const ProgressBoard> board);
    // Final refresh, then idle; `text` replaces the stage line ("Finished in 12 s");
    // `complete` fills the overall bar (the estimate stops short of 100%).
    void stop(const QString& text, bool complete = false);

    QProgressBar* overallBar() const { return overall_; }
    QLabel* stageLabel() const { return stage_; }
    QLabel* remainingLabel() const { return remaining_; }
    const std::vector<QProgressBar*>& chainBars() const { return chainBars_; }
    int refreshCount() const { return refreshes_; }

  private:
    void refresh();
    void ensureChains(std::size_t n);

    std::shared_ptr<const ProgressBoard> board_;
    QTimer* timer_;
    QLabel* stage_;
    QProgressBar* overall_;
    QLabel* remaining_;
    QVBoxLayout* chainsLayout_;
    std::vector<QLabel*> chainLabels_;
    std::vector<QProgressBar*> chainBars_;
    int refreshes_ = 0;
};

// "about 2 min 5 s" / "about 40 s"; "estimating..." for a negative value.
QString formatRemaining(double seconds);

}  // namespace ppsynth::ui

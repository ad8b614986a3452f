#include "ui/run/run_progress.hpp"

#include <QGridLayout>
#include <QLabel>
#include <QProgressBar>
#include <QTimer>
#include <QVBoxLayout>
#include <cmath>

#include "ui/run/progress_board.hpp"

namespace ppsynth::ui {

QString formatRemaining(double seconds) {
    if (seconds < 0) return QObject::tr("time remaining: estimating...");
    const auto s = static_cast<long long>(std::ceil(seconds));
    if (s < 60) return QObject::tr("about %1 s remaining").arg(s);
    return QObject::tr("about %1 min %2 s remaining").arg(s / 60).arg(s % 60);
}

RunProgress::RunProgress(QWidget* parent)
    : QWidget(parent),
      timer_(new QTimer(this)),
      stage_(new QLabel(tr("No run yet."), this)),
      overall_(new QProgressBar(this)),
      remaining_(new QLabel(this)),
      chainsLayout_(new QVBoxLayout) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    stage_->setWordWrap(true);
    overall_->setRange(0, 1000);
    overall_->setFormat(tr("overall %p%"));
    layout->addWidget(stage_);
    layout->addWidget(overall_);
    layout->addWidget(remaining_);
    chainsLayout_->setSpacing(2);
    layout->addLayout(chainsLayout_);
    timer_->setInterval(kRefreshMs);
    connect(timer_, &QTimer::timeout, this, &RunProgress::refresh);
}

void RunProgress::start(std::shared_ptr<const ProgressBoard> board) {
    board_ = std::move(board);
    overall_->setValue(0);
    stage_->setText(tr("Starting..."));
    remaining_->setText(formatRemaining(-1));
    timer_->start();
}

void RunProgress::stop(const QString& text, bool complete) {
    timer_->stop();
    if (board_) refresh();
    if (complete) overall_->setValue(overall_->maximum());
    stage_->setText(text);
    remaining_->clear();
}

void RunProgress::ensureChains(std::size_t n) {
    while (chainBars_.size() < n) {
        auto* row = new QHBoxLayout;
        auto* label = new QLabel(tr("Chain %1").arg(chainBars_.size() + 1));
        label->setMinimumWidth(70);
        auto* bar = new QProgressBar;
        bar->setRange(0, 1000);
        bar->setMaximumHeight(18);
        row->addWidget(label);
        row->addWidget(bar, 1);
        chainsLayout_->addLayout(row);
        chainLabels_.push_back(label);
        chainBars_.push_back(bar);
    }
    for (std::size_t i = 0; i < chainBars_.size(); ++i) {
        chainBars_[i]->setVisible(i < n);
        chainLabels_[i]->setVisible(i < n);
    }
}

void RunProgress::refresh() {
    // Skip a beat rather than wait for a worker holding the board.
    const auto snap = board_->trySnapshot();
    if (!snap) return;
    ++refreshes_;
    const auto& s = *snap;
    ensureChains(s.chains.size());
    const int fits = std::max(s.expectedFits, s.fitIndex + 1);
    stage_->setText(s.fit.empty() ? tr("Preparing the data...")
                                  : tr("Fitting %1 (fit %2 of about %3)")
                                            .arg(QString::fromStdString(s.fit))
                                            .arg(s.fitIndex + 1)
                                            .arg(fits) +
                                        (s.step.empty() ? QString()
                                                        : QStringLiteral(": ") +
                                                              QString::fromStdString(s.step)));
    overall_->setValue(static_cast<int>(std::lround(s.overall * 1000)));
    remaining_->setText(formatRemaining(s.remainingSeconds));
    for (std::size_t i = 0; i < s.chains.size(); ++i) {
        const auto& c = s.chains[i];
        const double part = c.total > 0 ? std::clamp(c.done / c.total, 0.0, 1.0) : 0.0;
        chainBars_[i]->setValue(static_cast<int>(std::lround(part * 1000)));
        const QString phase = c.phase == "warmup"     ? tr("warm-up")
                              : c.phase == "sampling" ? tr("sampling")
                                                      : QString::fromStdString(c.phase);
        chainBars_[i]->setFormat(
            c.phase.empty()
                ? tr("waiting")
                : tr("%1 %2 / %3").arg(phase).arg(qlonglong(c.done)).arg(qlonglong(c.total)));
    }
}

}  // namespace ppsynth::ui

#include "moc_run_progress.cpp"

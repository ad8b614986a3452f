#include "ui/job_runner.hpp"

#include <algorithm>
#include <cmath>

namespace ppsynth::ui {

ProgressAggregator::Update ProgressAggregator::add(const Progress& p) {
    // Unknown totals count as "started, no idea how far": 0.
    const double f = p.total > 0 ? std::clamp(p.done / p.total, 0.0, 1.0) : 0.0;
    fractions_[p.worker] = f;
    double sum = 0;
    for (const auto& [worker, fraction] : fractions_) sum += fraction;
    const double mean = sum / double(fractions_.size());
    Update u;
    u.permille = static_cast<int>(std::lround(mean * kScale));
    u.restart = u.permille < last_;
    last_ = u.permille;
    return u;
}

}  // namespace ppsynth::ui

#include "moc_job_runner.cpp"

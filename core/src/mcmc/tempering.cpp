#include "mcmc/tempering.hpp"

#include <algorithm>
#include <boost/random/uniform_01.hpp>
#include <cmath>
#include <limits>

namespace ppsynth::mcmc::detail {

Tempering::Tempering(const LogDensity& target, const TemperingOptions& options,
                     const ChainStart* start, const Eigen::VectorXd& q0)
    : target_(target), options_(options) {
    const auto R = static_cast<std::size_t>(std::max(1, options.replicas));
    if (start != nullptr && start->ladder.size() == R) {
        ladder_ = start->ladder;
    } else {
        for (std::size_t j = 0; j < R; ++j)
            ladder_.push_back(R == 1 ? 1.0
                                     : std::pow(options.hottest, static_cast<double>(j) /
                                                                     static_cast<double>(R - 1)));
    }
    for (std::size_t j = 0; j + 1 < R; ++j)
        logGaps_.push_back(std::log(std::log(ladder_[j]) - std::log(ladder_[j + 1])));
    if (start != nullptr && start->replicas.size() + 1 == R)
        states_ = start->replicas;
    else
        states_.assign(R - 1, q0);
    logLik_.assign(R - 1, std::numeric_limits<double>::quiet_NaN());
    acceptSum_.assign(R - 1, 0.0);
    attempts_.assign(R - 1, 0);
    recorded_.assign(R - 1, 0);
    if (start != nullptr && start->rng) parity_ = start->swapParity;
}

double Tempering::swapLogRatio(double tj, double tk, double lj, double lk) {
    return (tj - tk) * (lk - lj);
}

Status Tempering::sweepOthers(Rng& rng, const StopCheck& stop, double anneal) {
    for (std::size_t j = 0; j < states_.size(); ++j) {
        if (!target_.temperedSweep(states_[j], rng, stop, anneal, ladder_[j + 1]))
            return Error{
                "tempering needs a model with a tempered Gibbs sweep (the normal mixture)"};
        logLik_[j] = target_.temperedLogLik(states_[j], anneal);
    }
    return Status::ok();
}

void Tempering::setLadderFromGaps() {
    for (std::size_t j = 0; j < logGaps_.size(); ++j)
        ladder_[j + 1] = ladder_[j] * std::exp(-std::exp(logGaps_[j]));
}

bool Tempering::swap(Eigen::VectorXd& cold, double anneal, Rng& rng, bool learn) {
    if (!active()) return false;
    boost::random::uniform_01<double> unif;
    const double coldLogLik = target_.temperedLogLik(cold, anneal);
    // Replica r's state and likelihood part (r = 0 is cold).
    auto stateOf = [&](std::size_t r) -> Eigen::VectorXd& {
        return r == 0 ? cold : states_[r - 1];
    };
    double ll0 = coldLogLik;
    auto llOf = [&](std::size_t r) -> double& { return r == 0 ? ll0 : logLik_[r - 1]; };
    bool coldChanged = false;
    for (std::size_t j = static_cast<std::size_t>(parity_); j + 1 < ladder_.size(); j += 2) {
        const double lj = llOf(j), lk = llOf(j + 1);
        double logR = swapLogRatio(ladder_[j], ladder_[j + 1], lj, lk);
        if (!std::isfinite(lj) || !std::isfinite(lk))
            logR = -std::numeric_limits<double>::infinity();
        const double a = logR >= 0.0 ? 1.0 : std::exp(logR);  // NaN-free: logR is -inf or finite
        if (learn && options_.adapt) {
            const double gain = std::pow(static_cast<double>(++attempts_[j]), -0.6);
            logGaps_[j] += gain * (a - options_.targetSwap);
        } else if (!learn) {
            acceptSum_[j] += a;
            ++recorded_[j];
        }
        if (unif(rng) < a) {
            stateOf(j).swap(stateOf(j + 1));
            std::swap(llOf(j), llOf(j + 1));
            if (j == 0) coldChanged = true;
        }
    }
    if (learn && options_.adapt) setLadderFromGaps();
    parity_ = 1 - parity_;
    return coldChanged;
}

std::vector<double> Tempering::acceptance() const {
    std::vector<double> out;
    for (std::size_t j = 0; j < acceptSum_.size(); ++j)
        out.push_back(recorded_[j] > 0 ? acceptSum_[j] / static_cast<double>(recorded_[j])
                                       : std::numeric_limits<double>::quiet_NaN());
    return out;
}

}  // namespace ppsynth::mcmc::detail

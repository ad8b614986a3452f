// What a simulation writes and reads back: replicates as JSON (saved blocks), the tables
// replicates.csv, distribution.csv and delta_hat.csv, and summary.json.
#include <nlohmann/json.hpp>

#include "ppsynth/study/simulate.hpp"
#include "study/csv_text.hpp"
#include "study/simulate_json.hpp"

namespace ppsynth::study {

using nlohmann::json;

namespace detail {

json replicateJson(const SimulateReplicate& r) {
    return {
        {"n", r.n},         {"replicate", r.replicate},          {"mechanism", r.mechanism},
        {"delta", r.delta}, {"posterior_mean", r.posteriorMean}, {"zero_weights", r.zeroWeights}};
}

SimulateReplicate replicateFrom(const json& j) {
    return {j.at("n").get<std::size_t>(),         j.at("replicate").get<int>(),
            j.at("mechanism").get<std::string>(), j.at("delta").get<double>(),
            j.at("posterior_mean").get<double>(), j.at("zero_weights").get<std::size_t>()};
}

}  // namespace detail

namespace {

std::string quantileName(double q) {
    return "q" + data::formatNumber(q);
}

}  // namespace

namespace detail {

Status writeTables(const detail::ResumableFolder& folder, const SimulateSummary& s) {
    detail::CsvText reps(
        {"n", "replicate", "mechanism", "delta", "epsilon", "posterior_mean", "zero_weights"});
    for (const auto& r : s.replicates)
        reps.row({static_cast<double>(r.n), static_cast<double>(r.replicate), r.mechanism, r.delta,
                  2 * r.delta, r.posteriorMean, static_cast<double>(r.zeroWeights)});
    std::vector<std::string> header{"n", "mechanism", "min"};
    for (double q : s.config.quantiles) header.push_back(quantileName(q));
    for (const char* h : {"max", "mean", "sd", "safety_low", "safety_high", "epsilon_low",
                          "epsilon_high", "delta_hat_low", "delta_hat_high", "mean_posterior_mean"})
        header.push_back(h);
    detail::CsvText dist(header);
    detail::CsvText hat({"n", "mechanism", "epsilon", "delta_hat"});
    const auto eps = s.config.epsilons();
    for (const auto& d : s.distributions) {
        std::vector<detail::CsvText::Cell> row{static_cast<double>(d.n), d.mechanism, d.min};
        for (double q : d.quantiles) row.push_back(q);
        for (double x : {d.max, d.mean, d.sd, d.recommended.safetyLow, d.recommended.safetyHigh,
                         d.recommended.epsilonLow, d.recommended.epsilonHigh, d.deltaHatLow,
                         d.deltaHatHigh, d.meanPosteriorMean})
            row.push_back(x);
        dist.row(row);
        for (std::size_t k = 0; k < eps.size(); ++k)
            hat.row({static_cast<double>(d.n), d.mechanism, eps[k], d.deltaHat[k]});
    }
    for (const auto& [name, text] :
         {std::pair<std::string, std::string>{"replicates.csv", reps.str()},
          {"distribution.csv", dist.str()},
          {"delta_hat.csv", hat.str()},
          {"summary.json", simulateSummaryJson(s)}})
        if (auto st = folder.writeOutput(name, text); !st) return st;
    return {};
}

}  // namespace detail

std::string simulateSummaryJson(const SimulateSummary& s) {
    json j;
    j["software"] = {{"name", "ppsynth"}, {"version", PPSYNTH_VERSION}};
    j["configuration"] = json::parse(toJson(s.config));
    j["synthesizer"] = s.config.model == "poisson" ? "poisson-means (conjugate, exact draws)"
                                                   : "negbin, intercept only (NUTS)";
    j["seconds"] = s.seconds;
    j["blocks_run"] = s.blocksRun;
    j["blocks_resumed"] = s.blocksResumed;
    j["recommendation_basis"] =
        "2 x safety factor x the median replicate's local Delta (paper 000 sec. 4.5); "
        "delta_hat: share of replicates whose local epsilon exceeds it";
    json list = json::array();
    for (const auto& d : s.distributions) {
        json q = json::object();
        for (std::size_t k = 0; k < d.quantiles.size(); ++k)
            q[data::formatNumber(s.config.quantiles[k])] = d.quantiles[k];
        list.push_back({{"n", d.n},
                        {"mechanism", d.mechanism},
                        {"min", d.min},
                        {"median", d.median},
                        {"max", d.max},
                        {"mean", d.mean},
                        {"sd", d.sd},
                        {"quantiles", q},
                        {"delta_hat", d.deltaHat},
                        {"recommended",
                         {{"safety_factor", {d.recommended.safetyLow, d.recommended.safetyHigh}},
                          {"epsilon", {d.recommended.epsilonLow, d.recommended.epsilonHigh}},
                          {"delta_hat", {d.deltaHatLow, d.deltaHatHigh}}}},
                        {"mean_posterior_mean", d.meanPosteriorMean}});
    }
    j["epsilon_grid"] = s.config.epsilons();
    j["distributions"] = list;
    return j.dump(2);
}

}  // namespace ppsynth::study

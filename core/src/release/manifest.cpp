#include "ppsynth/release/manifest.hpp"

#include <ctime>
#include <nlohmann/json.hpp>

#include "ppsynth/privacy/lipschitz.hpp"

namespace ppsynth::release {

std::string currentUtcIso8601() {
    const std::time_t now = std::time(nullptr);
    std::tm utc{};
    gmtime_r(&now, &utc);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
    return text;
}

namespace {

nlohmann::ordered_json knobsJson(const std::map<std::string, Manifest::Knob>& knobs) {
    nlohmann::ordered_json out = nlohmann::ordered_json::object();
    for (const auto& [name, value] : knobs)
        std::visit([&, &name = name](const auto& v) { out[name] = v; }, value);
    return out;
}

nlohmann::ordered_json modelJson(const Manifest::Model& m) {
    nlohmann::ordered_json model = {{"family", m.family},
                                    {"priors", nlohmann::ordered_json(m.priors)}};
    model["K"] = m.K ? nlohmann::ordered_json(*m.K) : nlohmann::ordered_json(nullptr);
    return model;
}

nlohmann::ordered_json transformJson(const Manifest::Transform& t) {
    return {
        {"name", t.name},
        {"shift", t.shift ? nlohmann::ordered_json(*t.shift) : nlohmann::ordered_json(nullptr)}};
}

}  // namespace

std::string manifestJson(const Manifest& manifest, const ManifestFacts& facts) {
    using nlohmann::ordered_json;
    const double eps = manifest.privacy.epsilonPerDataset;
    const auto m = static_cast<double>(facts.datasets);
    // epsilon = 2 s Delta with the safety factor s; Delta = epsilon_x / 2.
    const privacy::GlobalEpsilon global = privacy::globalEpsilon(eps / 2.0, facts.records);

    ordered_json j;
    j["format"] = kManifestFormat;
    j["format_version"] = 1;
    j["software"] = {{"name", "ppsynth"}, {"version", manifest.softwareVersion}};
    j["created_utc"] = manifest.createdUtc.empty() ? currentUtcIso8601() : manifest.createdUtc;
    // Several sensitive variables: the list beside "target" (their first, as before).
    const bool several = facts.targets.size() > 1;
    if (several)
        j["data"] = {{"records", facts.records},
                     {"datasets", facts.datasets},
                     {"target", facts.target},
                     {"targets", facts.targets},
                     {"target_is_synthetic", true},
                     {"targets_are_synthetic", true},
                     {"predictors", facts.predictors},
                     {"formats", facts.formats},
                     {"files", facts.files}};
    else
        j["data"] = {{"records", facts.records},
                     {"datasets", facts.datasets},
                     {"target", facts.target},
                     {"target_is_synthetic", true},
                     {"predictors", facts.predictors},
                     {"formats", facts.formats},
                     {"files", facts.files}};
    if (!facts.renamed.empty()) {
        ordered_json renamed = ordered_json::object();
        for (const auto& [format, pairs] : facts.renamed) {
            ordered_json names = ordered_json::object();
            for (const auto& [from, to] : pairs) names[from] = to;
            renamed[format] = names;
        }
        j["data"]["renamed_columns"] = renamed;
    }
    j["model"] = modelJson(manifest.model);
    j["transform"] = transformJson(manifest.transform);
    if (several) {
        // In synthesis order: each drawn given the predictors and the synthetic values of the
        // ones before it (METHOD.md section 9).
        ordered_json list = ordered_json::array();
        for (std::size_t k = 0; k < manifest.variables.size(); ++k) {
            const auto& v = manifest.variables[k];
            list.push_back({{"variable", v.name},
                            {"order", k + 1},
                            {"model", modelJson(v.model)},
                            {"transform", transformJson(v.transform)}});
        }
        j["synthesized"] = list;
    }
    j["mechanism"] = {{"synthesizer", manifest.mechanism.synthesizer},
                      {"scheme", manifest.mechanism.scheme},
                      {"knobs", knobsJson(manifest.mechanism.knobs)}};
    j["sampling"] = {
        {"chains", manifest.sampling.chains},
        {"draws_per_chain", manifest.sampling.drawsPerChain},
        {"S", static_cast<long long>(manifest.sampling.chains) * manifest.sampling.drawsPerChain}};
    if (const auto& u = manifest.sampling.untilConverged)
        j["sampling"]["until_converged"] = {{"blocks", u->blocks},
                                            {"block_draws", u->blockDraws},
                                            {"budget_seconds", u->budgetSeconds},
                                            {"stop_reason", u->stopReason}};
    else
        j["sampling"]["until_converged"] = nullptr;
    j["seeds"] = {{"mcmc", manifest.seeds.mcmc}, {"synthesis", manifest.seeds.synthesis}};
    j["privacy"] = {{"epsilon_per_dataset", eps},
                    {"epsilon_total", m * eps},
                    {"datasets", facts.datasets},
                    {"delta_estimate", manifest.privacy.deltaEstimate},
                    {"global_recommendation",
                     {{"safety_factor", {global.safetyLow, global.safetyHigh}},
                      {"epsilon_per_dataset", {global.epsilonLow, global.epsilonHigh}},
                      {"epsilon_total", {m * global.epsilonLow, m * global.epsilonHigh}},
                      {"rule", facts.records >= 1000 ? "n >= 1000: s in [1, 1.05]"
                                                     : "n < 1000: s in [1.05, 1.10]"}}}};
    const auto& conv = manifest.privacy.convergence;
    j["privacy"]["epsilon_convergence"] = {{"diagnosed", conv.diagnosed},
                                           {"converged", conv.converged},
                                           {"reasons", conv.reasons},
                                           {"accepted_unconverged", conv.acceptedUnconverged}};
    if (several)
        j["privacy"]["epsilon_covers"] = {
            {"variables", facts.targets},
            {"meaning",
             "one epsilon for the release of all sensitive variables together, per "
             "dataset and (epsilon_total) for all datasets; not one per variable"}};
    j["notes"] = manifest.notes;
    // Invalid UTF-8 in a name is replaced rather than thrown on.
    return j.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

std::string notAReleaseManifest(const std::string& jsonText) {
    const auto j = nlohmann::json::parse(jsonText, nullptr, false);
    if (j.is_discarded()) return "it is not valid JSON";
    if (!j.is_object()) return "it is not a JSON object";
    const auto format = j.find("format");
    if (format == j.end()) return "it has no \"format\" key";
    if (!format->is_string() || format->get<std::string>() != kManifestFormat)
        return "its \"format\" is " +
               format->dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    return {};
}

}  // namespace ppsynth::release

// One run's configuration (the CLI's CONFIG.json and the GUI's saved project): data and
// roles, model, MCMC settings, the synthesizers to compare with their knobs, m and the risk
// settings. The JSON key names are a contract that scripts outside the project rely on.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "ppsynth/common/expected.hpp"
#include "ppsynth/data/io.hpp"
#include "ppsynth/study/utility_options.hpp"

namespace ppsynth::study {

// Scaled: a vector scheme's weights times a scale a (METHOD.md 3.10). TopCode: the top-coding
// comparator (METHOD.md 3.9), shown beside the synthesizers, never fitted, no epsilon.
enum class Scheme {
    Unweighted,
    Lipschitz,
    Marginal,
    Pairwise,
    Scalar,
    Reweight,
    Sigmoid,
    Scaled,
    TopCode
};
std::string_view toString(Scheme s);

struct SynthesizerConfig {
    std::string name;
    Scheme scheme = Scheme::Unweighted;
    double c = 1.0, g = 0.0;
    std::optional<double> M;        // truncation on top of LW ("Weighted-M")
    std::string source = "data";    // IR source for marginal/pairwise: "data" | "synthetic"
    std::string match;              // scalar: the synthesizer whose epsilon to match
    std::optional<double> epsilon;  // scalar: a target epsilon instead of "match"
    std::string base;               // reweight: the weighted synthesizer to start from
    std::optional<double> k;        // reweight: fixed k; nullopt = "auto" (search)
    double tolerance = 0.02;        // scalar match and reweight bound tolerance
    double sigmoidA = 10.0;         // sigmoid scheme steepness a > 0 (refused otherwise)
    // scaled: alpha = a * alpha_v, alpha_v the weights of `of` (lipschitz, marginal, pairwise
    // or sigmoid, with that scheme's own knobs above); a either given ("scale") or solved by
    // refits so that epsilon_x meets "target_epsilon" within `tolerance`.
    std::optional<Scheme> of;
    std::optional<double> targetEpsilon;
    std::optional<double> scale;
    double topcodeQ = 0.975;  // topcode: y_tc = min(y, t), t the q-quantile of y ("q")
};

// The scheme whose shape the weights have: `of` for a scaled scheme, else the scheme itself.
inline Scheme weightShape(const SynthesizerConfig& s) {
    return s.scheme == Scheme::Scaled && s.of ? *s.of : s.scheme;
}

struct RunConfig {
    struct Data {
        std::string path;  // resolved against the configuration file's folder
        // The sensitive variable; with several ("targets"), the first of them.
        std::string target;
        // "targets": several sensitive variables in the user's order (METHOD.md section 9),
        // target == targets[0]; empty for one sensitive variable ("target", q = 1).
        std::vector<std::string> targets;
        std::vector<std::string> predictors;
        std::vector<std::string> known;
        std::string transform = "none";  // none | log | log-shift | asinh
        std::string missing = "error";   // error | listwise
        std::map<std::string, std::string> referenceLevels;
        std::map<std::string, std::string> types;  // per-column type overrides
        std::size_t maxLevels = 100;
        // data.read: how the data file is read. Part of the run because another dialect
        // (a missing code, no header, decimal commas) reads other records from the same
        // bytes. The defaults detect, as data::CsvOptions and data::StatOptions say.
        struct Read {
            data::CsvOptions csv;  // chunkBytes is not a setting: never read or written
            data::StatOptions stat;
        } read;
    } data;
    struct Model {
        std::string family =
            "normal";  // poisson-means | poisson | negbin | normal | normal-mixture
        int K = 20;
        std::map<std::string, double> priors;  // hyperparameter overrides by name
        // How NUTS handles the coefficient scales tau_j (same posterior either way):
        // "auto" (default), "integrated" or "sampled": models::Priors::tau.
        std::string tau = "auto";
    } model;
    // "models": {"exp_food": {...}}: per sensitive variable, settings that differ from
    // `model` and data.transform (several sensitive variables only); unset ones are taken
    // from there, priors key by key.
    struct ModelOverride {
        std::optional<std::string> family;
        std::optional<int> K;
        std::map<std::string, double> priors;
        std::optional<std::string> tau;
        std::optional<std::string> transform;
    };
    std::map<std::string, ModelOverride> models;
    struct Mcmc {
        int chains = 4, warmup = 1000, draws = 1000, threads = 2, maxTreeDepth = 10;
        double adaptDelta = 0.8;
        std::uint64_t seed = 1;
        // Warm-up of every weighted refit. Refits start from the unweighted chains' final
        // state, step size and metric; below `warmup` only the step size adapts (shown in
        // tst_nuts_models to sample the same target); at `warmup` or above the full
        // adaptation (metric included) is repeated.
        int refitWarmup = 150;
        // "auto" (the model's choice: the Gibbs sweep for the mixture with tau sampled, NUTS
        // otherwise), "nuts" or "gibbs" (study::kernelNamed).
        std::string sampler = "auto";
        int thin = 1;  // iterations per retained draw
        // "draws": "auto": run until converged (study::UntilConverged), in blocks of `draws`
        // draws per chain (written "block_draws"), each fit within budgetSeconds. The default
        // for the normal mixture when the configuration does not set "draws".
        bool drawsAuto = false;
        double budgetSeconds = 600;
        // "tempering": {"replicas": R, "hottest": t_R, "target_swap": a} (Gibbs sampler only;
        // replicas 1 = none): mcmc::TemperingOptions.
        int replicas = 1;
        double hottest = 0.1;
        double targetSwap = 0.3;
    } mcmc;
    struct Synthesis {
        int m = 20;
    } synthesis;
    struct Risk {
        double radius = 0.2;
        bool percentage = true;  // radius_mode "percentage" | "absolute"
        int L = 20;
        double threshold = 0.5;
        double whackAMoleRise = 0.25;
        // "radii": {"exp_food": 0.3}: the box's radius of a sensitive variable (several
        // sensitive variables only); the others take `radius`.
        std::map<std::string, double> radii;
    } risk;
    struct Lipschitz {
        double quantile = 1.0;  // 1 = max over draws; < 1 the robust option
    } lipschitz;
    UtilityOptions utility;  // the "utility" block (METHOD.md section 6)
    std::vector<SynthesizerConfig> synthesizers;

    const SynthesizerConfig* find(const std::string& name) const;
};

// data.read's JSON object on its own, checked as in a configuration (the command line's read
// options go through it).
Expected<RunConfig::Data::Read> parseDataRead(const std::string& jsonObject);

// Parses and validates; `baseDir` resolves a relative data path. Messages name the key
// ("synthesizers[2] 'EM': 'match' names 'LW2', which is not a synthesizer of this run").
Expected<RunConfig> parseRunConfig(const std::string& jsonText, const std::string& baseDir = "");
Expected<RunConfig> loadRunConfig(const std::string& path);
// Canonical JSON of a configuration (every default written out), for reproducibility.
std::string toJson(const RunConfig& config);
// Synthesizers in an order where every synthesizer comes after the ones it refers to.
std::vector<std::size_t> executionOrder(const RunConfig& config);

}  // namespace ppsynth::study

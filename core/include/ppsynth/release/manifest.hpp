// The release manifest (METHOD.md section 9): how the synthetic data were made, in
// aggregate values only. The caller fills what the run knows; the bundle writer adds what it
// can count itself (records, datasets m, released columns, files) and what follows from the
// epsilon (the total over m datasets and the global recommendation), so those never disagree
// with the data written beside them.
#pragma once

#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace ppsynth::release {

struct Manifest {
    std::string softwareVersion = PPSYNTH_VERSION;
    // UTC, ISO 8601 ("2026-11-22T05:35:57Z"); empty: the writer uses the current time.
    std::string createdUtc;

    struct Model {
        std::string family;                    // poisson-means | poisson | negbin | normal | ...
        std::map<std::string, double> priors;  // hyperparameters by name
        std::optional<int> K;                  // mixture components (normal-mixture only)
    } model;

    struct Transform {
        std::string name = "none";    // none | log | log-shift | asinh
        std::optional<double> shift;  // log-shift: y + shift
    } transform;

    // A configuration value of the mechanism: a number (c, g, k, M, r, L), a word
    // (radius_mode, ir_source, base) or a list of names (known variables). Never record-level.
    using Knob = std::variant<double, std::string, std::vector<std::string>>;

    struct Mechanism {
        std::string synthesizer;            // the user's name for it ("LW 0.6")
        std::string scheme;                 // unweighted | lipschitz | marginal | ...
        std::map<std::string, Knob> knobs;  // c, g, k, M, r, ... as used; base_* for reweight
    } mechanism;

    struct Sampling {
        int chains = 0;
        int drawsPerChain = 0;  // kept; S = chains x drawsPerChain
        // A run until converged ("draws": "auto"): the blocks sampled, each block's draws per
        // chain, the budget per fit and why it stopped ("converged" or "budget reached").
        struct UntilConverged {
            int blocks = 0;
            int blockDraws = 0;
            double budgetSeconds = 0;
            std::string stopReason;
        };
        std::optional<UntilConverged> untilConverged;  // nullopt: a fixed length
    } sampling;

    struct Seeds {
        std::uint64_t mcmc = 0;
        std::uint64_t synthesis = 0;
    } seeds;

    // No defaults: a manifest whose caller forgot them is refused (validateReleaseRequest)
    // rather than released claiming a guarantee nobody measured.
    struct Privacy {
        double epsilonPerDataset =
            std::numeric_limits<double>::quiet_NaN();  // epsilon_x = 2 Delta_{alpha,x} > 0
        // How Delta was estimated: "max over draws" or "0.95-quantile over draws".
        std::string deltaEstimate;
        // Whether the run judged epsilon converged (METHOD.md section 2), why not, and
        // whether the person releasing accepted an epsilon that did not converge.
        struct Convergence {
            bool diagnosed = false;  // false: the run predates the epsilon diagnostics
            bool converged = false;
            std::vector<std::string> reasons;
            bool acceptedUnconverged = false;
        } convergence;
    } privacy;

    // Several sensitive variables (METHOD.md section 9): each one's model and transform, in
    // synthesis order (the first's are `model` and `transform` above). Empty for one: the
    // manifest and README are then written as for a one-variable run.
    struct Variable {
        std::string name;
        Model model;
        Transform transform;
    };
    std::vector<Variable> variables;

    std::vector<std::string> notes;  // free text for data users (no record-level values)
};

// What the writer adds to the manifest from the data it writes.
struct ManifestFacts {
    std::size_t records = 0;
    std::size_t datasets = 0;  // m
    std::string target;
    // The synthetic columns in synthesis order (target first); empty or one: one variable.
    std::vector<std::string> targets;
    std::vector<std::string> predictors;  // released columns other than the synthetic ones
    std::vector<std::string> formats;     // "csv", "sav", "dta"
    std::vector<std::string> files;       // data files, relative to the bundle folder
    // Columns a format names otherwise because it does not accept their names (Stata has no
    // "Sepal.Length"): format ("sav", "dta") -> (column, its name in that format's files).
    std::map<std::string, std::vector<std::pair<std::string, std::string>>> renamed;
};

// Current UTC time as ISO 8601 with a trailing Z.
std::string currentUtcIso8601();

// The manifest.json text (pretty-printed, UTF-8). Key names are a contract for scripts.
std::string manifestJson(const Manifest& manifest, const ManifestFacts& facts);

// The value of the manifest's "format" key: what marks a folder as a ppsynth bundle.
inline constexpr const char* kManifestFormat = "ppsynth-release";

// Whether `jsonText` is a manifest ppsynth wrote (a JSON object whose "format" is
// kManifestFormat). Returns an empty string when it is, else what was found instead
// ("it is not valid JSON", "its \"format\" is \"x\"").
std::string notAReleaseManifest(const std::string& jsonText);

}  // namespace ppsynth::release

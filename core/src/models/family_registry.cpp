// Adding a family: write its Model (models/<name>.cpp), then add one FamilyInfo below (and a
// PriorInfo for any new hyperparameter, with its field in models::Priors).
#include "ppsynth/models/family_registry.hpp"

#include <algorithm>

#include "ppsynth/data/transform.hpp"
#include "ppsynth/models/factory.hpp"
#include "ppsynth/models/negbin_regression.hpp"
#include "ppsynth/models/normal_mixture.hpp"
#include "ppsynth/models/normal_regression.hpp"
#include "ppsynth/models/poisson_means.hpp"
#include "ppsynth/models/poisson_regression.hpp"

namespace ppsynth::models {

namespace {

std::vector<std::string> allTransforms() {
    std::vector<std::string> names;
    for (const auto kind : data::kTransformKinds) names.emplace_back(data::toString(kind));
    return names;
}
const std::vector<std::string> kAllTransforms = allTransforms();
const std::vector<std::string> kUntransformed = {"none"};

template <class M>
std::unique_ptr<Model> makeRegression(const ModelSpec& spec, Eigen::MatrixXd X, Eigen::VectorXd y,
                                      std::vector<std::string> columnNames) {
    return std::make_unique<M>(std::move(X), std::move(y), std::move(columnNames), spec.priors,
                               true, spec.cancel);
}

std::unique_ptr<Model> makeMixture(const ModelSpec& spec, Eigen::MatrixXd X, Eigen::VectorXd y,
                                   std::vector<std::string> columnNames) {
    return std::make_unique<NormalMixture>(std::move(X), std::move(y), spec.components,
                                           std::move(columnNames), spec.priors, true, spec.cancel);
}

std::unique_ptr<Model> makePoissonMeans(const ModelSpec& spec, Eigen::MatrixXd /*X*/,
                                        Eigen::VectorXd y, std::vector<std::string> /*names*/) {
    return std::make_unique<PoissonMeans>(std::move(y), spec.priors);
}

}  // namespace

const std::vector<PriorInfo>& priorCatalogue() {
    static const std::vector<PriorInfo> priors = {
        {"tau_df", &Priors::tauDf, "tau: degrees of freedom",
         "How heavy-tailed the prior on each coefficient's scale tau_j is (half-Student-t "
         "degrees of freedom; METHOD.md sec. 1)."},
        {"tau_scale", &Priors::tauScale, "tau: scale",
         "Typical size of a regression coefficient beta_j: its prior scale tau_j is "
         "half-Student-t with this scale."},
        {"sigma_df", &Priors::sigmaDf, "sigma: degrees of freedom",
         "Tail weight of the prior on the residual standard deviation sigma."},
        {"sigma_scale", &Priors::sigmaScale, "sigma: scale",
         "Typical residual standard deviation sigma (of each component in the mixture), on the "
         "transformed scale of y."},
        {"inv_phi_scale", &Priors::invPhiScale, "1/phi: scale",
         "Over-dispersion of the negative binomial: 1/phi is half-Cauchy with this scale "
         "(larger allows more spread than Poisson)."},
        {"mean_shape", &Priors::meanShape, "mu: Gamma shape",
         "Shape of the Gamma prior on each Poisson mean mu."},
        {"mean_rate", &Priors::meanRate, "mu: Gamma rate",
         "Rate of the Gamma prior on each Poisson mean mu (small = vague)."},
        {"gamma_shape", &Priors::gammaShape, "gamma: shape",
         "The mixture weights pi are Dirichlet(gamma/K, ...); gamma's Gamma prior shape. "
         "Smaller gamma leaves more components empty."},
        {"gamma_rate", &Priors::gammaRate, "gamma: rate",
         "Rate of the Gamma prior on the mixture concentration gamma."},
    };
    return priors;
}

const PriorInfo* findPrior(const std::string& name) {
    const auto& all = priorCatalogue();
    auto it =
        std::find_if(all.begin(), all.end(), [&](const PriorInfo& p) { return p.name == name; });
    return it == all.end() ? nullptr : &*it;
}

const std::vector<FamilyInfo>& familyRegistry() {
    static const std::vector<FamilyInfo> families = {
        {.id = "normal",
         .label = "Normal regression",
         .tooltip = "y (after the transform) is normal around a linear predictor.",
         .transforms = kAllTransforms,
         .priors = {"tau_df", "tau_scale", "sigma_df", "sigma_scale"},
         .samplers = {"nuts"},
         .make = &makeRegression<NormalRegression>},
        {.id = "normal-mixture",
         .label = "Normal mixture regression",
         .tooltip = "A mixture of K normal regressions: for skewed or multi-modal y.",
         .mixture = true,
         .transforms = kAllTransforms,
         .priors = {"tau_df", "tau_scale", "sigma_df", "sigma_scale", "gamma_shape", "gamma_rate"},
         .samplers = {"nuts", "gibbs"},
         .make = &makeMixture},
        {.id = "poisson",
         .label = "Poisson regression",
         .tooltip = "Counts y with a log-linear mean.",
         .counts = true,
         .transforms = kUntransformed,
         .priors = {"tau_df", "tau_scale"},
         .samplers = {"nuts"},
         .make = &makeRegression<PoissonRegression>},
        {.id = "negbin",
         .label = "Negative binomial regression",
         .tooltip = "Over-dispersed counts y with a log-linear mean.",
         .counts = true,
         .transforms = kUntransformed,
         .priors = {"tau_df", "tau_scale", "inv_phi_scale"},
         .samplers = {"nuts"},
         .make = &makeRegression<NegBinRegression>},
        {.id = "poisson-means",
         .label = "Poisson means (no predictors)",
         .tooltip = "Counts y with one mean per record pattern.",
         .counts = true,
         .predictors = false,
         .transforms = kUntransformed,
         .priors = {"mean_shape", "mean_rate"},
         .samplers = {"conjugate"},
         .make = &makePoissonMeans},
    };
    return families;
}

bool FamilyInfo::usesPrior(const std::string& name) const {
    return std::find(priors.begin(), priors.end(), name) != priors.end();
}

bool FamilyInfo::hasSampler(const std::string& name) const {
    return std::find(samplers.begin(), samplers.end(), name) != samplers.end();
}

const FamilyInfo* findFamily(const std::string& id) {
    const auto& all = familyRegistry();
    auto it = std::find_if(all.begin(), all.end(), [&](const FamilyInfo& f) { return f.id == id; });
    return it == all.end() ? nullptr : &*it;
}

std::string familyLabel(const std::string& id, int components) {
    const FamilyInfo* family = findFamily(id);
    if (!family) return id;
    if (family->mixture && components > 0)
        return family->label + " (K = " + std::to_string(components) + ")";
    return family->label;
}

bool isMixtureFamily(const std::string& id) {
    const FamilyInfo* family = findFamily(id);
    return family && family->mixture;
}

std::string familyIdList() {
    const auto& all = familyRegistry();
    std::string out;
    for (std::size_t i = 0; i < all.size(); ++i)
        out += (i == 0 ? "" : i + 1 == all.size() ? " or " : ", ") + all[i].id;
    return out;
}

}  // namespace ppsynth::models

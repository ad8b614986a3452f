// The one list of synthesizer model families: everything the rest of the program needs to
// know about a family (its configuration id, what the GUI shows, which response it models,
// which priors and samplers it uses, and how to build it). The factory, the configuration
// parser, the runner, the report and the GUI's Model page all read it, so a new family is
// one entry in family_registry.cpp (plus its model file) and nothing in ui/.
#pragma once

#include <Eigen/Core>
#include <memory>
#include <string>
#include <vector>

#include "ppsynth/models/model.hpp"
#include "ppsynth/models/priors.hpp"

namespace ppsynth::models {

struct ModelSpec;

// A prior hyperparameter under the configuration's name (model.priors.<name>).
struct PriorInfo {
    std::string name;         // "tau_df"
    double Priors::*field;    // where models::Priors keeps it
    std::string label;        // "tau: degrees of freedom"
    std::string description;  // one or two sentences for a tooltip
    double defaultValue() const { return Priors{}.*field; }
};

// Every hyperparameter a family may read, in the order the Model page lists them.
const std::vector<PriorInfo>& priorCatalogue();
// nullptr for a name no family reads.
const PriorInfo* findPrior(const std::string& name);

// Builds the model from checked inputs (makeModel checks them first).
using MakeModelFn = std::unique_ptr<Model> (*)(const ModelSpec& spec, Eigen::MatrixXd X,
                                               Eigen::VectorXd y,
                                               std::vector<std::string> columnNames);

struct FamilyInfo {
    std::string id;       // the configuration's model.family: "normal", "negbin", ...
    std::string label;    // "Normal regression"
    std::string tooltip;  // one sentence on what it models
    // y as non-negative whole numbers, modelled untransformed (the transform must be "none").
    bool counts = false;
    // A linear predictor on the design columns (with coefficient scales tau_j); false: one
    // mean per record pattern, X is not used.
    bool predictors = true;
    // A mixture of K components (model.K): parameters switch labels between draws, so they
    // are summarised label-invariantly.
    bool mixture = false;
    // The transforms of y it accepts (data.transform).
    std::vector<std::string> transforms;
    // The hyperparameters it reads (names in priorCatalogue()), in catalogue order.
    std::vector<std::string> priors;
    // The samplers it can be fitted with: "conjugate" (exact draws, no MCMC), "nuts",
    // "gibbs" (the family's own sweep; mcmc.sampler).
    std::vector<std::string> samplers;
    MakeModelFn make = nullptr;

    bool usesPrior(const std::string& name) const;
    bool hasSampler(const std::string& name) const;
};

// Every family, in the order the GUI offers them.
const std::vector<FamilyInfo>& familyRegistry();
// nullptr for an unknown id.
const FamilyInfo* findFamily(const std::string& id);
// What a person reads for a family: "Normal regression", or "Normal mixture (K = 20)" with
// the mixture's components; the id itself when it is unknown (a run folder from elsewhere).
std::string familyLabel(const std::string& id, int components = 0);
// The registry's `mixture` for an id (false for an unknown id).
bool isMixtureFamily(const std::string& id);
// "normal, normal-mixture, poisson, negbin or poisson-means": the ids for messages.
std::string familyIdList();

}  // namespace ppsynth::models

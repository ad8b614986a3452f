// Several sensitive variables (METHOD.md section 9): the q conditionals of a run as one model.
// Conditional k is the configured model of y^(k) (its family, transform and priors) given the
// predictors and y^(1..k-1), which enter as numeric predictors on their transformed scale,
// standardized with the confidential values' mean and sd. JointModel puts the conditionals'
// parameters side by side, q = (theta_1, ..., theta_q), so what the runner does with one
// model's draws (record log-likelihoods, bounds, constrained summaries) it does with the
// joint: l_{s,i} = sum_k l^(k)_{s,i}. Fitting and synthesis go through fitAny and
// synthesizeAny, which fit each conditional on its own with the same weights and synthesize
// sequentially.
#pragma once

#include <Eigen/Core>
#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "ppsynth/common/expected.hpp"
#include "ppsynth/data/prepare.hpp"
#include "ppsynth/data/table.hpp"
#include "ppsynth/models/factory.hpp"
#include "ppsynth/models/model.hpp"
#include "ppsynth/study/fit.hpp"
#include "ppsynth/study/run_config.hpp"
#include "ppsynth/study/synthesis.hpp"

namespace ppsynth::study {

class JointModel final : public models::Model {
  public:
    struct Part {
        std::string target;
        models::ModelSpec spec;
        std::shared_ptr<const models::Model> model;  // y^(k) given x and y^(<k)
        data::Transform transform;
        Eigen::VectorXd yOriginal;  // original scale (the risk measures')
        Eigen::VectorXd y;          // transformed (the model's)
        bool counts = false;
        // z = (y - centre) / scale: y^(k) as a predictor of later variables.
        double centre = 0, scale = 1;
        Eigen::Index offset = 0, dimension = 0;  // its coordinates in the joint q
        std::size_t reported = 0;                // its constrained parameters
    };

    // parts in synthesis order; X, names: the predictors' design (shared by every part).
    JointModel(std::vector<Part> parts, Eigen::MatrixXd X, std::vector<std::string> names);

    const std::vector<Part>& parts() const { return parts_; }
    std::size_t variableCount() const { return parts_.size(); }
    // y^(1..q) on the original scale, variable after variable (q n values).
    std::vector<double> originalValues() const;
    // The design of conditional k with earlier variables' values z (transformed scale, one
    // vector per earlier variable) as standardized columns.
    Eigen::MatrixXd designFor(std::size_t k, const std::vector<Eigen::VectorXd>& earlier) const;
    std::vector<std::string> designNames(std::size_t k) const;
    Eigen::VectorXd segment(const Eigen::VectorXd& q, std::size_t k) const {
        return q.segment(parts_[k].offset, parts_[k].dimension);
    }

    std::string family() const override { return "joint"; }
    std::size_t recordCount() const override;
    std::size_t dimension() const override;
    // "<target>: <name>" for every conditional's reported parameter.
    std::vector<std::string> parameterNames() const override;
    Eigen::VectorXd constrain(const Eigen::VectorXd& q) const override;
    // The sum over the conditionals (they are independent a priori).
    double logPosterior(const Eigen::VectorXd& q, const Eigen::VectorXd& alpha,
                        Eigen::VectorXd& grad) const override;
    // l_i = sum_k log p(y_i^(k) | x_i, y_i^(<k), theta_k): the joint record log-likelihood.
    void recordLogLik(const Eigen::VectorXd& q, Eigen::Ref<Eigen::VectorXd> out) const override;
    // y^(1) only (one vector): the sequential synthesis of every variable is synthesizeAny's.
    void predict(const Eigen::VectorXd& q, Rng& rng,
                 Eigen::Ref<Eigen::VectorXd> out) const override;
    Eigen::VectorXd initialPoint(Rng& rng) const override;
    double meanPrediction(const Eigen::VectorXd& q) const override;

  private:
    std::vector<Part> parts_;
    Eigen::MatrixXd X_;
    std::vector<std::string> names_;
};

// The conditionals of config's data.targets on `table`. `first` holds the prepared inputs of
// the first sensitive variable (its rows are every conditional's rows: a record missing any
// sensitive value is dropped or refused for all, by data.missing).
Expected<std::shared_ptr<const JointModel>> makeJointModel(const RunConfig& config,
                                                           const data::Table& table,
                                                           const data::ModelInputs& first,
                                                           const std::atomic<bool>* cancel);

// fitModel for one model; for a JointModel each conditional fitted on its own with the same
// alpha (conditional k > 1 on the seed namedSeed(seed, "conditional <target>")), the draws
// aligned by chain and index (each chain cut to the shortest conditional's length) and put
// side by side, and the Lipschitz quantities streamed from the joint l. options.sampler.starts
// holds, for a joint model, each conditional's chain starts one conditional after another
// (the joint Fit's warmStarts are laid out alike). Diagnostics: every conditional's,
// quantities named "<target>: <name>".
Expected<Fit> fitAny(const models::Model& model, const Eigen::VectorXd& alpha,
                     const FitOptions& options);

// synthesize for one model; for a JointModel, sequential: for dataset l with draw s,
// y*^(1) ~ p(. | x, theta_1s), then y*^(2) ~ p(. | x, y*^(1), theta_2s), ... (the earlier
// synthetic values enter on the transformed scale, standardized as in the fit), each variable
// back-transformed (and kept whole for counts) by its own conditional; options.backTransform
// and options.integer are then not used. Each dataset holds q n values, variable after
// variable.
Expected<std::vector<std::vector<double>>> synthesizeAny(const models::Model& model,
                                                         const Eigen::MatrixXd& draws,
                                                         const std::vector<std::size_t>& chosen,
                                                         const SynthesisOptions& options);

}  // namespace ppsynth::study

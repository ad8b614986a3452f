#include "ppsynth/study/joint_model.hpp"

#include <cmath>

#include "ppsynth/models/family_registry.hpp"
#include "ppsynth/study/run_data.hpp"
#include "ppsynth/study/runner.hpp"
#include "ppsynth/study/targets.hpp"

namespace ppsynth::study {

JointModel::JointModel(std::vector<Part> parts, Eigen::MatrixXd X, std::vector<std::string> names)
    : parts_(std::move(parts)), X_(std::move(X)), names_(std::move(names)) {}

std::size_t JointModel::recordCount() const {
    return parts_.front().model->recordCount();
}

std::size_t JointModel::dimension() const {
    return static_cast<std::size_t>(parts_.back().offset + parts_.back().dimension);
}

std::vector<double> JointModel::originalValues() const {
    std::vector<double> out;
    for (const auto& p : parts_) out.insert(out.end(), p.yOriginal.begin(), p.yOriginal.end());
    return out;
}

Eigen::MatrixXd JointModel::designFor(std::size_t k,
                                      const std::vector<Eigen::VectorXd>& earlier) const {
    Eigen::MatrixXd X(X_.rows(), X_.cols() + static_cast<Eigen::Index>(k));
    X.leftCols(X_.cols()) = X_;
    for (std::size_t j = 0; j < k; ++j)
        X.col(X_.cols() + static_cast<Eigen::Index>(j)) =
            (earlier[j].array() - parts_[j].centre) / parts_[j].scale;
    return X;
}

std::vector<std::string> JointModel::designNames(std::size_t k) const {
    std::vector<std::string> names = names_;
    for (std::size_t j = 0; j < k; ++j) names.push_back(parts_[j].target);
    return names;
}

std::vector<std::string> JointModel::parameterNames() const {
    std::vector<std::string> out;
    for (const auto& p : parts_)
        for (const auto& name : p.model->parameterNames()) out.push_back(p.target + ": " + name);
    return out;
}

Eigen::VectorXd JointModel::constrain(const Eigen::VectorXd& q) const {
    std::vector<Eigen::VectorXd> pieces;
    Eigen::Index size = 0;
    for (std::size_t k = 0; k < parts_.size(); ++k) {
        const auto reported = static_cast<Eigen::Index>(parts_[k].reported);
        pieces.push_back(parts_[k].model->constrain(segment(q, k)).head(reported));
        size += reported;
    }
    Eigen::VectorXd out(size);
    Eigen::Index at = 0;
    for (const auto& p : pieces) {
        out.segment(at, p.size()) = p;
        at += p.size();
    }
    return out;
}

double JointModel::logPosterior(const Eigen::VectorXd& q, const Eigen::VectorXd& alpha,
                                Eigen::VectorXd& grad) const {
    grad.setZero(q.size());
    double lp = 0;
    Eigen::VectorXd g;
    for (std::size_t k = 0; k < parts_.size(); ++k) {
        lp += parts_[k].model->logPosterior(segment(q, k), alpha, g);
        grad.segment(parts_[k].offset, parts_[k].dimension) = g;
    }
    return lp;
}

void JointModel::recordLogLik(const Eigen::VectorXd& q, Eigen::Ref<Eigen::VectorXd> out) const {
    Eigen::VectorXd l(out.size());
    out.setZero();
    for (std::size_t k = 0; k < parts_.size(); ++k) {
        parts_[k].model->recordLogLik(segment(q, k), l);
        out += l;
    }
}

void JointModel::predict(const Eigen::VectorXd& q, Rng& rng,
                         Eigen::Ref<Eigen::VectorXd> out) const {
    parts_.front().model->predict(segment(q, 0), rng, out);
}

Eigen::VectorXd JointModel::initialPoint(Rng& rng) const {
    Eigen::VectorXd q(static_cast<Eigen::Index>(dimension()));
    for (std::size_t k = 0; k < parts_.size(); ++k)
        q.segment(parts_[k].offset, parts_[k].dimension) = parts_[k].model->initialPoint(rng);
    return q;
}

double JointModel::meanPrediction(const Eigen::VectorXd& q) const {
    return parts_.front().model->meanPrediction(segment(q, 0));
}

namespace {

// Mean and sd (n - 1) as data/design_matrix.cpp standardizes numeric predictors.
void standardization(const Eigen::VectorXd& y, double& centre, double& scale) {
    const double n = static_cast<double>(y.size());
    centre = y.sum() / n;
    const double ss = (y.array() - centre).square().sum();
    scale = y.size() > 1 ? std::sqrt(ss / (n - 1)) : 0.0;
    if (!(scale > 0) || !std::isfinite(scale)) scale = 1.0;
}

}  // namespace

Expected<std::shared_ptr<const JointModel>> makeJointModel(const RunConfig& config,
                                                           const data::Table& table,
                                                           const data::ModelInputs& first,
                                                           const std::atomic<bool>* cancel) {
    const auto targets = sensitiveVariables(config);
    std::vector<JointModel::Part> parts;
    Eigen::Index offset = 0;
    std::vector<Eigen::VectorXd> earlier;
    for (std::size_t k = 0; k < targets.size(); ++k) {
        RunConfig ck = config;
        ck.data.target = targets[k];
        data::ModelInputs own;
        if (k > 0) {
            auto in = prepareRunInputs(ck, table, cancel);
            if (!in) return in.error().prefixed("sensitive variable '" + targets[k] + "': ");
            if (in->keptRows != first.keptRows)
                return Error::internal("sensitive variable '" + targets[k] +
                                       "' was prepared on other rows than '" + targets[0] + "'");
            own = std::move(*in);
        }
        const data::ModelInputs& in = k == 0 ? first : own;
        const RunConfig::Model m = modelFor(config, targets[k]);
        auto priors = priorsFromConfig(m.priors);
        if (!priors) return priors.error().prefixed("models." + targets[k] + ": ");
        JointModel::Part p;
        p.target = targets[k];
        p.spec.family = m.family;
        p.spec.components = m.K;
        p.spec.priors = *priors;
        p.spec.priors.tau = models::tauFormFromString(m.tau).value_or(models::TauForm::Automatic);
        p.transform = in.transform;
        p.yOriginal = in.yOriginal;
        p.y = in.y;
        p.counts = models::isCountFamily(m.family);
        standardization(p.y, p.centre, p.scale);
        parts.push_back(p);
        const JointModel sofar(parts, first.X, first.columnNames());
        auto model =
            models::makeModel(p.spec, sofar.designFor(k, earlier), p.y, sofar.designNames(k));
        if (!model) return model.error().prefixed("sensitive variable '" + targets[k] + "': ");
        auto& part = parts.back();
        part.model = std::move(*model);
        part.offset = offset;
        part.dimension = static_cast<Eigen::Index>(part.model->dimension());
        part.reported = part.model->parameterNames().size();
        offset += part.dimension;
        earlier.push_back(p.y);
        if (cancel && cancel->load()) return Error::cancelled();
    }
    return std::make_shared<const JointModel>(std::move(parts), first.X, first.columnNames());
}

}  // namespace ppsynth::study

// The Model page: the synthesizer's family (and K for the mixture), the transform of y,
// the priors (METHOD.md's defaults, editable) and the MCMC settings. It reads from and
// writes to a study::RunConfig, the same configuration the CLI runs.
#pragma once

#include <QWidget>
#include <cstdint>
#include <map>
#include <string>

#include "ppsynth/study/run_config.hpp"

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace ppsynth::ui {

class ExactSpinBox;

// The page's limits are core's (study::limits beside study::validate,
// models::Priors::validate): one draw, any number of chains or threads, a 64-bit seed, any
// positive prior; a configuration from the command line or a project is shown and written
// back as it is.
class ModelPage : public QWidget {
    Q_OBJECT
  public:
    explicit ModelPage(QWidget* parent = nullptr);

    // Writes family, K, priors, transform, missing policy, MCMC settings and the tau
    // handling into `config`.
    void apply(study::RunConfig& config) const;
    // Shows `config`'s model and MCMC settings (priors it does not name keep the defaults).
    void load(const study::RunConfig& config);
    // Back to METHOD.md's defaults for every prior.
    void resetPriors();
    // The transform core suggests for the data's target (data::SuggestedRoles): shown with
    // its reason beside the transform and, with `apply`, made the current choice (a fresh
    // table; an opened project keeps its own). Empty `transform`: no suggestion.
    void suggestTransform(const std::string& transform, const std::string& reason, bool apply);
    QLabel* transformNote() const { return transformNote_; }

    QComboBox* familyBox() const { return family_; }
    QSpinBox* componentsBox() const { return K_; }
    QComboBox* transformBox() const { return transform_; }
    ExactSpinBox* priorBox(const std::string& name) const;
    QSpinBox* chainsBox() const { return chains_; }
    QSpinBox* warmupBox() const { return warmup_; }
    QSpinBox* drawsBox() const { return draws_; }
    // "until converged" beside the draws (mcmc "draws": "auto"); the draws are then a block.
    QCheckBox* untilConvergedBox() const { return untilConverged_; }
    // The draws' label: "Draws", or "Draws per block" while until converged is on.
    QLabel* drawsLabel() const { return drawsLabel_; }
    // The time budget of a run until converged, per fit (mcmc "budget_seconds"); enabled
    // while until converged is on.
    ExactSpinBox* budgetBox() const { return budget_; }
    // Digits of a 64-bit unsigned number.
    QLineEdit* seedBox() const { return seed_; }
    QSpinBox* threadsBox() const { return threads_; }
    QComboBox* tauBox() const { return tau_; }
    QComboBox* samplerBox() const { return sampler_; }
    // Says why the chosen sampler does not apply to the model (hidden when it does).
    QLabel* samplerNote() const { return samplerNote_; }
    QSpinBox* thinBox() const { return thin_; }

  signals:
    void changed();

  private:
    QWidget* buildModelGroup();
    QWidget* buildPriorGroup();
    QWidget* buildMcmcGroup();
    void updateRelevance();
    void updateTransformNote();
    void updateUntilConverged();

    QComboBox* family_ = nullptr;
    QSpinBox* K_ = nullptr;
    QComboBox* transform_ = nullptr;
    QComboBox* missing_ = nullptr;
    QLabel* familyNote_ = nullptr;
    QLabel* transformNote_ = nullptr;
    QString suggestedTransform_;
    QString suggestedReason_;
    std::map<std::string, ExactSpinBox*> priors_;
    std::map<std::string, QLabel*> priorLabels_;
    QSpinBox* chains_ = nullptr;
    QSpinBox* warmup_ = nullptr;
    QSpinBox* draws_ = nullptr;
    QCheckBox* untilConverged_ = nullptr;
    QLabel* drawsLabel_ = nullptr;
    QLabel* budgetLabel_ = nullptr;
    ExactSpinBox* budget_ = nullptr;
    bool untilConvergedChosen_ = false;  // the user clicked it: a family change keeps it
    QLineEdit* seed_ = nullptr;
    std::uint64_t seedValue_ = 1;  // the last complete number typed or loaded
    QSpinBox* threads_ = nullptr;
    QComboBox* tau_ = nullptr;
    QComboBox* sampler_ = nullptr;
    QLabel* samplerNote_ = nullptr;
    QSpinBox* thin_ = nullptr;
};

}  // namespace ppsynth::ui

// The Model page: the synthesizer's family (and K for the mixture), the transform of y,
// the priors (METHOD.md's defaults, editable) and the MCMC settings. It reads from and
// writes to a study::RunConfig, the same configuration the CLI runs. With several sensitive
// variables (METHOD.md section 9) each has its own model (family, K, transform, priors,
// coefficient scales), chosen with the variable box at the top; the MCMC settings are shared.
#pragma once

#include <QWidget>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "ppsynth/study/run_config.hpp"

class QCheckBox;
class QComboBox;
class QGroupBox;
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
    // handling into `config`. With two or more config.data.targets (the Data page's, set
    // before) the first variable's model goes to
    // `model` and data.transform and the others' to "models" (only what differs, and what
    // the loaded configuration set there), so a loaded configuration is written back as it
    // was; with fewer, "models" is cleared.
    void apply(study::RunConfig& config) const;
    // Shows `config`'s model and MCMC settings (priors it does not name keep the defaults),
    // one model per sensitive variable of data.targets.
    void load(const study::RunConfig& config);
    // The sensitive variables in synthesis order (the Data page's). A variable not seen
    // before starts with the first variable's model, or, when it is one of `counts` (columns
    // of non-negative integers) and not the first, with a Poisson regression without a
    // transform (the page says why); one that leaves and comes back keeps its own. With two
    // or more, the variable box is shown.
    void setTargets(const std::vector<std::string>& targets,
                    const std::set<std::string>& counts = {});
    // Why the shown variable's model is what it started as (empty when it was not chosen
    // for it).
    QLabel* defaultNote() const { return defaultNote_; }
    const std::vector<std::string>& targets() const { return targets_; }
    // Which sensitive variable's model the page shows (with two or more).
    QComboBox* variableBox() const { return variable_; }
    QWidget* variableBar() const { return variableBar_; }
    // Shows the model of `target`, one of targets().
    void showVariable(const std::string& target);
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
    // Tempered copies of each chain for the mixture's Gibbs sampler (mcmc "tempering"
    // "replicas"; 1: none). Enabled only where that sampler applies; a loaded value is kept.
    QSpinBox* replicasBox() const { return replicas_; }

  signals:
    void changed();

  private:
    // What one sensitive variable's model holds (study::modelFor and transformFor).
    struct VariableModel {
        std::string family = "normal";
        int K = 20;
        std::string tau = "auto";
        std::string transform = "none";
        std::map<std::string, double> priors;  // every prior of the catalogue
    };
    VariableModel shownModel() const;
    void showModel(const VariableModel& model);
    VariableModel modelOf(const std::string& target) const;
    void updateVariableBar();
    QWidget* buildVariableBar();
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
    QLabel* defaultNote_ = nullptr;
    std::map<std::string, QString> defaultReasons_;  // variable -> why its model started so
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
    QSpinBox* replicas_ = nullptr;
    QLabel* replicasLabel_ = nullptr;

    std::vector<std::string> targets_;
    std::map<std::string, VariableModel> variables_;  // by name; the shown one's may be stale
    std::string shownName_;   // whose model the widgets show (empty: none chosen yet)
    bool switching_ = false;  // the widgets are being set to another variable's model
    // The last loaded configuration's model, transform and "models": apply writes a variable's
    // setting where that configuration had it.
    study::RunConfig::Model loadedModel_;
    std::string loadedTransform_ = "none";
    std::map<std::string, study::RunConfig::ModelOverride> loadedModels_;
    QWidget* variableBar_ = nullptr;
    QComboBox* variable_ = nullptr;
    QGroupBox* modelGroup_ = nullptr;
    QGroupBox* priorGroup_ = nullptr;
};

}  // namespace ppsynth::ui

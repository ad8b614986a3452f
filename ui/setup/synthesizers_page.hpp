// The Synthesizers page: tick the synthesizers to compare (Unweighted, LW, LW-M, CW,
// Pairwise, EM, re-weighted), name them, tune their knobs (c, g, M, k; CW/Pairwise's risk
// source; EM's match target), the run's m, L and radius r; beside them the live weight
// preview of the LW synthesizer being tuned.
#pragma once

#include <QString>
#include <QWidget>
#include <vector>

#include "ppsynth/common/expected.hpp"
#include "ppsynth/study/run_config.hpp"

class QComboBox;
class QGroupBox;
class QLineEdit;
class QSpinBox;

namespace ppsynth::ui {

class KnobEditor;
class WeightPreviewPanel;

class SynthesizersPage : public QWidget {
    Q_OBJECT
  public:
    // The kinds offered, in the page's order.
    enum Kind { Unweighted, LW, LWM, CW, Pairwise, EM, Reweighted, KindCount };

    explicit SynthesizersPage(QWidget* parent = nullptr);

    // Writes m, L, r and the ticked synthesizers into `config`; fails with a message a
    // person can act on (nothing ticked, duplicate names, EM's target not ticked, ...).
    Status apply(study::RunConfig& config) const;
    // Shows `config`'s synthesizers (matched to kinds by scheme) and its m, L and r.
    void load(const study::RunConfig& config);

    void setTicked(Kind kind, bool on);
    bool isTicked(Kind kind) const;
    QString name(Kind kind) const;
    void setName(Kind kind, const QString& name);
    // nullptr when the kind does not have that knob ("c", "g", "M", "k").
    KnobEditor* knob(Kind kind, const QString& knob) const;
    QGroupBox* box(Kind kind) const;
    QComboBox* sourceBox(Kind kind) const;
    QComboBox* matchBox() const { return match_; }
    QComboBox* baseBox() const { return base_; }
    QSpinBox* mBox() const { return m_; }
    QSpinBox* lBox() const { return L_; }
    KnobEditor* radiusKnob() const { return r_; }
    // Whether r is a fraction of the record's value (risk.percentage) or in units of y.
    QComboBox* radiusModeBox() const { return radiusMode_; }
    WeightPreviewPanel* previewPanel() const { return preview_; }

    // Redraws the preview for the LW kind last tuned (LW unless LW-M was touched last).
    void refreshPreview();

  signals:
    void changed();

  private:
    struct Row {
        QGroupBox* box = nullptr;
        QLineEdit* name = nullptr;
        KnobEditor* c = nullptr;
        KnobEditor* g = nullptr;
        KnobEditor* M = nullptr;
        KnobEditor* k = nullptr;
        QComboBox* source = nullptr;
    };
    QWidget* buildRow(Kind kind);
    QWidget* buildRunGroup();
    void updateTargets();
    void updateRadiusRange();

    std::vector<Row> rows_;
    QComboBox* match_ = nullptr;
    QComboBox* base_ = nullptr;
    QSpinBox* m_ = nullptr;
    QSpinBox* L_ = nullptr;
    KnobEditor* r_ = nullptr;
    QComboBox* radiusMode_ = nullptr;
    WeightPreviewPanel* preview_ = nullptr;
    Kind previewKind_ = LW;
};

}  // namespace ppsynth::ui

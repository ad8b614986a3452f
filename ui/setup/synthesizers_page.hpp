// The Synthesizers page: the list of synthesizers to compare, one row each (SynthesizerRow:
// its kind, name and knobs), added from the Add menu, duplicated (LW at several c) or
// removed; the run's m, L and radius r; beside them the live weight preview of the LW or
// LW-M row being tuned. Every synthesizer a study::RunConfig can hold has a row, so a
// loaded configuration is written back as it was.
#pragma once

#include <QPointer>
#include <QString>
#include <QWidget>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "ppsynth/common/expected.hpp"
#include "ppsynth/study/run_config.hpp"
#include "ui/setup/synthesizer_row.hpp"

class QComboBox;
class QFormLayout;
class QMenu;
class QPushButton;
class QScrollArea;
class QSpinBox;
class QVBoxLayout;

namespace ppsynth::ui {

class ExactSpinBox;
class KnobEditor;
class WeightPreviewPanel;

class SynthesizersPage : public QWidget {
    Q_OBJECT
  public:
    using Kind = SynthesizerRow::Kind;

    explicit SynthesizersPage(QWidget* parent = nullptr);

    // Writes m, L, r (and with two or more config.data.targets the radius of each that has
    // its own, risk.radii) and the listed synthesizers into `config`; fails with a message a
    // person can act on (none listed, no name, duplicate names, EM's target not chosen, a
    // cycle of references, ...).
    Status apply(study::RunConfig& config) const;
    // Shows `config`'s synthesizers, one row each in its order, and its m, L and r.
    void load(const study::RunConfig& config);

    const std::vector<SynthesizerRow*>& rows() const { return rows_; }
    int rowCount() const { return static_cast<int>(rows_.size()); }
    // The first row of `kind`, or nullptr.
    SynthesizerRow* firstRow(Kind kind) const;
    SynthesizerRow* findRow(const QString& name) const;
    // Appends a row of `kind` with a name no row has yet; EM matches, and a re-weighting
    // starts from, the first weighted row.
    SynthesizerRow* addRow(Kind kind);
    // Appends a copy of `row`'s settings under a new name.
    SynthesizerRow* duplicateRow(SynthesizerRow* row);
    void removeRow(SynthesizerRow* row);
    void clearRows();

    QPushButton* addButton() const { return add_; }
    QMenu* addMenu() const { return addMenu_; }
    QSpinBox* mBox() const { return m_; }
    QSpinBox* lBox() const { return L_; }
    KnobEditor* radiusKnob() const { return r_; }
    // Whether r is a fraction of the record's value (risk.percentage) or in units of y.
    QComboBox* radiusModeBox() const { return radiusMode_; }
    // Several sensitive variables (METHOD.md section 9): the box's radius of each, r unless
    // the variable has its own (risk.radii). Shown with two or more.
    void setTargets(const std::vector<std::string>& targets);
    // The radius box of `target`, or nullptr.
    ExactSpinBox* radiusBox(const std::string& target) const;
    WeightPreviewPanel* previewPanel() const { return preview_; }

    // Redraws the preview for the LW or LW-M row last tuned (else the first one).
    void refreshPreview();

  signals:
    void changed();

  private:
    // Inserts a row at `index` named `name`, or showing `loaded` when given; its signals are
    // connected after, so setting it up is not taken for an edit.
    SynthesizerRow* insertRow(int index, Kind kind, const QString& name,
                              const study::SynthesizerConfig* loaded = nullptr);
    QString unusedName(const QString& base) const;
    QWidget* buildRunGroup();
    void updateTargets();
    void updateRadiusRange();
    void rebuildRadii();
    void showInheritedRadii();

    std::vector<SynthesizerRow*> rows_;
    QScrollArea* scroll_ = nullptr;
    QVBoxLayout* list_ = nullptr;
    QPushButton* add_ = nullptr;
    QMenu* addMenu_ = nullptr;
    QSpinBox* m_ = nullptr;
    QSpinBox* L_ = nullptr;
    KnobEditor* r_ = nullptr;
    QComboBox* radiusMode_ = nullptr;
    QWidget* radiiBox_ = nullptr;
    QFormLayout* radiiForm_ = nullptr;
    std::vector<std::string> targets_;
    std::map<std::string, double> ownRadii_;  // variables given a radius of their own
    std::map<std::string, ExactSpinBox*> radiusBoxes_;
    WeightPreviewPanel* preview_ = nullptr;
    QPointer<SynthesizerRow> previewRow_;
};

}  // namespace ppsynth::ui

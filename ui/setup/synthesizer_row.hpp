// One synthesizer on the Synthesizers page: a group of its kind (Unweighted, LW, LW-M, CW,
// Pairwise, Sigmoid, EM, Re-weighted) with its name and knobs, Duplicate and Remove. A row
// shows every field of the study::SynthesizerConfig it was loaded from and writes back
// what it does not edit unchanged, so a configured synthesizer survives the page.
#pragma once

#include <QGroupBox>
#include <QString>
#include <QStringList>

#include "ppsynth/study/run_config.hpp"

class QComboBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QToolButton;

namespace ppsynth::ui {

class KnobEditor;

class SynthesizerRow : public QGroupBox {
    Q_OBJECT
  public:
    // The kinds, in the Add menu's order.
    enum Kind { Unweighted, LW, LWM, CW, Pairwise, Sigmoid, EM, Reweighted, TopCoded, KindCount };
    // How an EM row's target epsilon is given (targetBox()'s items).
    enum Target { MatchTarget, FixedEpsilon };

    explicit SynthesizerRow(Kind kind, QWidget* parent = nullptr);

    static Kind kindOf(const study::SynthesizerConfig& s);
    static study::Scheme schemeOf(Kind kind);
    static QString title(Kind kind);
    static QString about(Kind kind);
    static QString defaultName(Kind kind);  // "LW", "EM", ...
    // Kinds whose weights depend on the records, which a re-weighting can start from.
    // What EM may match and a re-weighting start from (the top-coding comparator has no
    // weights and no epsilon).
    static bool hasRecordWeights(Kind kind) { return kind != Unweighted && kind != TopCoded; }

    Kind kind() const { return kind_; }
    // As typed, without surrounding blanks.
    QString name() const;
    void setName(const QString& name);
    // The name written to the configuration: the loaded one when it was not edited.
    std::string configName() const;
    // Why the name cannot be a file name (core's checkSafeName), or empty when it can.
    QString nameProblem() const;

    // nullptr when the kind has no such knob: "c", "g", "M", "k", "a", "epsilon",
    // "tolerance", "target_epsilon" (vector kinds: checked makes the row the scaled scheme).
    KnobEditor* knob(const QString& name) const;
    QComboBox* sourceBox() const { return source_; }  // CW, Pairwise, Sigmoid
    QComboBox* targetBox() const { return target_; }  // EM: match or a fixed epsilon
    QComboBox* matchBox() const { return match_; }    // EM
    QComboBox* baseBox() const { return base_; }      // Re-weighted
    QLineEdit* nameEdit() const { return name_; }
    QToolButton* duplicateButton() const { return duplicate_; }
    QToolButton* removeButton() const { return remove_; }

    // The synthesizer EM matches / the re-weighting starts from, by name ("" when none is
    // chosen). Kept by name, so renaming the target (renameReference) keeps the choice.
    QString match() const { return matchRef_; }
    QString base() const { return baseRef_; }
    void setMatch(const QString& name);
    void setBase(const QString& name);
    void renameReference(const QString& from, const QString& to);
    // Refills the match and base boxes with the synthesizers that can serve.
    void setCandidates(const QStringList& match, const QStringList& base);

    // Shows `s` (a synthesizer of this row's kind); fields the row has no widget for are
    // kept for config().
    void load(const study::SynthesizerConfig& s);
    study::SynthesizerConfig config() const;

  signals:
    void changed();
    // A knob moved (drives the weight preview of LW and LW-M rows).
    void knobMoved();
    void renamed(const QString& from, const QString& to);
    void duplicateRequested();
    void removeRequested();

  private:
    void updateNameNote();
    void build();
    void updateTargetRows();
    static void refill(QComboBox* box, const QStringList& names, const QString& keep);

    Kind kind_;
    study::SynthesizerConfig loaded_;  // what the row was loaded from (defaults when new)
    QFormLayout* form_ = nullptr;
    QLineEdit* name_ = nullptr;
    QLabel* nameNote_ = nullptr;  // why the name cannot be a file name, in red
    QString shownName_;           // name() before the last edit, for renamed()
    QToolButton* duplicate_ = nullptr;
    QToolButton* remove_ = nullptr;
    KnobEditor* c_ = nullptr;
    KnobEditor* g_ = nullptr;
    KnobEditor* M_ = nullptr;
    KnobEditor* k_ = nullptr;
    KnobEditor* a_ = nullptr;
    KnobEditor* q_ = nullptr;  // the top-coding quantile
    KnobEditor* epsilon_ = nullptr;
    KnobEditor* tolerance_ = nullptr;
    KnobEditor* targetEpsilon_ = nullptr;  // vector kinds: the optional scaled scheme
    QComboBox* source_ = nullptr;
    QComboBox* target_ = nullptr;
    QComboBox* match_ = nullptr;
    QComboBox* base_ = nullptr;
    QString matchRef_, baseRef_;
};

}  // namespace ppsynth::ui

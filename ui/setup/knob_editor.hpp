// One tuning knob (c, g, k, M, r, ...): a spin box and a slider kept in step, with a
// plain-language tooltip that names the paper's term. Optional knobs (M, a fixed k) carry a
// check box; unchecked means "not used" (no truncation, k searched automatically). The
// slider covers the usual range (Spec min..max); the spin box may take more (what core
// accepts, setTypedRange), and a value set from a configuration is kept as it is, decimals
// and all (ExactSpinBox).
#pragma once

#include <QWidget>
#include <optional>

class QCheckBox;
class QLabel;
class QSlider;

namespace ppsynth::ui {

class ExactSpinBox;

class KnobEditor : public QWidget {
    Q_OBJECT
  public:
    struct Spec {
        QString label;    // shown, e.g. "c (scale)"
        QString tooltip;  // plain words naming the paper's term
        // The slider's range, and what may be typed unless setTypedRange allows more.
        double min = 0, max = 1, step = 0.01, value = 0;
        int decimals = 2;
        bool optional = false;  // a check box decides whether the knob is used
        QString offText;        // what unchecked means, e.g. "no truncation"
    };
    explicit KnobEditor(const Spec& spec, QWidget* parent = nullptr);

    // The value as set (unrounded) until the person moves the knob.
    double value() const;
    // Shows `v` with the decimals it has; a value outside the range widens it (a configured
    // value is never clamped).
    void setValue(double v);
    // Optional knobs: nullopt when unchecked; plain knobs always have a value.
    std::optional<double> optionalValue() const;
    void setOptionalValue(std::optional<double> v);
    bool isUsed() const;
    // A knob whose meaning changes (the radius r: a fraction or in units of y) gets another
    // range; the value is kept where it fits, else clamped into the new range.
    void setRange(double min, double max, double step);
    // What may be typed, when more than the slider's range (c beyond 2, a large M).
    void setTypedRange(double lowest, double highest);

    ExactSpinBox* spinBox() const { return spin_; }
    QSlider* slider() const { return slider_; }
    QCheckBox* useBox() const { return use_; }
    const Spec& spec() const { return spec_; }

  signals:
    // On every change of the value or of the check box (slider drags included).
    void changed();

  private:
    static constexpr int kSliderSteps = 1000;
    int toSlider(double v) const;
    double fromSlider(int s) const;
    void updateEnabled();
    void syncSlider();

    Spec spec_;
    QLabel* label_;
    QCheckBox* use_ = nullptr;
    ExactSpinBox* spin_;
    QSlider* slider_;
    bool syncing_ = false;  // one side is being set from the other
};

}  // namespace ppsynth::ui

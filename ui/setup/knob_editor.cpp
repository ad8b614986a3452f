#include "ui/setup/knob_editor.hpp"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QScopedValueRollback>
#include <QSignalBlocker>
#include <QSlider>
#include <algorithm>
#include <cmath>

#include "ui/setup/exact_spin_box.hpp"

namespace ppsynth::ui {

KnobEditor::KnobEditor(const Spec& spec, QWidget* parent)
    : QWidget(parent),
      spec_(spec),
      label_(new QLabel(spec.label, this)),
      spin_(new ExactSpinBox(this)),
      slider_(new QSlider(Qt::Horizontal, this)) {
    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(0, 0, 0, 0);
    label_->setMinimumWidth(110);
    row->addWidget(label_);
    if (spec.optional) {
        use_ = new QCheckBox(this);
        use_->setToolTip(tr("Unchecked: %1").arg(spec.offText));
        row->addWidget(use_);
        connect(use_, &QCheckBox::toggled, this, [this] {
            updateEnabled();
            emit changed();
        });
    }
    spin_->setRange(spec.min, spec.max);
    spin_->setSingleStep(spec.step);
    spin_->setDecimals(spec.decimals);
    spin_->setValue(spec.value);
    spin_->setMinimumWidth(90);
    slider_->setRange(0, kSliderSteps);
    slider_->setValue(toSlider(spec.value));
    slider_->setMinimumWidth(120);
    row->addWidget(spin_);
    row->addWidget(slider_, 1);
    for (QWidget* w : {static_cast<QWidget*>(label_), static_cast<QWidget*>(spin_),
                       static_cast<QWidget*>(slider_)})
        w->setToolTip(spec.tooltip);
    setToolTip(spec.tooltip);

    // Each side updates the other without echoing back (the slider is coarser than the
    // spin box, so an echo would round the typed value). The spin box's own signal is not
    // blocked: a slider move is a change by the person, which ends an exact value.
    connect(spin_, &QDoubleSpinBox::valueChanged, this, [this] {
        if (syncing_) return;
        syncSlider();
        emit changed();
    });
    connect(slider_, &QSlider::valueChanged, this, [this](int s) {
        if (syncing_) return;
        {
            const QScopedValueRollback guard(syncing_, true);
            spin_->setValue(fromSlider(s));
        }
        emit changed();
    });
    updateEnabled();
}

int KnobEditor::toSlider(double v) const {
    if (spec_.max <= spec_.min) return 0;
    const double t = (v - spec_.min) / (spec_.max - spec_.min);
    return static_cast<int>(std::lround(std::clamp(t, 0.0, 1.0) * kSliderSteps));
}

double KnobEditor::fromSlider(int s) const {
    const double v = spec_.min + (spec_.max - spec_.min) * double(s) / kSliderSteps;
    // Snap to the spin box's step so slider values are ones a person could type.
    return std::clamp(spec_.min + std::round((v - spec_.min) / spec_.step) * spec_.step, spec_.min,
                      spec_.max);
}

double KnobEditor::value() const {
    return spin_->exactValue();
}

void KnobEditor::setValue(double v) {
    const double before = value();
    {
        const QScopedValueRollback guard(syncing_, true);
        spin_->setExactValue(v);
    }
    syncSlider();
    if (value() != before) emit changed();
}

void KnobEditor::setRange(double min, double max, double step) {
    spec_.min = min;
    spec_.max = max;
    spec_.step = step;
    spin_->setSingleStep(step);
    spin_->setRange(min, max);  // emits valueChanged when it clamps
    syncSlider();
}

void KnobEditor::setTypedRange(double lowest, double highest) {
    spin_->setRange(lowest, highest);
    syncSlider();
}

void KnobEditor::syncSlider() {
    const QSignalBlocker block(slider_);
    slider_->setValue(toSlider(value()));
}

bool KnobEditor::isUsed() const {
    return !use_ || use_->isChecked();
}

std::optional<double> KnobEditor::optionalValue() const {
    if (!isUsed()) return std::nullopt;
    return value();
}

void KnobEditor::setOptionalValue(std::optional<double> v) {
    if (v) setValue(*v);
    if (use_) use_->setChecked(v.has_value());
}

void KnobEditor::updateEnabled() {
    spin_->setEnabled(isUsed());
    slider_->setEnabled(isUsed());
}

}  // namespace ppsynth::ui

#include "moc_knob_editor.cpp"

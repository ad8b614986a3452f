#include "ui/setup/exact_spin_box.hpp"

#include <QScopedValueRollback>
#include <cmath>

namespace ppsynth::ui {

namespace {
// Whether `v` written with `decimals` decimals reads back as `v`.
bool shownExactly(double v, int decimals) {
    return QString::number(v, 'f', decimals).toDouble() == v;
}
}  // namespace

ExactSpinBox::ExactSpinBox(QWidget* parent) : QDoubleSpinBox(parent) {
    connect(this, &QDoubleSpinBox::valueChanged, this, [this] {
        if (!setting_) exact_.reset();  // the person changed it
    });
}

void ExactSpinBox::setExactValue(double v) {
    if (!std::isfinite(v)) return;
    const QScopedValueRollback guard(setting_, true);
    int d = decimals();
    while (d < kMaxDecimals && !shownExactly(v, d)) ++d;
    if (d != decimals()) setDecimals(d);
    if (v < minimum()) setMinimum(v);
    if (v > maximum()) setMaximum(v);
    setValue(v);
    exact_.reset();
    if (value() != v) exact_ = v;
}

double ExactSpinBox::exactValue() const {
    return exact_ ? *exact_ : value();
}

}  // namespace ppsynth::ui

#include "moc_exact_spin_box.cpp"

// A QDoubleSpinBox that shows and keeps a configured value as it is. setExactValue (a value
// from a configuration, which core accepted) raises the decimals to the ones the value has
// (up to kMaxDecimals) and widens the range to hold it instead of rounding or clamping it;
// exactValue() returns that value unrounded until the person changes the box. So a
// configuration loaded into a page and read back from it is the one that was loaded.
#pragma once

#include <QDoubleSpinBox>
#include <optional>

namespace ppsynth::ui {

class ExactSpinBox : public QDoubleSpinBox {
    Q_OBJECT
  public:
    static constexpr int kMaxDecimals = 10;

    explicit ExactSpinBox(QWidget* parent = nullptr);

    void setExactValue(double v);
    double exactValue() const;

  private:
    std::optional<double> exact_;  // set while the shown value is a rounding of it
    bool setting_ = false;
};

}  // namespace ppsynth::ui

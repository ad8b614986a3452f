// The application's main window: hosts the panels of the workflow.
#pragma once

#include <QMainWindow>

namespace ppsynth::ui {

class MainWindow : public QMainWindow {
    Q_OBJECT
  public:
    explicit MainWindow(QWidget* parent = nullptr);
};

}  // namespace ppsynth::ui

#include "ui/main_window.hpp"

namespace ppsynth::ui {

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
    setWindowTitle(tr("ppsynth"));
    resize(1280, 800);
}

}  // namespace ppsynth::ui

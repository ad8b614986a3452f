#include <QApplication>

#include "ui/main_window.hpp"

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    ppsynth::ui::MainWindow w;
    w.show();
    return QApplication::exec();
}

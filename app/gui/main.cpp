#include <QApplication>
#include <QFont>
#include <QStringList>

#include "ui/main_window.hpp"

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("ppsynth"));
    QApplication::setOrganizationName(QStringLiteral("ppsynth"));
    QApplication::setApplicationVersion(QStringLiteral(PPSYNTH_VERSION));
    // One explicit font so the window (and its screenshots) look the same on every machine.
    QApplication::setFont(QFont(QStringLiteral("DejaVu Sans"), 10));

    ppsynth::ui::MainWindow w;
    w.show();
    const auto args = QApplication::arguments();
    // A data file (a CSV asks for its options first) or a .ppsynth project.
    if (args.size() > 1) w.openFile(args.at(1));
    return QApplication::exec();
}

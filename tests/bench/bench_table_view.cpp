// Scrolling a 1,000,000-row table in the Data page's view (offscreen): time per page-down
// step including the repaint, to show the model is virtualized. Prints figures only.
#include <QApplication>
#include <QElapsedTimer>
#include <QTableView>
#include <QTest>
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "ppsynth/data/table.hpp"
#include "ui/data_page.hpp"
#include "ui/table_model.hpp"

using namespace ppsynth;

int main(int argc, char** argv) {
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QApplication::setFont(QFont(QStringLiteral("DejaVu Sans"), 10));

    constexpr std::size_t kRows = 1'000'000;
    constexpr int kColumns = 12;
    constexpr int kSteps = 200;
    QElapsedTimer build;
    build.start();
    data::Table table;
    for (int c = 0; c < kColumns; ++c) {
        const std::string name = "c" + std::to_string(c);
        if (c % 3 == 2) {
            std::vector<std::int32_t> codes(kRows);
            for (std::size_t i = 0; i < kRows; ++i)
                codes[i] = static_cast<std::int32_t>((i + std::size_t(c)) % 4);
            (void)table.addColumn(data::Column::categorical(
                name, std::move(codes),
                {{"1", "alpha"}, {"2", "beta"}, {"3", "gamma"}, {"4", "delta"}}));
        } else {
            std::vector<double> v(kRows);
            for (std::size_t i = 0; i < kRows; ++i) v[i] = double(i) * 0.25 + double(c);
            (void)table.addColumn(data::Column::numeric(name, std::move(v)));
        }
    }
    const double buildMs = double(build.nsecsElapsed()) / 1e6;

    ui::DataPage page;
    page.resize(1280, 800);
    QElapsedTimer load;
    load.start();
    page.setTable(std::make_shared<data::Table>(std::move(table)), QStringLiteral("bench"));
    page.show();
    if (!QTest::qWaitForWindowExposed(&page)) return 1;
    QCoreApplication::processEvents();
    const double loadMs = double(load.nsecsElapsed()) / 1e6;

    auto* view = page.view();
    view->setFocus();
    view->setCurrentIndex(view->model()->index(0, 0));
    std::vector<double> ms;
    ms.reserve(kSteps);
    for (int s = 0; s < kSteps; ++s) {
        QElapsedTimer t;
        t.start();
        QTest::keyClick(view, Qt::Key_PageDown);
        view->viewport()->repaint();  // paint now, so the step includes formatting the cells
        ms.push_back(double(t.nsecsElapsed()) / 1e6);
    }
    // One jump to the end, the worst case for a non-virtualized model.
    QElapsedTimer jump;
    jump.start();
    view->scrollToBottom();
    view->viewport()->repaint();
    const double jumpMs = double(jump.nsecsElapsed()) / 1e6;

    double sum = 0;
    for (double m : ms) sum += m;
    auto sorted = ms;
    std::sort(sorted.begin(), sorted.end());
    std::printf("bench_table_view: %zu rows x %d columns, %d page-down steps (offscreen)\n", kRows,
                kColumns, kSteps);
    std::printf("  build table           %8.1f ms\n", buildMs);
    std::printf("  set model + first paint %6.1f ms\n", loadMs);
    std::printf("  page-down step mean   %8.3f ms\n", sum / double(kSteps));
    std::printf("  page-down step median %8.3f ms\n", sorted[sorted.size() / 2]);
    std::printf("  page-down step max    %8.3f ms\n", sorted.back());
    std::printf("  scroll to bottom      %8.3f ms\n", jumpMs);
    std::printf("  current row after steps: %d\n", view->currentIndex().row());
    return 0;
}

// core/src/common's small pieces shared by the areas: the list of names in messages.
#include <QTest>
#include <string>
#include <vector>

#include "ppsynth/common/name_list.hpp"

using namespace ppsynth;

class TstCommon : public QObject {
    Q_OBJECT
  private slots:
    void quotedNames_data() {
        QTest::addColumn<QStringList>("names");
        QTest::addColumn<int>("shown");
        QTest::addColumn<QString>("expected");
        QTest::newRow("none") << QStringList{} << 3 << "";
        QTest::newRow("one") << QStringList{"run.json"} << 3 << "'run.json'";
        QTest::newRow("three, sorted") << QStringList{"c", "a/", "b"} << 3 << "'a/', 'b', 'c'";
        QTest::newRow("four") << QStringList{"d", "c", "b", "a"} << 3 << "'a', 'b', 'c' and 1 more";
        QTest::newRow("six") << QStringList{"f", "e", "d", "c", "b", "a"} << 3
                             << "'a', 'b', 'c' and 3 more";
        QTest::newRow("one shown") << QStringList{"b", "a"} << 1 << "'a' and 1 more";
        QTest::newRow("none shown names one") << QStringList{"b", "a"} << 0 << "'a' and 1 more";
    }
    void quotedNames() {
        QFETCH(QStringList, names);
        QFETCH(int, shown);
        QFETCH(QString, expected);
        std::vector<std::string> list;
        for (const auto& n : names) list.push_back(n.toStdString());
        QCOMPARE(QString::fromStdString(ppsynth::quotedNames(list, std::size_t(shown))), expected);
    }
};

QTEST_MAIN(TstCommon)
#include "tst_common.moc"

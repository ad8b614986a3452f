// Numeric comparisons with a tolerance that, on failure, print both values, their
// difference and the tolerance (after LabPlot's FuzzyCompare), where a bare
// QVERIFY(std::abs(a - b) < tol) only says "returned FALSE".
//   QVERIFY_NEAR(actual, expected, tol)    passes when |actual - expected| <  tol
//   QVERIFY_WITHIN(actual, expected, tol)  passes when |actual - expected| <= tol
// The difference is computed as actual - expected in the arguments' own types, exactly as the
// bare form did. Like QVERIFY, they return from the calling (void) test function on failure.
#pragma once

#include <QTest>
#include <cmath>
#include <cstdlib>
#include <sstream>
#include <string>

namespace ppsynth::test {

template <class T>
std::string nearText(const T& v) {
    std::ostringstream out;
    out.precision(17);
    out << v;
    return out.str();
}

template <class A, class B, class T>
bool near(const A& actual, const B& expected, const T& tol, bool inclusive, const char* actualText,
          const char* expectedText, const char* tolText, const char* file, int line) {
    using std::abs;
    const auto diff = abs(actual - expected);
    if (inclusive ? diff <= tol : diff < tol) return true;
    const std::string message =
        std::string(
            "Compared values are not within tolerance (|actual - "
            "expected| ") +
        (inclusive ? "<=" : "<") + " tolerance)\n   Actual   (" + actualText +
        "): " + nearText(actual) + "\n   Expected (" + expectedText + "): " + nearText(expected) +
        "\n   Difference: " + nearText(diff) + "\n   Tolerance (" + tolText + "): " + nearText(tol);
    QTest::qFail(message.c_str(), file, line);
    return false;
}

}  // namespace ppsynth::test

#define QVERIFY_NEAR(actual, expected, tol)                                                      \
    do {                                                                                         \
        if (!::ppsynth::test::near((actual), (expected), (tol), false, #actual, #expected, #tol, \
                                   __FILE__, __LINE__))                                          \
            return;                                                                              \
    } while (false)

#define QVERIFY_WITHIN(actual, expected, tol)                                                   \
    do {                                                                                        \
        if (!::ppsynth::test::near((actual), (expected), (tol), true, #actual, #expected, #tol, \
                                   __FILE__, __LINE__))                                         \
            return;                                                                             \
    } while (false)

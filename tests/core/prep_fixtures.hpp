// Small hand-made tables shared by the data-preparation tests (tst_design_matrix,
// tst_patterns, tst_prepare). Values are chosen so standardization is exact in binary:
// age and visits both have mean 30 / 3 and sample sd 2 (deviations -3..3, sum of squares 28).
#pragma once

#include <QTest>
#include <string>
#include <vector>

#include "ppsynth/data/table.hpp"

namespace fixtures {

using ppsynth::data::Column;
using ppsynth::data::Level;
using ppsynth::data::Table;

inline std::vector<Level> labels(const std::vector<std::string>& names) {
    std::vector<Level> out;
    for (std::size_t i = 0; i < names.size(); ++i) out.push_back({std::to_string(i + 1), names[i]});
    return out;
}

inline Table make(std::vector<Column> columns) {
    Table t;
    for (auto& c : columns) {
        const auto s = t.addColumn(std::move(c));
        if (!s) qFatal("fixture: %s", s.message().c_str());
    }
    return t;
}

// row | edu     | sex | age | visits | income
//  1  | HS      | F   | 27  | 3      | 12.5
//  2  | College | M   | 28  | 0      | 40
//  3  | Grad    | M   | 29  | 6      | 55
//  4  | HS      | F   | 30  | 2      | 0
//  5  | College | F   | 30  | 4      | -2.5
//  6  | HS      | M   | 31  | 3      | 18
//  7  | Grad    | F   | 32  | 1      | 70.25
//  8  | College | M   | 33  | 5      | 33
// edu declares a fourth level PhD that no row has.
inline Table people() {
    return make({
        Column::categorical("edu", {0, 1, 2, 0, 1, 0, 2, 1},
                            labels({"HS", "College", "Grad", "PhD"})),
        Column::categorical("sex", {0, 1, 1, 0, 0, 1, 0, 1}, labels({"F", "M"})),
        Column::numeric("age", {27, 28, 29, 30, 30, 31, 32, 33}),
        Column::count("visits", {3, 0, 6, 2, 4, 3, 1, 5}),
        Column::numeric("income", {12.5, 40, 55, 0, -2.5, 18, 70.25, 33}),
    });
}

}  // namespace fixtures

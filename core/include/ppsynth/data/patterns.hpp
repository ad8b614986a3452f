// Risk patterns (METHOD.md sections 0 and 4): records that share every known variable's
// level form a pattern M; identification risk compares a record with its pattern.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "ppsynth/common/expected.hpp"
#include "ppsynth/data/table.hpp"

namespace ppsynth::data {

struct Patterns {
    // Records are positions 0..n-1 in the given rows (the rows of X and y), not table rows.
    std::vector<std::int32_t> id;                   // pattern of each record, 0..P-1
    std::vector<std::vector<std::size_t>> members;  // records of each pattern, ascending
    // A person-readable key per pattern: "education=HS grad, sex=F"; "all records" when
    // there are no known variables.
    std::vector<std::string> labels;
    std::size_t singletons = 0;  // records alone in their pattern

    std::size_t count() const { return members.size(); }
    std::size_t size(std::size_t pattern) const { return members[pattern].size(); }
    std::vector<std::size_t> sizes() const;

    bool operator==(const Patterns&) const = default;
};

// Patterns of the given rows (0-based table rows) by the known variables' levels.
// Pattern ids follow the lexicographic order of the known variables' level codes (in the
// order `known` lists them), so they do not depend on the order of the records. No known
// variables: one pattern of all records. A known variable must be categorical and not
// missing in the given rows.
Expected<Patterns> computePatterns(const Table& table, const std::vector<std::string>& known,
                                   std::span<const std::size_t> rows);

}  // namespace ppsynth::data

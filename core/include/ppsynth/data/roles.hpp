// Column roles: which column is the sensitive variable y, which are predictors, and which
// predictors an intruder is assumed to know (they define the risk patterns).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "ppsynth/common/expected.hpp"
#include "ppsynth/data/table.hpp"

namespace ppsynth::data {

enum class Role { Ignored, Target, Predictor, Known };  // Known implies Predictor

struct Roles {
    std::string target;
    std::vector<std::string> predictors;  // includes the known variables
    std::vector<std::string> known;       // subset of the categorical predictors
    // Reference level (by label) per categorical predictor; the first level otherwise.
    std::map<std::string, std::string> referenceLevels;
    // Other sensitive variables modelled on the same records: their missing values count as
    // the target's (refused, or the row dropped listwise). Columns not in the table are
    // skipped here (their own preparation names them).
    std::vector<std::string> alsoComplete;

    Role roleOf(const std::string& column) const;
};

// Checks the roles against a table: the target exists and is numeric or count, predictors
// exist and are not the target or text, known variables are categorical predictors,
// reference levels exist. The message names the column and says what to change.
Status validateRoles(const Roles& roles, const Table& table);

}  // namespace ppsynth::data

// The options of the file commands that name columns (utility's --target and --regress,
// risk's --target and --known): each may be given several times, and an argument that is
// exactly a column's name is that column even when the name has commas ("income, net", as
// R and Excel exports name columns); any other argument is a comma-separated list of names.
#pragma once

#include <string>
#include <vector>

#include "ppsynth/common/expected.hpp"
#include "ppsynth/data/table.hpp"

namespace ppsynth::cli {

// `given` (one string per time the option was given) as column names of `table`, read from
// `file`, in order: a whole argument that names a column is it; otherwise its comma-separated
// parts are (each as given or without its surrounding spaces; empty parts are ignored). An
// error names the option, the argument and each name the file lacks.
Expected<std::vector<std::string>> columnArguments(const std::vector<std::string>& given,
                                                   const data::Table& table,
                                                   const std::string& file,
                                                   const std::string& option);

}  // namespace ppsynth::cli

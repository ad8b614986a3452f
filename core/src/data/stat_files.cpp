// PLACEHOLDER until the ReadStat readers land (replaced wholesale by their branch).
#include "data/formats.hpp"

namespace ppsynth::data::detail {
Expected<Table> readStatFile(const std::string& path, FileFormat, const ReadOptions&, ReadReport*) {
    return Error{"'" + path + "': SPSS/Stata/SAS reading is not built yet"};
}
Status writeStatFile(const Table&, const std::string& path, FileFormat) {
    return Error{"'" + path + "': SPSS/Stata writing is not built yet"};
}
}  // namespace ppsynth::data::detail

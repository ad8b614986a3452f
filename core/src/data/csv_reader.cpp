// PLACEHOLDER until the CSV reader lands (replaced wholesale by its branch).
#include "data/formats.hpp"

namespace ppsynth::data::detail {
Expected<Table> readCsv(const std::string& path, const ReadOptions&, ReadReport*) {
    return Error{"'" + path + "': the CSV reader is not built yet"};
}
Status writeCsv(const Table&, const std::string& path, const WriteOptions&) {
    return Error{"'" + path + "': the CSV writer is not built yet"};
}
}  // namespace ppsynth::data::detail

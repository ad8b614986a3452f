#include "ppsynth/study/run_data.hpp"

#include "ppsynth/common/sha256.hpp"
#include "ppsynth/models/factory.hpp"
#include "ppsynth/study/targets.hpp"

namespace ppsynth::study {

Expected<data::ReadOptions> columnOptionsFor(const RunConfig& config) {
    data::ReadOptions ro;
    ro.maxLevels = config.data.maxLevels;
    for (const auto& [column, type] : config.data.types) {
        const auto t = data::columnTypeFromString(type);
        if (!t)
            return Error{"data.types: '" + type + "' for column '" + column +
                         "' is not numeric, count, categorical or text"};
        ro.typeOverrides.emplace_back(column, *t);
    }
    return ro;
}

Expected<data::ReadOptions> readOptionsFor(const RunConfig& config) {
    auto ro = columnOptionsFor(config);
    if (!ro) return ro;
    ro->csv = config.data.read.csv;
    ro->stat = config.data.read.stat;
    return ro;
}

Expected<RunData> readRunData(const RunConfig& config, const std::string& path,
                              const std::string& expectedSha256) {
    RunData out;
    out.path = path.empty() ? config.data.path : path;
    auto ro = readOptionsFor(config);
    if (!ro) return ro.error();
    // Hash first: a file replaced while it is read then fails the later check rather than
    // passing with a fingerprint of the new bytes.
    auto sha = sha256FileHex(out.path);
    if (!sha) {
        // The reader says best why a file cannot be read (missing, a folder, no access).
        if (auto t = data::readTable(out.path, *ro); !t) return t.error();
        return sha.error();
    }
    out.sha256 = std::move(*sha);
    if (!expectedSha256.empty() && out.sha256 != expectedSha256)
        return Error{"'" + out.path + "' is not the file this run read: its SHA-256 is " +
                     out.sha256 + ", the run recorded " + expectedSha256 +
                     ". The run's record-level results would describe other records; restore "
                     "the original file or give it with --data FILE"};
    auto table = data::readTable(out.path, *ro);
    if (!table) return table.error();
    out.table = std::move(*table);
    return out;
}

Expected<data::ModelInputs> prepareRunInputs(const RunConfig& config, const data::Table& table,
                                             const std::atomic<bool>* cancel) {
    data::Roles roles;
    roles.target = config.data.target;
    roles.predictors = config.data.predictors;
    roles.known = config.data.known;
    roles.referenceLevels = config.data.referenceLevels;
    for (const auto& t : sensitiveVariables(config))
        if (t != config.data.target) roles.alsoComplete.push_back(t);
    // The target's own model and transform (several sensitive variables: "models" may set them).
    const std::string family = modelFor(config, config.data.target).family;
    const std::string transform = transformFor(config, config.data.target);
    data::PrepareOptions po;
    // parseRunConfig validated both names.
    po.transform = *data::transformKindFromString(transform);
    po.missing = *data::missingPolicyFromString(config.data.missing);
    po.maxLevels = config.data.maxLevels;
    po.countModel = models::isCountFamily(family);
    po.cancel = cancel;
    if (po.countModel && po.transform != data::TransformKind::None)
        return Error{"a count model (" + family +
                     ") models y as it is: set data.transform to \"none\""};
    return data::prepareModelInputs(table, roles, po);
}

}  // namespace ppsynth::study

#include "study/block_run.hpp"

#include <algorithm>
#include <mutex>
#include <optional>

#include "ppsynth/common/parallel.hpp"

namespace ppsynth::study::detail {

using nlohmann::json;

Expected<std::vector<json>> runBlocks(const ResumableFolder& folder, std::size_t count,
                                      const std::function<std::string(std::size_t)>& name,
                                      const std::function<Expected<json>(std::size_t)>& work,
                                      const BlockRunOptions& options, BlockRunStats* stats) {
    std::vector<json> results(count);
    std::vector<std::uint8_t> pending(count, 1);
    const std::size_t first = options.only ? options.only->first : 0;
    const std::size_t last = options.only ? std::min(options.only->second, count - 1) : count - 1;
    const std::size_t wanted = count == 0 || first > last ? 0 : last - first + 1;
    for (std::size_t i = 0; i < count; ++i)
        if (i < first || i > last) pending[i] = 0;
    BlockRunStats local;
    for (std::size_t i = first; i <= last && i < count; ++i)
        if (auto text = folder.load(name(i))) {
            json j = json::parse(*text, nullptr, false);
            if (j.is_discarded()) continue;  // unreadable: compute it again
            results[i] = std::move(j);
            pending[i] = 0;
            ++local.resumed;
        }
    std::vector<std::size_t> todo;
    for (std::size_t i = first; i <= last && i < count; ++i)
        if (pending[i]) todo.push_back(i);

    std::mutex mutex;
    std::size_t finished = local.resumed;
    std::vector<std::optional<std::string>> errors(todo.size());
    auto cancelled = [&] { return options.cancel && options.cancel->load(); };
    report(options.progress,
           {options.stage, 0, static_cast<double>(finished), static_cast<double>(wanted)});
    parallelFor(todo.size(), options.threads, [&](std::size_t k) {
        if (cancelled()) return false;
        const std::size_t i = todo[k];
        auto r = work(i);
        if (!r) {
            errors[k] = r.message();
            return false;
        }
        if (auto s = folder.save(name(i), r->dump(1)); !s) {
            errors[k] = s.message();
            return false;
        }
        results[i] = std::move(*r);
        std::lock_guard lock(mutex);
        ++finished;
        ++local.run;
        return report(options.progress, {options.stage, 0, static_cast<double>(finished),
                                         static_cast<double>(wanted)}) == Continue::Yes;
    });
    if (stats) *stats = local;
    if (finished == wanted) return results;
    if (cancelled() ||
        std::none_of(errors.begin(), errors.end(), [](const auto& e) { return e.has_value(); }))
        return Error::cancelled("cancelled: " + std::to_string(finished) + " of " +
                                std::to_string(wanted) + " items are saved in '" + folder.dir() +
                                "'; run the same command again to resume");
    for (std::size_t k = 0; k < todo.size(); ++k)
        if (errors[k]) return Error{name(todo[k]) + ": " + *errors[k]};
    return Error::internal("stopped");
}

}  // namespace ppsynth::study::detail

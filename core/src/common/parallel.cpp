#include "ppsynth/common/parallel.hpp"

#include <algorithm>
#include <atomic>
#include <thread>
#include <vector>

namespace ppsynth {

bool parallelFor(std::size_t count, int threads, const std::function<bool(std::size_t)>& body) {
    std::atomic<std::size_t> next{0};
    std::atomic<bool> stop{false};
    auto worker = [&] {
        for (std::size_t i; !stop.load(std::memory_order_relaxed) && (i = next++) < count;)
            if (!body(i)) stop = true;
    };
    const std::size_t extra =
        std::min<std::size_t>(count, static_cast<std::size_t>(std::max(threads, 1))) - (count > 0);
    std::vector<std::thread> pool;
    pool.reserve(extra);
    for (std::size_t t = 0; t < extra; ++t) pool.emplace_back(worker);
    worker();
    for (auto& th : pool) th.join();
    return !stop;
}

}  // namespace ppsynth

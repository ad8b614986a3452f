#include "cli_commands.hpp"

namespace ppsynth::cli {

std::vector<Registrar>& registry() {
    static std::vector<Registrar> r;
    return r;
}

}  // namespace ppsynth::cli

// A name a user types (a synthesizer's, a study item's, a project's) is data, never a path:
// it becomes part of file and folder names, so this one check decides which names may.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "ppsynth/common/expected.hpp"

namespace ppsynth {

inline constexpr std::size_t kMaxNameBytes = 100;

// Ok when `name` can be a file name on every system ppsynth writes to: not empty, valid
// UTF-8 of at most kMaxNameBytes bytes, no '/', '\\', NUL or other control character, not
// "." or "..", not starting with '.' or '-'. Otherwise the message quotes the name
// (control characters shown as \xNN), says what is wrong and what is allowed; callers put
// where the name came from in front ("synthesizers[2]: ...").
Status checkSafeName(std::string_view name);

// What names may be, for hints beside a name field.
std::string safeNameRule();

}  // namespace ppsynth

#include "study/json_reader.hpp"

#include <variant>

#include "ppsynth/study/config_json.hpp"

namespace ppsynth::study {

namespace detail {

namespace {

// Where the parser is: one frame per open object (its keys so far, the current one) or
// array (the index of the current element).
struct ObjectFrame {
    std::set<std::string> keys;
    std::string current;
};
struct ArrayFrame {
    std::size_t index = 0;
};
using Frame = std::variant<ObjectFrame, ArrayFrame>;

// "synthesizers[2]", "data.types", or `root` for the outermost object. Frames holds the
// open containers, the last being the one whose path is wanted.
std::string pathOf(const std::vector<Frame>& frames, const std::string& root) {
    std::string path;
    for (std::size_t i = 0; i + 1 < frames.size(); ++i) {
        if (const auto* o = std::get_if<ObjectFrame>(&frames[i]))
            path += (path.empty() ? "" : ".") + o->current;
        else
            path += "[" + std::to_string(std::get<ArrayFrame>(frames[i]).index) + "]";
    }
    return path.empty() ? root : path;
}

}  // namespace

std::string parseConfigJson(const std::string& text, json& out, const std::string& root) {
    std::vector<Frame> frames;
    std::string duplicate;
    // An element of the innermost container is complete: the next one in an array.
    const auto completed = [&frames] {
        if (!frames.empty())
            if (auto* a = std::get_if<ArrayFrame>(&frames.back())) ++a->index;
    };
    const json::parser_callback_t track = [&](int, json::parse_event_t event, json& parsed) {
        switch (event) {
            case json::parse_event_t::object_start:
                frames.emplace_back(ObjectFrame{});
                break;
            case json::parse_event_t::array_start:
                frames.emplace_back(ArrayFrame{});
                break;
            case json::parse_event_t::key: {
                auto& object = std::get<ObjectFrame>(frames.back());
                object.current = parsed.get<std::string>();
                if (!object.keys.insert(object.current).second && duplicate.empty())
                    duplicate =
                        pathOf(frames, root) + ": key '" + object.current + "' appears twice";
                break;
            }
            case json::parse_event_t::object_end:
            case json::parse_event_t::array_end:
                frames.pop_back();
                completed();
                break;
            case json::parse_event_t::value:
                completed();
                break;
        }
        return true;
    };
    out = json::parse(text, track, false, true);
    if (out.is_discarded()) return "the configuration is not valid JSON";
    if (!duplicate.empty())
        return duplicate + "; delete one of the two (otherwise only one of them would be read)";
    return {};
}

}  // namespace detail

Status checkUniqueKeys(const std::string& jsonText, const std::string& root) {
    detail::json parsed;
    std::string error = detail::parseConfigJson(jsonText, parsed, root);
    if (parsed.is_discarded() || error.empty()) return Status::ok();
    return Error{error};
}

}  // namespace ppsynth::study

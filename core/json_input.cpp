// NormLab core: strict JSON input (see json_input.h).
#include "core/json_input.h"

#include "core/errors.h"

#include <fstream>
#include <iterator>
#include <set>
#include <sys/stat.h>
#include <vector>

namespace normlab {
using nlohmann::json;

namespace {

// Where the parser is: one frame per open object or array.
struct Frame {
    bool object = true;
    std::set<std::string> keys;
    std::string key;        // the object's latest key
    size_t index = 0;       // the array's next element
};

std::string path_of(const std::vector<Frame>& stack) {
    std::string p;
    for (const auto& f : stack) {
        if (f.object) {
            if (!f.key.empty()) p += (p.empty() ? "" : ".") + f.key;
        } else {
            p += "[" + std::to_string(f.index) + "]";
        }
    }
    return p;
}

std::string position(const std::string& text, size_t byte, const std::string& origin) {
    size_t line = 1, col = 1;
    for (size_t i = 0; i < text.size() && i + 1 < byte; ++i) {
        if (text[i] == '\n') ++line, col = 1;
        else ++col;
    }
    return (origin.empty() ? std::string("line ") : origin + ":") + std::to_string(line) + ":" + std::to_string(col);
}

}  // namespace

json parse_json_strict(const std::string& text, const std::string& origin) {
    std::vector<Frame> stack;
    auto element_done = [&] {
        if (!stack.empty() && !stack.back().object) ++stack.back().index;
    };
    json::parser_callback_t cb = [&](int depth, json::parse_event_t event, json& parsed) -> bool {
        switch (event) {
            case json::parse_event_t::object_start:
            case json::parse_event_t::array_start:
                if (depth >= kMaxJsonDepth)
                    throw ConfigError(path_of(stack), "nested more than " + std::to_string(kMaxJsonDepth) +
                                                          " levels deep; an experiment needs a handful");
                stack.push_back(Frame{event == json::parse_event_t::object_start, {}, {}, 0});
                break;
            case json::parse_event_t::key: {
                Frame& f = stack.back();
                const std::string k = parsed.get<std::string>();
                f.key = k;
                if (!f.keys.insert(k).second)
                    throw ConfigError(path_of(stack), "this key appears twice in the same object; JSON readers"
                                                      " disagree on which one wins, so remove one of them");
                break;
            }
            case json::parse_event_t::object_end:
            case json::parse_event_t::array_end:
                if (!stack.empty()) stack.pop_back();
                element_done();
                break;
            case json::parse_event_t::value:
                element_done();
                break;
        }
        return true;
    };
    try {
        return json::parse(text, cb);
    } catch (const ConfigError& e) {
        if (origin.empty()) throw;
        throw ConfigError(e.path(), e.message() + " (" + origin + ")");
    } catch (const json::parse_error& e) {
        throw ConfigError(path_of(stack), position(text, e.byte, origin) + ": not valid JSON (" + e.what() + ")");
    } catch (const json::exception& e) {
        // out_of_range.406: a number such as 1e400 beyond double range.
        std::string what = e.what();
        if (e.id == 406) what = "a number is out of range (beyond ±1.8e308): " + what;
        throw ConfigError(path_of(stack), (origin.empty() ? std::string() : origin + ": ") + what);
    }
}

json read_json_file(const std::string& path, size_t max_bytes) {
    struct stat st{};
    if (::stat(path.c_str(), &st) != 0)
        throw ConfigError("", "cannot open experiment file " + path + "; check the path");
    if (S_ISDIR(st.st_mode)) throw ConfigError("", path + " is a folder; give the path of an experiment .json file");
    if (!S_ISREG(st.st_mode))
        throw ConfigError("", path + " is not a regular file (a device or pipe); give the path of an experiment .json file");
    if (static_cast<size_t>(st.st_size) > max_bytes)
        throw ConfigError("", path + " is " + std::to_string(st.st_size / (1 << 20)) + " MiB; experiment files are"
                              " at most " + std::to_string(max_bytes >> 20) + " MiB of JSON — is it the right file?");
    std::ifstream f(path, std::ios::binary);
    if (!f) throw ConfigError("", "cannot read experiment file " + path + "; check its permissions");
    std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    if (f.bad()) throw ConfigError("", "reading experiment file " + path + " failed");
    return parse_json_strict(text, path);
}

std::string string_field(const json& obj, const char* key, const std::string& otherwise) {
    if (!obj.is_object()) return otherwise;
    const auto it = obj.find(key);
    return it != obj.end() && it->is_string() ? it->get<std::string>() : otherwise;
}

int64_t int_field(const json& obj, const char* key, int64_t otherwise) {
    if (!obj.is_object()) return otherwise;
    const auto it = obj.find(key);
    return it != obj.end() && it->is_number_integer() ? it->get<int64_t>() : otherwise;
}

}  // namespace normlab

// NormLab core: RunFilter (see run_filter.h).
#include "core/run_filter.h"

#include "core/nearest.h"
#include "core/remote/mirror.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <optional>

namespace normlab {

namespace {

// Unicode's simple lower case of the letters with case that names are written in — Latin (ASCII,
// Latin-1, Latin Extended-A), Greek and Cyrillic — so that "über" finds "ÜBER" as the window's
// filter did with Qt's case folding; other characters (CJK has no case) and bytes that are not
// UTF-8 are kept as they are.
char32_t lower_letter(char32_t c) {
    if (c < 0x80) return c >= 'A' && c <= 'Z' ? c + 32 : c;
    if ((c >= 0xC0 && c <= 0xDE && c != 0xD7) || (c >= 0x391 && c <= 0x3AB && c != 0x3A2) || (c >= 0x410 && c <= 0x42F))
        return c + 32;
    if (c >= 0x400 && c <= 0x40F) return c + 80;
    if (c == 0x178) return 0xFF;
    if (c >= 0x100 && c <= 0x17F && c != 0x130 && c != 0x131 && c != 0x138 && c != 0x149 && c != 0x17F) {
        const bool odd_upper = (c >= 0x139 && c <= 0x148) || (c >= 0x179 && c <= 0x17E);   // Ĺ ĺ … Ň ň, Ź ź … Ž ž
        if (odd_upper ? c % 2 == 1 : c % 2 == 0) return c + 1;
    }
    return c;
}

std::string lower(const std::string& s) {
    std::string out;
    out.reserve(s.size());
    for (size_t i = 0; i < s.size();) {
        const unsigned char b = static_cast<unsigned char>(s[i]);
        const size_t n = b < 0x80 ? 1 : (b >> 5) == 0x6 ? 2 : (b >> 4) == 0xE ? 3 : (b >> 3) == 0x1E ? 4 : 0;
        bool ok = n > 0 && i + n <= s.size();
        char32_t c = n == 1 ? b : n == 2 ? (b & 0x1F) : n == 3 ? (b & 0x0F) : (b & 0x07);
        for (size_t k = 1; ok && k < n; ++k) {
            const unsigned char t = static_cast<unsigned char>(s[i + k]);
            ok = (t & 0xC0) == 0x80;
            c = (c << 6) | (t & 0x3F);
        }
        if (!ok || n == 1 || c >= 0x800) {   // a byte kept as it is; one ASCII letter; beyond the cased ranges
            out += static_cast<char>(ok && n == 1 ? lower_letter(c) : b);
            if (ok && n > 1) out.append(s, i + 1, n - 1);
            i += ok ? n : 1;
            continue;
        }
        c = lower_letter(c);   // two bytes in, two bytes out: all of these are below U+0800
        out += static_cast<char>(0xC0 | (c >> 6));
        out += static_cast<char>(0x80 | (c & 0x3F));
        i += 2;
    }
    return out;
}

bool contains(const std::string& field, const std::string& word) { return lower(field).find(word) != std::string::npos; }

// Words separated by blanks; "two words" in double quotes are one (the quotes dropped).
std::vector<std::string> split_words(const std::string& text) {
    std::vector<std::string> out;
    std::string word;
    bool quoted = false, any = false;
    for (char c : text) {
        if (c == '"') {
            quoted = !quoted;
            any = true;
        } else if (!quoted && std::isspace(static_cast<unsigned char>(c))) {
            if (any && !word.empty()) out.push_back(word);
            word.clear();
            any = false;
        } else {
            word += c;
            any = true;
        }
    }
    if (!word.empty()) out.push_back(word);
    return out;
}

bool key_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '-'; }

bool read_number(const std::string& s, double& out) {
    if (s.empty()) return false;
    char* end = nullptr;
    out = std::strtod(s.c_str(), &end);
    return end == s.c_str() + s.size() && std::isfinite(out);
}

bool compare_numbers(double a, const RunFilter::Word& w) {
    const bool equal = std::fabs(a - w.number) <= 1e-9 * std::max(std::fabs(a), std::fabs(w.number));
    if (w.op == "=" || w.op == ":") return equal;
    if (w.op == "!=") return !equal;
    if (w.op == "<") return a < w.number && !equal;
    if (w.op == "<=") return a < w.number || equal;
    if (w.op == ">") return a > w.number && !equal;
    return a > w.number || equal;   // >=
}

bool compare_text(const std::string& field, const RunFilter::Word& w) {
    const std::string f = lower(field);
    if (w.op == ":") return f.find(w.value) != std::string::npos;
    if (w.op == "=") return f == w.value;
    if (w.op == "!=") return f != w.value;
    double a = 0;   // a number kept as text (a tag "48"): as a number where both are
    return w.is_number && read_number(f, a) && compare_numbers(a, w);
}

// One value of the run's: a number where it is one and the word gives one, else its text.
bool compare_leaf(const nlohmann::json& v, const RunFilter::Word& w) {
    if (v.is_number() && w.is_number && w.op != ":") return compare_numbers(v.get<double>(), w);
    if (v.is_string()) return compare_text(v.get<std::string>(), w);
    if (v.is_boolean() || v.is_number()) return compare_text(v.dump(), w);
    return false;
}

// Whether a setting's dotted path is named by `key`: the path itself, or its last parts ("lr", "schedule.warmup").
bool names_setting(const std::string& path, const std::string& key) {
    return path == key || (path.size() > key.size() && path.compare(path.size() - key.size(), key.size(), key) == 0 &&
                           path[path.size() - key.size() - 1] == '.');
}

// The run's settings `key` names (names_setting).
void settings_named(const nlohmann::json& j, const std::string& path, const std::string& key, std::vector<const nlohmann::json*>& out) {
    if (j.is_object()) {
        for (auto it = j.begin(); it != j.end(); ++it)
            settings_named(it.value(), path.empty() ? lower(it.key()) : path + "." + lower(it.key()), key, out);
        return;
    }
    if (j.is_array() || j.is_null()) return;
    if (names_setting(path, key)) out.push_back(&j);
}

}  // namespace

RunFilter::RunFilter(const std::string& text) {
    for (const std::string& raw : split_words(text)) {
        Word w;
        w.text = lower(raw);
        size_t p = 0;
        while (p < raw.size() && key_char(raw[p])) ++p;
        if (p > 0 && p < raw.size()) {
            static const char* const kOps[] = {"<=", ">=", "!=", "=", "<", ">", ":"};
            for (const char* op : kOps) {
                const std::string o(op);
                if (raw.compare(p, o.size(), o) == 0 && raw.size() > p + o.size()) {
                    w.key = lower(raw.substr(0, p));
                    w.op = o;
                    w.value = lower(raw.substr(p + o.size()));
                    w.is_number = read_number(w.value, w.number);
                    break;
                }
            }
        }
        words_.push_back(std::move(w));
    }
}

bool RunFilter::matches(const RunInfo& r, double val, const std::vector<std::string>& more) const {
    const std::string server = remote_ref(r).dest;
    for (const Word& w : words_) {
        auto plain = [&] {
            if (contains(r.name, w.text) || contains(r.scheme, w.text) || contains(r.status_text, w.text) ||
                contains(r.notes, w.text) || contains(server, w.text))
                return true;
            for (const std::string& t : r.tags)
                if (contains(t, w.text)) return true;
            for (const std::string& m : more)
                if (contains(m, w.text)) return true;
            return false;
        };
        if (plain()) continue;
        if (w.op.empty()) return false;
        bool ok = false;
        if (w.key == "id") ok = w.is_number && compare_numbers(static_cast<double>(r.id), w);
        else if (w.key == "steps") ok = w.is_number && compare_numbers(static_cast<double>(r.steps_done), w);
        else if (w.key == "val") ok = w.is_number && !std::isnan(val) && compare_numbers(val, w);
        else if (w.key == "name") ok = compare_text(r.name, w);
        else if (w.key == "scheme") ok = compare_text(r.scheme, w);
        else if (w.key == "status") ok = compare_text(r.status_text, w);
        else if (w.key == "notes") ok = compare_text(r.notes, w);
        else if (w.key == "server") ok = !server.empty() && compare_text(server, w);
        else if (w.key == "tag" || w.key == "tags") {
            // != : none of its tags is it (a run without tags too); else: one of them
            if (w.op == "!=") ok = std::none_of(r.tags.begin(), r.tags.end(), [&](const std::string& t) { return lower(t) == w.value; });
            else ok = std::any_of(r.tags.begin(), r.tags.end(), [&](const std::string& t) { return compare_text(t, w); });
        } else {
            std::vector<const nlohmann::json*> found;
            settings_named(r.config, "", w.key, found);
            if (w.op == "!=") ok = !found.empty() && std::all_of(found.begin(), found.end(), [&](const nlohmann::json* v) { return compare_leaf(*v, w); });
            else ok = std::any_of(found.begin(), found.end(), [&](const nlohmann::json* v) { return compare_leaf(*v, w); });
        }
        if (!ok) return false;
    }
    return true;
}

namespace {

const std::vector<std::string> kColumns{"id", "name", "scheme", "status", "tag", "tags", "notes", "server", "steps", "val"};

// Every setting's dotted path in `j`, lower case.
void setting_paths(const nlohmann::json& j, const std::string& path, std::vector<std::string>& out) {
    if (j.is_object()) {
        for (auto it = j.begin(); it != j.end(); ++it)
            setting_paths(it.value(), path.empty() ? lower(it.key()) : path + "." + lower(it.key()), out);
    } else if (!path.empty()) {
        out.push_back(path);
    }
}

}  // namespace

bool RunFilter::reads_val() const {
    return std::any_of(words_.begin(), words_.end(), [](const Word& w) { return w.key == "val"; });
}

std::vector<RunFilter::Note> RunFilter::notes(const std::vector<RunInfo>& runs) const {
    std::vector<Note> out;
    std::vector<std::string> paths, names;   // every setting's path, and each of its dotted tails (lr, schedule.warmup)
    bool read = false;
    for (const Word& w : words_) {
        if (w.op.empty()) continue;
        if ((w.op == "<" || w.op == "<=" || w.op == ">" || w.op == ">=") && !w.is_number) {
            out.push_back({Note::Kind::NotANumber, w.text, w.key, w.value, ""});
            continue;
        }
        if (std::find(kColumns.begin(), kColumns.end(), w.key) != kColumns.end()) continue;
        if (!read) {
            for (const RunInfo& r : runs) setting_paths(r.config, "", paths);
            std::sort(paths.begin(), paths.end());
            paths.erase(std::unique(paths.begin(), paths.end()), paths.end());
            for (const std::string& p : paths)
                for (size_t dot = p.find('.'); dot != std::string::npos; dot = p.find('.', dot + 1)) names.push_back(p.substr(dot + 1));
            names.insert(names.end(), paths.begin(), paths.end());
            read = true;
        }
        if (std::any_of(paths.begin(), paths.end(), [&](const std::string& p) { return names_setting(p, w.key); })) continue;
        std::vector<std::string> choices = kColumns;
        choices.insert(choices.end(), names.begin(), names.end());
        out.push_back({Note::Kind::UnknownKey, w.text, w.key, w.value, nearest(w.key, choices)});
    }
    return out;
}

std::string RunFilter::describe(const Note& n) {
    if (n.kind == Note::Kind::NotANumber)
        return n.word + ": <, <=, > and >= compare numbers, and \"" + n.value + "\" is not one";
    std::string s = n.word + ": no run has a column or setting \"" + n.key + "\"";
    if (!n.suggestion.empty()) s += "; did you mean " + n.suggestion + "?";
    return s;
}

double shown_val_loss(Store& store, const RunInfo& r) {
    if (!std::isnan(r.final_loss)) return r.final_loss;
    const std::optional<Point> p = store.last_point(r.id, "val/loss");
    return p ? p->value : std::nan("");
}

std::vector<int64_t> runs_where(Store& store, const std::string& text, std::string* why) {
    const RunFilter filter(text);
    const bool by_val = filter.reads_val();   // the latest loss read only where a word asks for it
    std::vector<int64_t> out;
    const std::vector<RunInfo> all = store.runs();
    for (const RunInfo& r : all)
        if (filter.matches(r, by_val ? shown_val_loss(store, r) : r.final_loss)) out.push_back(r.id);
    if (out.empty() && why)
        for (const RunFilter::Note& n : filter.notes(all)) *why += RunFilter::describe(n) + "\n";
    return out;
}

}  // namespace normlab

// normlab-cli sample: text written by runs' weights, a byte at a time, printed as it is drawn
// (core/train/sample.h). It opens the store read-only: nothing is written anywhere.
#include "app/cli/cli.h"

#include "core/errors.h"
#include "core/train/sample.h"

#include <cmath>
#include <cstdio>

namespace normlab::cli {
namespace {

// Prints bytes as they come, each UTF-8 character once it is whole: a byte that is a control
// character (a line break and a tab aside), or that does not belong to a valid character, is
// written as \xNN, so that what a model writes can never drive the terminal.
class TextPrinter {
public:
    void put(uint8_t b) {
        pending_ += static_cast<char>(b);
        while (!pending_.empty()) {
            const int len = whole_character();
            if (len == 0) break;   // a character's start: wait for the rest of it
            if (len < 0) {         // a byte that starts no character here
                escape(pending_[0]);
                pending_.erase(0, 1);
                continue;
            }
            const auto lead = static_cast<unsigned char>(pending_[0]), next = static_cast<unsigned char>(pending_[1]);
            const bool control = (lead < 0x20 && lead != '\n' && lead != '\t') || lead == 0x7f || (lead == 0xc2 && next < 0xa0);
            for (int i = 0; i < len; ++i)
                if (control) escape(pending_[static_cast<size_t>(i)]);
                else std::fputc(pending_[static_cast<size_t>(i)], stdout);
            pending_.erase(0, static_cast<size_t>(len));
        }
        std::fflush(stdout);
    }
    void finish() {
        for (char c : pending_) escape(c);
        pending_.clear();
        std::fflush(stdout);
    }

private:
    // The length of the valid UTF-8 character the pending bytes begin with; 0 when they are
    // the valid start of one that more bytes could complete; -1 when they begin none
    // (overlong forms and surrogates included).
    int whole_character() const {
        const auto at = [this](size_t i) { return static_cast<unsigned char>(pending_[i]); };
        const unsigned char lead = at(0);
        if (lead < 0x80) return 1;
        const int need = lead >= 0xc2 && lead <= 0xdf ? 2 : lead >= 0xe0 && lead <= 0xef ? 3 : lead >= 0xf0 && lead <= 0xf4 ? 4 : 0;
        if (need == 0) return -1;
        for (size_t i = 1; i < pending_.size() && i < static_cast<size_t>(need); ++i) {
            unsigned char lo = 0x80, hi = 0xbf;
            if (i == 1) {
                if (lead == 0xe0) lo = 0xa0;
                if (lead == 0xed) hi = 0x9f;
                if (lead == 0xf0) lo = 0x90;
                if (lead == 0xf4) hi = 0x8f;
            }
            if (at(i) < lo || at(i) > hi) return -1;
        }
        return pending_.size() >= static_cast<size_t>(need) ? need : 0;
    }
    void escape(char c) { std::printf("\\x%02x", static_cast<unsigned char>(c)); }
    std::string pending_;
};

double parse_temperature(const std::string& s) {
    try {
        size_t pos = 0;
        const double v = std::stod(s, &pos);
        if (pos == s.size() && std::isfinite(v)) return v;
    } catch (...) {
    }
    throw UsageError("--temperature expects a number from 0 to 10, got \"" + s + "\"");
}

}  // namespace

int cmd_sample(const Args& args) {
    if (args.positional.empty()) throw UsageError("sample needs a run: normlab-cli sample RUN [RUN ...] [--prompt TEXT]");
    SampleOptions o;
    o.prompt = args.opt("--prompt");
    if (args.options.count("--bytes")) o.bytes = parse_int("--bytes", args.opt("--bytes"), 1, 100000);
    if (args.options.count("--temperature")) o.temperature = parse_temperature(args.opt("--temperature"));
    if (args.options.count("--top-k")) o.top_k = parse_int("--top-k", args.opt("--top-k"), 0, 256);
    if (args.options.count("--seed")) o.seed = static_cast<uint64_t>(parse_int("--seed", args.opt("--seed"), 0));
    if (args.options.count("--slide")) {
        const auto slide = parse_slide(args.opt("--slide"));
        if (!slide) throw UsageError("--slide expects window or half, got \"" + args.opt("--slide") + "\"");
        o.slide = *slide;
    }
    const std::string weights = args.opt("--weights");
    check_sample_options(o);
    if (!weights.empty() && args.positional.size() > 1)
        throw UsageError("--weights gives one run's weights; name one run with it");

    Store store(store_path(args), Store::Mode::ReadOnly);
    std::vector<RunInfo> runs;
    for (const std::string& name : args.positional) {
        runs.push_back(store.find_run(name));
        // every run's weights are checked before any text: a missing one is said at once
        if (const std::string why = sample_weights_missing(runs.back(), weights); !why.empty())
            throw ConfigError("--weights", why + (weights.empty() ? "; give a checkpoint of it with --weights FILE" : ""));
    }
    char temp[32];
    std::snprintf(temp, sizeof temp, "%g", o.temperature);
    for (size_t i = 0; i < runs.size(); ++i) {
        const RunInfo& r = runs[i];
        TextSampler sampler(r, weights);
        if (i) std::printf("\n\n");
        std::printf("run %lld · %s · %s · step %lld · temperature %s%s · seed %llu%s\n", static_cast<long long>(r.id),
                    printable_name(r.name).c_str(), r.scheme.c_str(), static_cast<long long>(sampler.step()), temp,
                    o.top_k ? (" · top " + std::to_string(o.top_k)).c_str() : "", static_cast<unsigned long long>(o.seed),
                    o.slide == Slide::Half ? " · slide half" : "");
        TextPrinter out;
        for (unsigned char c : o.prompt) out.put(c);
        sampler.write(o, [&out](uint8_t b) {
            out.put(b);
            return true;
        });
        out.finish();
    }
    std::printf("\n");
    std::fflush(stdout);
    return kOk;
}

}  // namespace normlab::cli

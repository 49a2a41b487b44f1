// NormLab core: the registry of findings and the one entry point that
// measures them (report.h). A finding lives in the file of its paper
// (findings_*.cpp) as an analysis and a FindingSpec; adding one is a new
// spec there and two lines here (its declaration and its place in the list).
#include "core/report/measure.h"

#include "core/errors.h"

namespace normlab::report {

using nlohmann::json;

// findings_xiong.cpp
extern const FindingSpec kLastFc2GradVsDepth, kPerLayerGradsAtInit, kHiddenNormsGrow, kWarmupNeeded;
// findings_normformer.cpp
extern const FindingSpec kEarlyFc2Grads, kAblations, kLrStability, kFfnLnGains;
// findings_deepnorm_branchnorm.cpp
extern const FindingSpec kDeepPostLn;
// findings_ngpt.cpp
extern const FindingSpec kNgptSpeedConditioning;

const std::vector<const FindingSpec*>& registry() {
    static const std::vector<const FindingSpec*> all = {
        &kLastFc2GradVsDepth, &kPerLayerGradsAtInit, &kHiddenNormsGrow, &kWarmupNeeded,   // 1–4
        &kEarlyFc2Grads,      &kAblations,           &kLrStability,     &kFfnLnGains,     // 5–8
        &kDeepPostLn,                                                                       // 9
        &kNgptSpeedConditioning,                                                            // 10
    };
    return all;
}

const FindingSpec* find_spec(int number) {
    for (const FindingSpec* s : registry())
        if (s->number == number) return s;
    return nullptr;
}

int finding_count() { return static_cast<int>(registry().size()); }

bool known_finding(int n) { return find_spec(n) != nullptr; }

std::string finding_title(int n) {
    const FindingSpec* s = find_spec(n);
    return s ? s->title : "unknown finding";
}

std::string verdict_name(Verdict v) {
    switch (v) {
    case Verdict::Reproduced: return "reproduced";
    case Verdict::Partly: return "partly reproduced";
    case Verdict::NotReproduced: return "not reproduced";
    case Verdict::Inconclusive: return "inconclusive";
    }
    return "?";
}

Finding analyze(const json& entry, const std::vector<RunData>& runs, const std::string& experiment) {
    const std::string range = "1 to " + std::to_string(finding_count());
    if (!entry.is_object() || !entry.contains("finding") || !entry["finding"].is_number_integer())
        throw ConfigError("", "expected {\"finding\": N, ...} with N from " + range);
    const int n = entry["finding"].get<int>();
    const FindingSpec* spec = find_spec(n);
    if (!spec)
        throw ConfigError("finding", std::to_string(n) + " is not a finding NormLab measures; use " + range +
                                         " (docs/REPRODUCTION.md)");
    if (runs.empty()) throw ConfigError("", "finding " + std::to_string(n) + " has no runs to measure");
    Finding f = spec->analyze(entry, runs);
    f.number = n;
    f.title = spec->title;
    f.source = spec->source;
    f.claim = spec->claim;
    f.experiment = experiment;
    f.setup = detail::describe_setup(runs);
    return f;
}

}  // namespace normlab::report

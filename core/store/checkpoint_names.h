// NormLab core: the names of a run's checkpoint files, run-ID-step-S.pt, in
// <store>.checkpoints/ (no LibTorch: the store removes a deleted run's files,
// the trainer writes and replaces them).
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

namespace normlab {

inline std::string checkpoint_file(const std::string& dir, int64_t run, int64_t step) {
    return (std::filesystem::path(dir) / ("run-" + std::to_string(run) + "-step-" + std::to_string(step) + ".pt")).string();
}

// run-ID.pt (before steps were named), run-ID-step-S.pt, and either's .tmp while it is written.
inline bool is_checkpoint_of(const std::filesystem::path& p, int64_t run) {
    const std::string n = p.filename().string(), prefix = "run-" + std::to_string(run);
    if (n.rfind(prefix, 0) != 0) return false;
    const std::string rest = n.substr(prefix.size());
    auto ends = [&](const std::string& e) { return rest.size() >= e.size() && rest.compare(rest.size() - e.size(), e.size(), e) == 0; };
    return rest == ".pt" || rest == ".pt.tmp" || (rest.rfind("-step-", 0) == 0 && (ends(".pt") || ends(".pt.tmp")));
}

}  // namespace normlab

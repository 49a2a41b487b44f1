// NormLab core: CPU kernel choice (see platform.h).
#include "core/platform.h"

#include <dlfcn.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>

namespace normlab {
namespace {

std::set<std::string> cpu_flags() {
    std::ifstream f("/proc/cpuinfo");
    std::string line;
    while (std::getline(f, line))
        if (line.rfind("flags", 0) == 0) {
            std::istringstream in(line.substr(line.find(':') + 1));
            std::set<std::string> out;
            for (std::string flag; in >> flag;) out.insert(flag);
            return out;
        }
    return {};
}

bool has_avx512() {
    const auto f = cpu_flags();
    return f.count("avx512f") && f.count("avx512bw") && f.count("avx512vl") && f.count("avx512dq");
}

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
    return s;
}

}  // namespace

void* blas_symbol(const char* name) {
    if (void* f = dlsym(RTLD_DEFAULT, name)) return f;
    // PyPI's LibTorch links MKL statically and exports no BLAS: the system's
    // BLAS (Debian's OpenBLAS, scripts/setup.sh), loaded privately, if any.
    static void* const blas = dlopen("libblas.so.3", RTLD_NOW | RTLD_LOCAL);
    return blas ? dlsym(blas, name) : nullptr;
}

std::string blas_core_name() {
    using Fn = char* (*)();
    auto fn = reinterpret_cast<Fn>(blas_symbol("openblas_get_corename"));
    if (!fn) return "";
    const char* name = fn();
    return name ? name : "";
}

std::string cpu_tuning_summary() {
    const char* t = std::getenv("NORMLAB_CPU_TUNED");
    return t ? t : "";
}

void tune_cpu_kernels() {
    const char* off = std::getenv("NORMLAB_CPU_TUNING");
    if ((off && std::strcmp(off, "0") == 0) || std::getenv("NORMLAB_CPU_TUNED")) return;
    std::string summary = "none";
    if (!has_avx512()) {
        summary = "none (no AVX-512)";
    } else if (const char* aten = std::getenv("ATEN_CPU_CAPABILITY")) {
        summary = std::string("none (ATEN_CPU_CAPABILITY=") + aten + " set by the environment)";
    } else if (const char* pinned = std::getenv("OPENBLAS_CORETYPE");
               pinned && lower(pinned).find("skylakex") == std::string::npos &&
               lower(pinned).find("cooperlake") == std::string::npos && lower(pinned).find("sapphire") == std::string::npos) {
        summary = std::string("none (OPENBLAS_CORETYPE=") + pinned + " set by the environment)";
    } else {
        setenv("ATEN_CPU_CAPABILITY", "avx512", 1);
        summary = "ATen AVX-512 kernels";
    }
    setenv("NORMLAB_CPU_TUNED", summary.c_str(), 1);
}

}  // namespace normlab

// NormLab core: CPU kernel choice (see platform.h).
#include "core/platform.h"

#include <dlfcn.h>
#include <unistd.h>

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

bool set_thread_waiting() {
    const char* off = std::getenv("NORMLAB_OMP_TUNING");
    if ((off && std::strcmp(off, "0") == 0) || std::getenv("NORMLAB_OMP_TUNED")) return false;
    if (std::getenv("OMP_WAIT_POLICY") || std::getenv("GOMP_SPINCOUNT")) {
        setenv("NORMLAB_OMP_TUNED", "as the environment set it", 1);
        return false;
    }
    setenv("GOMP_SPINCOUNT", "1000", 1);
    setenv("NORMLAB_OMP_TUNED", "set by NormLab", 1);
    return true;
}

void tune_thread_waiting(char** argv) {
    if (!set_thread_waiting()) return;
    // The running OpenMP runtime has read its settings already: start again
    // with them in the environment. If that cannot be done, go on as is.
    // The program's own file (not /proc/self/exe, which would name the process "exe" in ps and top).
    char self[4096];
    const ssize_t n = ::readlink("/proc/self/exe", self, sizeof self - 1);
    if (argv && argv[0] && n > 0) {
        self[n] = 0;
        ::execv(self, argv);
    }
    setenv("NORMLAB_OMP_TUNED", "active (re-executing failed)", 1);
}

std::string thread_waiting_summary() {
    std::string s;
    const char* tuned = std::getenv("NORMLAB_OMP_TUNED");
    const char* policy = std::getenv("OMP_WAIT_POLICY");
    const char* spin = std::getenv("GOMP_SPINCOUNT");
    s = policy ? std::string("OMP_WAIT_POLICY=") + policy : std::string("OpenMP's default wait policy");
    if (spin) s += std::string(", GOMP_SPINCOUNT=") + spin;
    if (tuned) s += std::string(" (") + tuned + ")";
    return s;
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

// NormLab core: choosing the CPU kernels before LibTorch starts.
//
// LibTorch keeps its AVX-512 elementwise kernels opt-in (pytorch#80252: on
// some Intel CPUs they lower the clock). On CPUs with AVX-512 F/BW/VL/DQ the
// executables opt in (ATEN_CPU_CAPABILITY=avx512, read lazily by LibTorch, so
// setting it at the top of main() is enough): ~8% faster steps measured on
// an AMD EPYC (docs/PERFORMANCE.md). Values the user set are never overridden,
// and an OPENBLAS_CORETYPE pinned to a kernel without AVX-512 (as some VMs do,
// to stay portable across hosts) keeps AVX-512 off here too.
// NORMLAB_CPU_TUNING=0 disables it.
#pragma once

#include <string>

namespace normlab {

// Call at the top of main(), before any LibTorch work.
void tune_cpu_kernels();

// What tune_cpu_kernels decided, for logs and run metadata.
std::string cpu_tuning_summary();

// A BLAS function (e.g. "sgemm_"): LibTorch's own where it exports one (Debian's
// OpenBLAS), else the system's libblas.so.3 opened on its own; nullptr if neither.
void* blas_symbol(const char* name);
// The core name OpenBLAS uses ("Haswell", "SkylakeX", ...), "" if the BLAS is not OpenBLAS.
std::string blas_core_name();

}  // namespace normlab

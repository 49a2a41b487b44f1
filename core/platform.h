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

// OpenMP's idle threads spin before they sleep (libgomp: 300,000 spins).
// With every core given to LibTorch, a neighbour holding one core (a
// browser, an IDE, the window's own drawing) leaves a team waiting on a
// thread that spins on a core it shares: a run 2-4x slower with one of two
// cores busy (docs/PERFORMANCE.md, section 6). Threads that sleep at once
// (OMP_WAIT_POLICY=PASSIVE) keep the busy speed but cost ~15% on a quiet
// machine (a futex wake per parallel region); a short spin, GOMP_SPINCOUNT=
// 1000 (a few microseconds), keeps nearly all of both. The OpenMP runtime
// reads its settings once, when it is loaded — before main() — so this sets
// it and re-executes the program (same pid, same arguments) when the user
// set neither OMP_WAIT_POLICY nor GOMP_SPINCOUNT. The numbers are unchanged
// (only how idle threads wait). NORMLAB_OMP_TUNING=0 disables it. Call
// first thing in main().
void tune_thread_waiting(char** argv);
// Its settings put in the environment without re-executing, for a program
// that starts the one that trains (normlab-cli's front end): true when they
// were set here, false when the environment or an earlier call decided.
bool set_thread_waiting();

// How OpenMP's idle threads wait ("GOMP_SPINCOUNT=1000 (set by NormLab)",
// "OMP_WAIT_POLICY=PASSIVE (as the environment set it)", ...), for run metadata.
std::string thread_waiting_summary();

// What tune_cpu_kernels decided, for logs and run metadata.
std::string cpu_tuning_summary();

// A BLAS function (e.g. "sgemm_"): LibTorch's own where it exports one (Debian's
// OpenBLAS), else the system's libblas.so.3 opened on its own; nullptr if neither.
void* blas_symbol(const char* name);
// The core name OpenBLAS uses ("Haswell", "SkylakeX", ...), "" if the BLAS is not OpenBLAS.
std::string blas_core_name();

}  // namespace normlab

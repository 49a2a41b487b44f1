// NormLab core: P neighbouring elements of a row loaded or stored as one access
// (LDG/STG of sizeof(T)·P bytes), read and written as float through
// kernel_bodies::Io<T>. The pointer must be aligned to sizeof(T)·P bytes; the
// launchers check it and take other kernels where it is not.
#pragma once

#include "core/model/cuda_kernel_bodies.h"

#include <cstdint>
#include <initializer_list>

#ifndef NORMLAB_SIMT   // tests/simt_emulator.h runs these kernels on the CPU
#include <cuda_runtime.h>
#endif

namespace normlab::cuda_kernels {

template <int P, class T>
struct alignas(sizeof(T) * P) Pack {
    T v[P];
};
template <int P, class T>
__device__ __forceinline__ void load(const T* p, float (&out)[P]) {
    const Pack<P, T> pk = *reinterpret_cast<const Pack<P, T>*>(p);
#pragma unroll
    for (int i = 0; i < P; ++i) out[i] = kernel_bodies::Io<T>::ld(pk.v[i]);
}
template <int P, class T>
__device__ __forceinline__ void store(T* p, const float (&in)[P]) {
    Pack<P, T> pk;
#pragma unroll
    for (int i = 0; i < P; ++i) pk.v[i] = kernel_bodies::Io<T>::st(in[i]);
    *reinterpret_cast<Pack<P, T>*>(p) = pk;
}

// Whether every pointer is aligned to `bytes` (null ones pass), for the launchers.
inline bool aligned(unsigned bytes, std::initializer_list<const void*> ptrs) {
    for (const void* p : ptrs)
        if (p && reinterpret_cast<std::uintptr_t>(p) % bytes != 0) return false;
    return true;
}

}  // namespace normlab::cuda_kernels

// NormLab core: the CUDA devices this process can train on — name, total and
// free memory — for the window's device line, `server-info` and refusing a
// run that does not fit in GPU memory. LibTorch's CUDA build loads the CUDA
// runtime; its functions are looked up in the process (dlsym), so this file
// needs no CUDA headers and the CPU build simply finds none.
#include "core/train/trainer.h"

#include "core/config.h"
#include "core/errors.h"
#include "core/flops.h"

#include <torch/version.h>

#include <dlfcn.h>

#include <cstdlib>
#include <cstring>

#include <cstdio>
#include <vector>

namespace normlab {

std::vector<GpuInfo> gpu_devices() {
    std::vector<GpuInfo> out;
    const int n = cuda_device_count();
    if (n <= 0) return out;
    using SetDevice = int (*)(int);
    using GetDevice = int (*)(int*);
    using MemGetInfo = int (*)(size_t*, size_t*);
    using GetProps = int (*)(void*, int);
    auto set = reinterpret_cast<SetDevice>(::dlsym(RTLD_DEFAULT, "cudaSetDevice"));
    auto get = reinterpret_cast<GetDevice>(::dlsym(RTLD_DEFAULT, "cudaGetDevice"));
    auto mem = reinterpret_cast<MemGetInfo>(::dlsym(RTLD_DEFAULT, "cudaMemGetInfo"));
    auto props = reinterpret_cast<GetProps>(::dlsym(RTLD_DEFAULT, "cudaGetDeviceProperties_v2"));
    if (!props) props = reinterpret_cast<GetProps>(::dlsym(RTLD_DEFAULT, "cudaGetDeviceProperties"));
    int current = 0;
    if (get) get(&current);
    for (int i = 0; i < n; ++i) {
        GpuInfo g;
        g.index = i;
        // cudaDeviceProp begins with char name[256] in every CUDA version; the rest is not read.
        std::vector<char> prop(16384, 0);
        if (props && props(prop.data(), i) == 0) g.name.assign(prop.data(), strnlen(prop.data(), 256));
        size_t free_b = 0, total_b = 0;
        if (set && mem && set(i) == 0 && mem(&free_b, &total_b) == 0) {
            g.free_bytes = static_cast<double>(free_b);
            g.total_bytes = static_cast<double>(total_b);
        }
        if (g.name.empty()) g.name = "CUDA device " + std::to_string(i);
        out.push_back(g);
    }
    if (set) set(current);
    return out;
}

std::string GpuInfo::summary() const {
    char buf[384];
    if (total_bytes > 0)
        std::snprintf(buf, sizeof buf, "cuda:%d %s, %.1f of %.1f GiB free", index, name.c_str(), free_bytes / 1073741824.0,
                      total_bytes / 1073741824.0);
    else
        std::snprintf(buf, sizeof buf, "cuda:%d %s", index, name.c_str());
    return buf;
}

void check_gpu_memory(const RunConfig& cfg, const std::string& device) {
    const int index = device.size() > 5 ? std::atoi(device.c_str() + 5) : 0;
    for (const GpuInfo& g : gpu_devices()) {
        if (g.index != index || g.free_bytes <= 0) continue;
        try {
            // LibTorch ≥ 2.1 attends with scaled_dot_product_attention on a GPU, probe steps too (gpt.cpp).
            check_memory(cfg, 0.9 * g.free_bytes, TORCH_VERSION_MAJOR * 100 + TORCH_VERSION_MINOR >= 201);
        } catch (const ConfigError& e) {
            // The same numbers, said of the GPU.
            std::string m = e.message();
            const std::string avail = " of memory is available";
            if (auto at = m.find(avail); at != std::string::npos)
                m.replace(at, avail.size(), " of GPU memory is free on " + device + " (" + g.name + ")");
            if (e.path() == "train.batch_size") m += "; or let normlab-cli measure the largest batch that fits: --batch auto";
            throw ConfigError(e.path(), m);
        }
    }
}

double device_peak(const std::string& device, const std::string& precision) {
    if (const char* given = std::getenv("NORMLAB_PEAK_TFLOPS")) {   // any device, the CPU too
        const double t = std::atof(given);
        if (t > 0) return t * 1e12;
    }
    if (device.rfind("cuda", 0) != 0) return 0;
    const int index = device.size() > 5 ? std::atoi(device.c_str() + 5) : 0;
    for (const GpuInfo& g : gpu_devices())
        if (g.index == index) return device_peak_flops(g.name, precision);   // the rate of the run's matmuls
    return 0;
}

}  // namespace normlab

// normlab-cli server-info: what this NormLab is, for the other side's
// `remote check` (docs/REMOTE.md): versions, stream protocol, the store, and
// the GPUs as LibTorch sees them (so it is the engine's, not the front end's).
#include "app/cli/cli.h"

#include "core/errors.h"
#include "core/remote/stream.h"
#include "core/store/store_internal.h"

#include <cstdio>
#include <filesystem>

namespace normlab::cli {
using nlohmann::json;

int cmd_server_info(const Args& args) {
    const std::string path = store_path(args);
    json j = library_versions();
    j["protocol"] = kStreamProtocol;
    j["schema"] = Store::kSchemaVersion;
    j["host"] = store_detail::host_name();
    j["store"] = std::filesystem::absolute(path).lexically_normal().string();
    j["cuda_devices"] = cuda_device_count();
    j["gpus"] = nlohmann::json::array();
    for (const GpuInfo& g : gpu_devices()) j["gpus"].push_back(g.summary());
    std::error_code ec;
    j["store_exists"] = std::filesystem::exists(path, ec);
    j["store_error"] = "";
    if (j["store_exists"].get<bool>()) {
        try {
            Store s(path, Store::Mode::ReadOnly);
            j["store_schema"] = s.schema_version();
            j["runs"] = s.runs().size();
        } catch (const StoreError& e) {
            j["store_error"] = e.what();
        }
    }
    std::printf("%s\n", j.dump().c_str());
    return kOk;
}

}  // namespace normlab::cli

// NormLab core: batched writes of one run (see RunWriter in store.h).
#include "core/store/store.h"

namespace normlab {

// ---- RunWriter --------------------------------------------------------------
RunWriter::RunWriter(Store& store, int64_t run, double flush_seconds)
    : store_(store), run_(run), flush_seconds_(flush_seconds), last_flush_(now_seconds()) {}

RunWriter::~RunWriter() {
    try {
        flush();
    } catch (...) {
        // never throw from a destructor; the caller flushes explicitly to see errors
    }
}

int64_t RunWriter::id_for(const std::string& name, int layer) {
    auto key = std::make_pair(name, layer);
    if (auto it = ids_.find(key); it != ids_.end()) return it->second;
    const int64_t id = store_.series_id(run_, name, layer);
    ids_[key] = id;
    return id;
}

void RunWriter::scalar(const std::string& name, int64_t step, double value) { layer(name, -1, step, value); }

void RunWriter::layer(const std::string& name, int layer, int64_t step, double value) {
    points_.push_back({id_for(name, layer), step, value});
}

void RunWriter::distribution(Distribution d) { dists_.emplace_back(run_, std::move(d)); }

void RunWriter::maybe_flush() {
    if (now_seconds() - last_flush_ >= flush_seconds_) flush();
}

void RunWriter::flush() {
    store_.write_batch(points_, dists_, run_);
    points_.clear();
    dists_.clear();
    last_flush_ = now_seconds();
}

void RunWriter::flush_with_checkpoint(const std::string& checkpoint, int64_t step) {
    store_.write_batch(points_, dists_, run_, &checkpoint, step);
    points_.clear();
    dists_.clear();
    last_flush_ = now_seconds();
}

}  // namespace normlab

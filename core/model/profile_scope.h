// NormLab core: a named span of the model or of the training step in a profiler's trace
// ("normlab::attention"), by which bench/trace_ops.py gives each GPU kernel its part of
// the model. Costs a flag test when no profiler runs.
#pragma once

#include <ATen/SequenceNumber.h>
#include <ATen/record_function.h>

#include <vector>

namespace normlab {

class ProfileScope {
public:
    explicit ProfileScope(const char* name) : rf_(at::RecordScope::USER_SCOPE) {
        if (rf_.isActive()) rf_.before(name, c10::ArrayRef<const c10::IValue>{});
    }
    ProfileScope(const ProfileScope&) = delete;
    ProfileScope& operator=(const ProfileScope&) = delete;

private:
    at::RecordFunction rf_;
};

// The forward pass of one of NormLab's own autograd functions (torch::autograd::Function)
// as an operator in the trace, named, with its inputs' shapes and the sequence number of
// the autograd node being recorded (Function::apply makes the node, numbering it, just
// before it calls forward with gradients off, so no other node is numbered in between):
// a profile then names the kernels this forward launches, and those its backward
// launches, by the function ("∇ normlab::ngpt_update [32,1024,768] f32").
class FunctionScope {
public:
    template <class... Tensors>
    explicit FunctionScope(const char* name, const Tensors&... inputs) : rf_(at::RecordScope::FUNCTION) {
        if (!rf_.isActive()) return;
        inputs_ = {c10::IValue(inputs)...};
        rf_.before(name, c10::ArrayRef<const c10::IValue>(inputs_.data(), inputs_.size()),
                   static_cast<int64_t>(at::sequence_number::peek()) - 1);
    }
    FunctionScope(const FunctionScope&) = delete;
    FunctionScope& operator=(const FunctionScope&) = delete;

private:
    at::RecordFunction rf_;
    std::vector<c10::IValue> inputs_;
};

}  // namespace normlab

// NormLab widgets: one Transformer block as the Block tab draws it — which normalizations, scales
// and sub-layers a configuration puts where on the residual stream, and the toggle behind each.
//
// The stream runs up the left column, each sub-layer F (attention, MLP) up the right one and back
// into the stream at ⊕: x ← after(residual scales · x  ⊕  branch scales · F(x)). Post-LN's LayerNorm
// is an `after` part on the stream, Pre-LN's the first part of F; NormFormer adds parts to F and a
// scale λ to the MLP's residual; DeepNorm scales the residual by α, BranchNorm F by α_t; nGPT
// normalizes F's output and the sum, with (1 − α) ⊙ x ⊕ α ⊙ F(x). What each part computes is the
// code's (docs/SCHEMES.md), not a drawing of the scheme's name: a Post-LN run with NormFormer's FFN
// LN switched on shows it.
//
// Texts are Qt translation sources (context "BlockDiagram"): the view translates them as it draws.
#pragma once

#include "core/config.h"

#include <QString>

#include <functional>
#include <vector>

namespace normlab {

struct BlockPart {
    enum class Kind { Norm, Layer, Scale, End };   // a normalization; a sub-layer's computation; a scale; input or output
    Kind kind = Kind::Layer;
    QString id;                  // the same part in any configuration ("attn.norm_in", "mlp.ffn_norm"): what is compared
    const char* label = "";      // translation source; %1 is `arg`
    QString arg;
    const char* tip = "";        // translation source: what it computes
    QString setting;             // the form's toggle that adds or removes it ("model.normformer.ffn_norm"); empty: none
    bool on = true;              // false: a part the configuration lacks that `setting` would add (drawn dashed)
};

struct BlockStage {
    QString id;                           // "attn" | "mlp"
    std::vector<BlockPart> branch;        // F, from its input up
    std::vector<BlockPart> branch_scales; // on F's output where it joins the stream
    std::vector<BlockPart> residual_scales;   // on the stream where F joins it
    std::vector<BlockPart> after;         // on the stream after the sum
};

struct BlockDiagram {
    std::vector<BlockPart> input;         // from the bytes up to the first block
    std::vector<BlockStage> stages;       // attention, then MLP
    std::vector<BlockPart> output;        // from the last block up to the logits
    int n_layers = 0;
    Layout layout = Layout::Pre;

    std::vector<const BlockPart*> parts() const;   // every part, bottom to top
    const BlockPart* find(const QString& id) const;
};

// The block `m` describes. Parts it lacks whose toggle `offered` accepts (the form: the toggle's
// field is enabled) are added switched off, so that a click on one can switch it on.
BlockDiagram block_diagram(const ModelConfig& m, const std::function<bool(const QString&)>& offered = {});

QString block_part_text(const BlockPart& p);   // its label, translated
QString block_part_tip(const BlockPart& p);    // what it computes and the setting behind it, translated

// Where the blocks compared differ, against the first (the form's, or the first run's): in each of the
// others, its parts the first lacks or has with another text; in the first, its parts that none of the
// others has alike (two blocks: each one's parts the other lacks). Parts switched off count as missing.
// One list of ids per diagram.
std::vector<std::vector<QString>> block_differences(const std::vector<const BlockDiagram*>& diagrams);

}  // namespace normlab

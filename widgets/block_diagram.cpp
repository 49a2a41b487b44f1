// NormLab widgets: block_diagram (see block_diagram.h). Each part follows the model's code
// (core/model/gpt.cpp): where BlockImpl::forward puts a norm or a scale, the diagram does.
#include "widgets/block_diagram.h"

#include <QCoreApplication>

#include <map>
#include <set>

namespace normlab {

namespace {

const char* const kContext = "normlab::BlockDiagram";

BlockPart part(BlockPart::Kind kind, const QString& id, const char* label, const char* tip, const QString& arg = {},
               const QString& setting = {}) {
    BlockPart p;
    p.kind = kind;
    p.id = id;
    p.label = label;
    p.arg = arg;
    p.tip = tip;
    p.setting = setting;
    return p;
}

QString number(double v) { return QString::number(v, 'g', 3); }

// Adds `p` where the configuration has it; else, where the form offers its toggle, switched off.
void add(std::vector<BlockPart>& to, BlockPart p, bool has, const std::function<bool(const QString&)>& offered) {
    if (!has && !(offered && !p.setting.isEmpty() && offered(p.setting))) return;
    p.on = has;
    to.push_back(std::move(p));
}

void ngpt_block(const ModelConfig& m, BlockDiagram& d, const std::function<bool(const QString&)>& offered) {
    using K = BlockPart::Kind;
    d.input.push_back(part(K::End, "embed", QT_TRANSLATE_NOOP("normlab::BlockDiagram", "embedding, ‖·‖ = 1"),
                           QT_TRANSLATE_NOOP("normlab::BlockDiagram", "A row per byte; every vector along d has norm 1 (the embeddings, the weights' rows or columns, "
                                                             "renormalized after every optimizer step, and the hidden state h); no positions added (RoPE in the attention)")));
    BlockStage attn;
    attn.id = "attn";
    attn.branch.push_back(part(K::Layer, "attn.qkv", QT_TRANSLATE_NOOP("normlab::BlockDiagram", "q, k, v · RoPE"),
                               QT_TRANSLATE_NOOP("normlab::BlockDiagram", "q, k, v = h W_{q}ᵀ, h W_{k}ᵀ, h W_{v}ᵀ, split into heads; RoPE rotates q and k")));
    auto qk = part(K::Norm, "attn.qk_norm",
                   m.ngpt.qk_norm ? QT_TRANSLATE_NOOP("normlab::BlockDiagram", "s_{qk} ⊙ norm(q, k)") : QT_TRANSLATE_NOOP("normlab::BlockDiagram", "s_{qk} ⊙ q, k"),
                   QT_TRANSLATE_NOOP("normlab::BlockDiagram", "q and k each normalized per head and scaled by the learned s_{qk} (qk_norm off: scaled only)"),
                   {}, "model.ngpt.qk_norm");
    attn.branch.push_back(qk);
    attn.branch.push_back(part(K::Layer, "attn.heads", QT_TRANSLATE_NOOP("normlab::BlockDiagram", "attention"),
                               QT_TRANSLATE_NOOP("normlab::BlockDiagram", "softmax(q kᵀ · √d_{h} + causal mask) v per head: q and k are unit vectors, so the product is a cosine")));
    attn.branch.push_back(part(K::Layer, "attn.out", QT_TRANSLATE_NOOP("normlab::BlockDiagram", "W_{O}"),
                               QT_TRANSLATE_NOOP("normlab::BlockDiagram", "The output projection, its columns on the sphere")));
    attn.branch.push_back(part(K::Norm, "attn.norm_out", QT_TRANSLATE_NOOP("normlab::BlockDiagram", "norm → h_{A}"),
                               QT_TRANSLATE_NOOP("normlab::BlockDiagram", "h_{A} = norm(attention output): the sub-layer's suggestion, on the sphere")));
    BlockStage mlp;
    mlp.id = "mlp";
    mlp.branch.push_back(part(K::Layer, "mlp.fc1", QT_TRANSLATE_NOOP("normlab::BlockDiagram", "FC1 → u, g"),
                              QT_TRANSLATE_NOOP("normlab::BlockDiagram", "u, g = FC1 h: d → 2 × d_{ff}")));
    mlp.branch.push_back(part(K::Scale, "mlp.suv", QT_TRANSLATE_NOOP("normlab::BlockDiagram", "s_{u} ⊙ u, s_{v} ⊙ g"),
                              QT_TRANSLATE_NOOP("normlab::BlockDiagram", "The learned scalers s_{u} and s_{v} (fixed at 1 with scalers off); g also × √d")));
    mlp.branch.push_back(part(K::Layer, "mlp.act", QT_TRANSLATE_NOOP("normlab::BlockDiagram", "u ⊙ SiLU(g)"),
                              QT_TRANSLATE_NOOP("normlab::BlockDiagram", "SwiGLU")));
    mlp.branch.push_back(part(K::Layer, "mlp.fc2", QT_TRANSLATE_NOOP("normlab::BlockDiagram", "FC2"),
                              QT_TRANSLATE_NOOP("normlab::BlockDiagram", "FC2: d_{ff} → d, its columns on the sphere")));
    mlp.branch.push_back(part(K::Norm, "mlp.norm_out", QT_TRANSLATE_NOOP("normlab::BlockDiagram", "norm → h_{M}"),
                              QT_TRANSLATE_NOOP("normlab::BlockDiagram", "h_{M} = norm(MLP output)")));
    const char* eigen_tip = m.ngpt.eigen_lr
        ? QT_TRANSLATE_NOOP("normlab::BlockDiagram", "Eigen learning rate: how far h moves towards the sub-layer's suggestion, learned per dimension (init 0.05)")
        : QT_TRANSLATE_NOOP("normlab::BlockDiagram", "Eigen learning rate, fixed at its initial value (eigen_lr off)");
    for (BlockStage* s : {&attn, &mlp}) {
        const QString a = s == &attn ? "α_{A}" : "α_{M}";
        s->branch_scales.push_back(part(K::Scale, s->id + ".alpha", QT_TRANSLATE_NOOP("normlab::BlockDiagram", "%1 ⊙"), eigen_tip, a));
        s->residual_scales.push_back(part(K::Scale, s->id + ".keep", QT_TRANSLATE_NOOP("normlab::BlockDiagram", "(1 − %1) ⊙"),
                                          QT_TRANSLATE_NOOP("normlab::BlockDiagram", "h + α ⊙ (h_{F} − h): h keeps 1 − α of itself"), a));
        s->after.push_back(part(K::Norm, s->id + ".norm_after", QT_TRANSLATE_NOOP("normlab::BlockDiagram", "norm"),
                                QT_TRANSLATE_NOOP("normlab::BlockDiagram", "h back onto the unit sphere after each update (nGPT eq. 10, 11)")));
    }
    d.stages = {attn, mlp};
    d.output.push_back(part(K::End, "logits", QT_TRANSLATE_NOOP("normlab::BlockDiagram", "logits = s_{z} ⊙ h W_{out}ᵀ"),
                            QT_TRANSLATE_NOOP("normlab::BlockDiagram", "The output embedding (untied, rows on the sphere), the logits scaled by the learned s_{z}")));
    (void)offered;
}

}  // namespace

BlockDiagram block_diagram(const ModelConfig& m, const std::function<bool(const QString&)>& offered) {
    using K = BlockPart::Kind;
    BlockDiagram d;
    d.n_layers = m.n_layers;
    d.layout = m.layout;
    if (m.layout == Layout::NGPT) {
        ngpt_block(m, d, offered);
        return d;
    }
    const bool post = m.layout == Layout::Post;
    const QString norm = m.norm == NormKind::RMSNorm ? "RMSNorm" : "LN";

    // the input on one line: the embedding and, where they are added to it, the positions
    const char* input = m.positions == Positions::Learned
                            ? (m.embed_scale ? QT_TRANSLATE_NOOP("normlab::BlockDiagram", "embedding × √d + positions")
                                             : QT_TRANSLATE_NOOP("normlab::BlockDiagram", "embedding + positions"))
                        : m.positions == Positions::Sinusoidal
                            ? (m.embed_scale ? QT_TRANSLATE_NOOP("normlab::BlockDiagram", "embedding × √d + sin. positions")
                                             : QT_TRANSLATE_NOOP("normlab::BlockDiagram", "embedding + sin. positions"))
                            : (m.embed_scale ? QT_TRANSLATE_NOOP("normlab::BlockDiagram", "embedding × √d") : QT_TRANSLATE_NOOP("normlab::BlockDiagram", "embedding"));
    d.input.push_back(part(K::End, "embed", input,
                           QT_TRANSLATE_NOOP("normlab::BlockDiagram", "x₀ = E[byte] (× √d with embed_scale), plus absolute positions where the model has them: learned, or sinusoidal (sin.); RoPE is in the attention")));

    BlockStage attn, mlp;
    attn.id = "attn";
    mlp.id = "mlp";
    const char* in_tip = QT_TRANSLATE_NOOP("normlab::BlockDiagram", "Pre-LN: the sub-layer's input normalized, x ← x + F(LN(x)); the stream itself never is");
    const char* after_tip = QT_TRANSLATE_NOOP("normlab::BlockDiagram", "Post-LN: the stream normalized after each sum, x ← LN(x + F(x))");
    if (!post) attn.branch.push_back(part(K::Norm, "attn.norm_in", "%1", in_tip, norm + "₁"));
    attn.branch.push_back(part(K::Layer, "attn.heads",
                               m.positions == Positions::RoPE ? QT_TRANSLATE_NOOP("normlab::BlockDiagram", "attention · RoPE")
                                                              : QT_TRANSLATE_NOOP("normlab::BlockDiagram", "attention"),
                               QT_TRANSLATE_NOOP("normlab::BlockDiagram", "softmax(q kᵀ / √d_{h} + causal mask) v per head, q, k, v = x W_{qkv}ᵀ")));
    const auto head_scale = part(K::Scale, "attn.head_scale", QT_TRANSLATE_NOOP("normlab::BlockDiagram", "HeadScale γ"),
                                 QT_TRANSLATE_NOOP("normlab::BlockDiagram", "NormFormer's HeadScale: each head's output times its learned γ_{i}, init 1"),
                                 {}, "model.normformer.head_scale");
    const bool before = m.normformer.head_scale_placement == HeadScalePlacement::BeforeOutProj;
    if (before) add(attn.branch, head_scale, m.normformer.head_scale, offered);
    attn.branch.push_back(part(K::Layer, "attn.out", QT_TRANSLATE_NOOP("normlab::BlockDiagram", "W_{O}"),
                               QT_TRANSLATE_NOOP("normlab::BlockDiagram", "The output projection: Concat(heads) W_{O}ᵀ")));
    if (!before) add(attn.branch, head_scale, m.normformer.head_scale, offered);
    add(attn.branch,
        part(K::Norm, "attn.post_norm", "%1", QT_TRANSLATE_NOOP("normlab::BlockDiagram", "NormFormer's post-attention LN, over d, on the attention's output"),
             norm + QString::fromUtf8(" (post-attn)"), "model.normformer.post_attn_norm"),
        m.normformer.post_attn_norm, offered);

    if (!post) mlp.branch.push_back(part(K::Norm, "mlp.norm_in", "%1", in_tip, norm + "₂"));
    mlp.branch.push_back(part(K::Layer, "mlp.fc1", QT_TRANSLATE_NOOP("normlab::BlockDiagram", "FC1"),
                              QT_TRANSLATE_NOOP("normlab::BlockDiagram", "FC1: d → d_{ff} (SwiGLU: → 2 × d_{ff}, u and g)")));
    const char* act = m.activation == Activation::GELU ? "GELU" : m.activation == Activation::ReLU ? "ReLU" : "u ⊙ SiLU(g)";
    mlp.branch.push_back(part(K::Layer, "mlp.act", "%1", QT_TRANSLATE_NOOP("normlab::BlockDiagram", "The activation (model.activation)"), act));
    add(mlp.branch,
        part(K::Norm, "mlp.ffn_norm", "%1", QT_TRANSLATE_NOOP("normlab::BlockDiagram", "NormFormer's FFN LN, over d_{ff}, after the activation"),
             norm + QString::fromUtf8(" (FFN)"), "model.normformer.ffn_norm"),
        m.normformer.ffn_norm, offered);
    mlp.branch.push_back(part(K::Layer, "mlp.fc2", QT_TRANSLATE_NOOP("normlab::BlockDiagram", "FC2"), QT_TRANSLATE_NOOP("normlab::BlockDiagram", "FC2: d_{ff} → d")));

    for (BlockStage* s : {&attn, &mlp}) {
        add(s->branch_scales,
            part(K::Scale, s->id + ".alpha_t", QT_TRANSLATE_NOOP("normlab::BlockDiagram", "× α_{t}"),
                 QT_TRANSLATE_NOOP("normlab::BlockDiagram", "BranchNorm: the sub-layer's output times α_{t}, rising from 0 to 1 over T steps"), {},
                 "model.branchnorm.enabled"),
            m.branchnorm.enabled, offered);
        add(s->residual_scales,
            part(K::Scale, s->id + ".alpha", QT_TRANSLATE_NOOP("normlab::BlockDiagram", "× α = %1"),
                 QT_TRANSLATE_NOOP("normlab::BlockDiagram", "DeepNorm: the residual times α = (2N)^¼, x ← LN(α·x + F(x))"),
                 number(m.deepnorm.alpha ? *m.deepnorm.alpha : deepnorm_alpha_for(m.n_layers)),
                 "model.deepnorm.residual"),
            m.deepnorm.residual, offered);
    }
    add(mlp.residual_scales,
        part(K::Scale, "mlp.res_scale", QT_TRANSLATE_NOOP("normlab::BlockDiagram", "ResScale λ ⊙"),
             QT_TRANSLATE_NOOP("normlab::BlockDiagram", "NormFormer's ResScale: the MLP's residual times a learned λ ∈ ℝᵈ, init 1"), {},
             "model.normformer.res_scale"),
        m.normformer.res_scale, offered);
    if (post) {
        attn.after.push_back(part(K::Norm, "attn.norm_after", "%1", after_tip, norm + "₁"));
        mlp.after.push_back(part(K::Norm, "mlp.norm_after", "%1", after_tip, norm + "₂"));
    }
    d.stages = {attn, mlp};
    add(d.output,
        part(K::Norm, "final_norm", "%1", QT_TRANSLATE_NOOP("normlab::BlockDiagram", "The final norm before the output layer"),
             norm + QString::fromUtf8("_{f}"), "model.final_norm"),
        m.final_norm, offered);
    d.output.push_back(part(K::End, "logits",
                            m.tie_embeddings ? QT_TRANSLATE_NOOP("normlab::BlockDiagram", "logits = x Eᵀ") : QT_TRANSLATE_NOOP("normlab::BlockDiagram", "logits = x W_{out}ᵀ"),
                            m.tie_embeddings ? QT_TRANSLATE_NOOP("normlab::BlockDiagram", "The output layer, tied to the token embedding")
                                             : QT_TRANSLATE_NOOP("normlab::BlockDiagram", "The output layer, its own matrix (untied)")));
    return d;
}

std::vector<const BlockPart*> BlockDiagram::parts() const {
    std::vector<const BlockPart*> out;
    for (auto& p : input) out.push_back(&p);
    for (auto& s : stages)
        for (auto* list : {&s.branch, &s.branch_scales, &s.residual_scales, &s.after})
            for (auto& p : *list) out.push_back(&p);
    for (auto& p : output) out.push_back(&p);
    return out;
}

const BlockPart* BlockDiagram::find(const QString& id) const {
    for (auto* p : parts())
        if (p->id == id) return p;
    return nullptr;
}

QString block_part_text(const BlockPart& p) {
    const QString t = QCoreApplication::translate(kContext, p.label);
    return p.arg.isEmpty() ? t : t.arg(p.arg);
}

QString block_part_tip(const BlockPart& p) {
    QString tip = QCoreApplication::translate(kContext, p.tip);
    if (!p.setting.isEmpty())
        tip += "\n" + (p.on ? QCoreApplication::translate("normlab::BlockDiagram", "%1 (click to switch it off in the form)")
                            : QCoreApplication::translate("normlab::BlockDiagram", "Off: %1 (click to switch it on in the form)"))
                          .arg(p.setting);
    return tip;
}

std::vector<std::vector<QString>> block_differences(const std::vector<const BlockDiagram*>& diagrams) {
    // each diagram's parts switched on: id → text
    std::vector<std::map<QString, QString>> on;
    for (auto* d : diagrams) {
        on.emplace_back();
        for (auto* p : d->parts())
            if (p->on) on.back()[p->id] = block_part_text(*p);
    }
    auto alike = [&on](size_t b, const QString& id, const QString& text) {   // diagram b has the part as it is
        auto it = on[b].find(id);
        return it != on[b].end() && it->second == text;
    };
    std::vector<std::vector<QString>> out(diagrams.size());
    for (size_t i = 0; i < on.size() && on.size() > 1; ++i)
        for (auto& [id, text] : on[i]) {
            bool differs = false;
            if (i > 0) differs = !alike(0, id, text);
            else {   // the first: what none of the others has alike
                differs = true;
                for (size_t k = 1; k < on.size() && differs; ++k) differs = !alike(k, id, text);
            }
            if (differs) out[i].push_back(id);
        }
    return out;
}

}  // namespace normlab

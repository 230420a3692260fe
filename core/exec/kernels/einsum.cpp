#include "core/exec/kernels/einsum.h"

#include <algorithm>
#include <map>

#include "core/exec/kernels/elementwise_util.h"

namespace ql {

namespace {

// Labels are letters (their char code) or ellipsis dims (kEllipsis + position within the ellipsis).
constexpr int kEllipsis = 256;

struct Term {
    std::vector<int> labels;  // one per dim of the operand
};

// Parses one side of the equation ("ab...c") for an operand of `rank` dims; fails on a bad character.
std::optional<Term> parseTerm(const std::string& s, int64_t rank, int64_t ellipsisRank) {
    Term t;
    const size_t dots = s.find("...");
    const int64_t letters = static_cast<int64_t>(s.size()) - (dots == std::string::npos ? 0 : 3);
    const int64_t own = rank < 0 ? ellipsisRank : rank - letters;  // this operand's ellipsis dims
    if (own < 0 || (dots == std::string::npos && own != 0 && rank >= 0)) return std::nullopt;
    for (size_t i = 0; i < s.size(); ++i) {
        if (i == dots) {
            for (int64_t k = 0; k < own; ++k) t.labels.push_back(kEllipsis + static_cast<int>(ellipsisRank - own + k));
            i += 2;
        } else if (std::isalpha(static_cast<unsigned char>(s[i]))) {
            t.labels.push_back(s[i]);
        } else {
            return std::nullopt;
        }
    }
    return t;
}

template <typename T>
void contract(const std::vector<const T*>& data, const std::vector<std::vector<int64_t>>& strides,
              const std::vector<int64_t>& sizes, size_t outLabels, T* out, int64_t outCount) {
    const size_t n = data.size(), labels = sizes.size();
    int64_t inner = 1;
    for (size_t l = outLabels; l < labels; ++l) inner *= sizes[l];
    parallelFor(outCount, std::max<int64_t>(1, 4096 / std::max<int64_t>(1, inner)), [&](int64_t begin, int64_t end) {
        std::vector<int64_t> idx(labels), base(n), off(n);
        for (int64_t o = begin; o < end; ++o) {
            int64_t rest = o;
            for (size_t l = outLabels; l-- > 0;) {
                idx[l] = rest % sizes[l];
                rest /= sizes[l];
            }
            for (size_t k = 0; k < n; ++k) {
                base[k] = 0;
                for (size_t l = 0; l < outLabels; ++l) base[k] += idx[l] * strides[k][l];
            }
            T sum = T(0);
            for (int64_t r = 0; r < inner; ++r) {
                int64_t rr = r;
                T product = T(1);
                std::copy(base.begin(), base.end(), off.begin());
                for (size_t l = labels; l-- > outLabels;) {
                    const int64_t i = rr % sizes[l];
                    rr /= sizes[l];
                    for (size_t k = 0; k < n; ++k) off[k] += i * strides[k][l];
                }
                for (size_t k = 0; k < n; ++k) product = static_cast<T>(product * data[k][off[k]]);
                sum = static_cast<T>(sum + product);
            }
            out[o] = sum;
        }
    });
}

// The operand terms of "ab,bc->ac" and the output term, if given.
struct Equation {
    std::vector<std::string> operands;
    std::optional<std::string> output;
};

Equation splitEquation(const std::string& equation) {
    Equation e;
    const size_t arrow = equation.find("->");
    const std::string lhs = equation.substr(0, arrow);
    for (size_t start = 0;;) {
        const size_t comma = lhs.find(',', start);
        e.operands.push_back(lhs.substr(start, comma - start));
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    if (arrow != std::string::npos) e.output = equation.substr(arrow + 2);
    return e;
}

// The loop nest: output labels first, then the summed ones, with each operand's stride per label.
struct Plan {
    std::vector<int64_t> sizes;
    size_t outputLabels = 0;
    std::vector<std::vector<int64_t>> strides;
};

Result<Plan> planContraction(const KernelContext& ctx, const std::string& text, const std::vector<Tensor>& inputs) {
    const Equation eq = splitEquation(text);
    if (eq.operands.size() != inputs.size())
        return ctx.fail("the equation '" + text + "' names " + std::to_string(eq.operands.size()) +
                        " operands but the node has " + std::to_string(inputs.size()));
    int64_t ellipsisRank = 0;
    for (size_t k = 0; k < inputs.size(); ++k)
        if (eq.operands[k].find("...") != std::string::npos)
            ellipsisRank =
                std::max<int64_t>(ellipsisRank, static_cast<int64_t>(inputs[k].rank() + 3 - eq.operands[k].size()));
    std::vector<Term> terms;
    std::map<int, int64_t> size;  // per label; ellipsis dims of size 1 broadcast
    std::map<int, int> count;
    for (size_t k = 0; k < inputs.size(); ++k) {
        auto term = parseTerm(eq.operands[k], static_cast<int64_t>(inputs[k].rank()), ellipsisRank);
        if (!term || term->labels.size() != inputs[k].rank())
            return ctx.fail("operand " + std::to_string(k) + " of shape " + shapeString(inputs[k].shape()) +
                            " does not match '" + eq.operands[k] + "' in equation '" + text + "'");
        for (size_t d = 0; d < term->labels.size(); ++d) {
            const int label = term->labels[d];
            const int64_t dim = inputs[k].dim(d);
            ++count[label];
            auto [it, fresh] = size.emplace(label, dim);
            if (fresh || it->second == dim || dim == 1) continue;
            if (it->second != 1) return ctx.fail("dimension sizes for one label disagree in equation '" + text + "'");
            it->second = dim;
        }
        terms.push_back(std::move(*term));
    }
    Term output;
    if (eq.output) {
        auto parsed = parseTerm(*eq.output, -1, ellipsisRank);
        if (!parsed) return ctx.fail("cannot parse the output of equation '" + text + "'");
        output = std::move(*parsed);
    } else {  // implicit: ellipsis dims, then the labels seen once, in alphabetical order
        for (const auto& [label, seen] : count)
            if (label >= kEllipsis) output.labels.push_back(label);
        for (const auto& [label, seen] : count)
            if (label < kEllipsis && seen == 1) output.labels.push_back(label);
    }
    std::vector<int> labels = output.labels;
    for (const auto& [label, dim] : size)
        if (std::find(labels.begin(), labels.end(), label) == labels.end()) labels.push_back(label);
    Plan plan;
    plan.outputLabels = output.labels.size();
    for (int label : labels) {
        if (!size.count(label)) return ctx.fail("an output label of '" + text + "' is not in any input");
        plan.sizes.push_back(size[label]);
    }
    plan.strides.assign(inputs.size(), std::vector<int64_t>(labels.size(), 0));
    for (size_t k = 0; k < inputs.size(); ++k) {
        const Strides s = contiguousStrides(inputs[k].shape());
        for (size_t d = 0; d < terms[k].labels.size(); ++d) {
            if (inputs[k].dim(d) == 1) continue;  // broadcast
            const auto l = std::find(labels.begin(), labels.end(), terms[k].labels[d]) - labels.begin();
            plan.strides[k][static_cast<size_t>(l)] += s[d];  // repeated labels walk the diagonal
        }
    }
    return plan;
}

}  // namespace

Status EinsumKernel::init(const KernelInit& info) {
    mEquation.clear();
    for (char c : info.node.stringAttribute("equation"))
        if (c != ' ') mEquation += c;
    if (mEquation.empty()) return info.fail("needs the 'equation' attribute");
    return Status::ok();
}

Status EinsumKernel::compute(KernelContext& ctx) {
    std::vector<Tensor> inputs;
    for (size_t k = 0; k < ctx.inputCount(); ++k) {
        if (!ctx.hasInput(k)) return ctx.fail("input " + std::to_string(k) + " is missing");
        inputs.push_back(promoteHalf(ctx.input(k)));
        if (inputs[k].dtype() != inputs[0].dtype()) return ctx.fail("operands have different element types");
    }
    if (inputs.empty()) return ctx.fail("needs at least one input");
    QL_ASSIGN_OR_RETURN(Plan plan, planContraction(ctx, mEquation, inputs));
    Tensor y(inputs[0].dtype(),
             Shape(plan.sizes.begin(), plan.sizes.begin() + static_cast<int64_t>(plan.outputLabels)));
    bool ok = false;
    visitComputeType(y.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        if constexpr (!std::is_same_v<T, bool>) {
            std::vector<const T*> data;
            for (const Tensor& t : inputs) data.push_back(t.data<T>());
            contract<T>(data, plan.strides, plan.sizes, plan.outputLabels, y.data<T>(), y.elementCount());
            ok = true;
        }
    });
    if (!ok) return unsupportedType(ctx, ctx.input(0).dtype());
    setOutputAs(ctx, 0, std::move(y), ctx.input(0).dtype());
    return Status::ok();
}

}  // namespace ql

#pragma once
// Index tuples of GatherND / ScatterND: the last axis of `indices` holds k coordinates into the leading
// axes of data (after `batchDims` batch axes); each tuple addresses a slice of the remaining axes.
#include <vector>

#include "core/exec/kernel.h"

namespace ql {

struct NdSlices {
    Shape sliceShape;              // data.shape[batchDims + k:]
    int64_t sliceSize = 0;         // elements per slice
    std::vector<int64_t> offsets;  // per index tuple (batches in order): flat offset of its slice in data
};

Result<NdSlices> ndSlices(const KernelContext& ctx, const Shape& dataShape, const Shape& indexShape,
                          std::span<const int64_t> indices, int64_t batchDims);

}  // namespace ql

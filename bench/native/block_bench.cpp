// Whole-block validation, one fixture block per benchmark: BM_ValidateBlock/<height>.
//
// One iteration = the work of one wasm validateBlock call in a worker (wasm/bindings.cpp,
// workers/batch-handler.mjs), natively, on this thread: ValidateBlock
// (native/validation/block_validation.h) over the binary spent outputs (the form the JS side
// hands the engine, serialized once beforehand) with VerifyMode::kSynchronous, the workers'
// mode: decode the spent outputs, parse the block, recompute its hash and merkle roots, CheckBlock, match the
// spent outputs, run every input through the interpreter with its sighashes, each signature
// check verified when the interpreter asks (as Core's script checks with one thread).
// Not measured: reading the files, the JSON-to-binary conversion of the spent outputs (the JS
// side's, once per block), the UTXO set lookups Core performs instead, proof of work and the
// other contextual checks ValidateBlock does not make (block.h CheckBlock), and what only the
// wasm call does (copying the arguments into wasm memory, building the JS result object).
//
// Rates: items_per_second = final signature checks/s, inputs_per_second, bytes_per_second =
// block bytes/s. Stage counters, mean ns per iteration, wall clock (the engine's StageTimes,
// util/stage_times.h, the same ones wasm validateBlock returns as `times`): parse_ns, sighash_ns,
// script_ns, verify_ns, and spent_ns (the engine's ParseSpentOutputsBinary, times.spentMs in
// wasm). bench/compare/whole-block.mjs sets them against the wasm figures stage by stage.
#include <memory>
#include <string>

#include <benchmark/benchmark.h>

#include "benchmarks.h"
#include "util/stage_times.h"

namespace ibd::bench {

void RegisterBlockBenchmarks(const std::vector<FixtureBlock>& blocks) {
    for (const FixtureBlock& b : blocks) {
        const std::string name = "BM_ValidateBlock/" + std::to_string(b.height);
        const FixtureBlock* block = &b;  // the caller keeps `blocks` alive while benchmarks run
        benchmark::RegisterBenchmark(name.c_str(), [block](benchmark::State& state) {
            if (!block->error.empty()) {
                state.SkipWithError(block->error.c_str());
                return;
            }
            const std::vector<uint8_t> spent_binary = SerializeSpentOutputs(block->spent);
            ValidationOptions options;
            options.verify = VerifyMode::kSynchronous;
            StageTimes sum;
            for (auto _ : state) {
                // The binary form, read by the engine as in a worker's validateBlock.
                const BlockValidationResult r =
                    ValidateBlock(block->raw.data(), block->raw.size(), spent_binary.data(), spent_binary.size(),
                                  block->hash, block->height, ChainContext{}, options);
                sum.spent_ns += r.times.spent_ns;
                sum.parse_ns += r.times.parse_ns;
                sum.sighash_ns += r.times.sighash_ns;
                sum.script_ns += r.times.script_ns;
                sum.verify_ns += r.times.verify_ns;
                benchmark::DoNotOptimize(r);
            }
            const int64_t n = state.iterations();
            state.SetItemsProcessed(n * static_cast<int64_t>(block->validation.origins.size()));
            state.SetBytesProcessed(n * static_cast<int64_t>(block->raw.size()));
            state.counters["inputs_per_second"] =
                benchmark::Counter(static_cast<double>(n) * block->validation.inputs, benchmark::Counter::kIsRate);
            const auto per_iteration = [](int64_t ns) {
                return benchmark::Counter(static_cast<double>(ns), benchmark::Counter::kAvgIterations);
            };
            state.counters["spent_ns"] = per_iteration(sum.spent_ns);
            state.counters["parse_ns"] = per_iteration(sum.parse_ns);
            state.counters["sighash_ns"] = per_iteration(sum.sighash_ns);
            state.counters["script_ns"] = per_iteration(sum.script_ns);
            state.counters["verify_ns"] = per_iteration(sum.verify_ns);
            state.SetLabel(std::to_string(block->validation.origins.size()) + " checks, " +
                           std::to_string(block->validation.inputs) + " inputs");
        });
    }
}

}  // namespace ibd::bench
